import {
  type EscalationConfigData,
  type EscalationRecipient,
  type EscalationSeverity,
  MAX_ESCALATION_DELAY_MINUTES,
  MAX_ESCALATION_STEPS,
  type SaveEscalationConfigRequest,
} from '@flightdeck/schemas';

/** A later step as the form edits it: recipients as option keys (`u:<user id>`, `i:<integration id>`). */
export interface StepValues {
  delay: number | '';
  recipients: string[];
}

/** What one step is wrong about, as i18n keys under `escalation.errors` with their values. */
export type StepProblem = {
  key: 'delayRange' | 'delayOrder' | 'noRecipient';
  values?: Record<string, number>;
};

export const keyOf = (r: EscalationRecipient): string =>
  r.kind === 'user' ? `u:${r.user_id}` : `i:${r.integration_id}`;

export function recipientOf(key: string): EscalationRecipient {
  const id = Number(key.slice(2));
  return key.startsWith('u:') ? { kind: 'user', user_id: id } : { kind: 'integration', integration_id: id };
}

/** The later steps (after the opening one) of the saved chain of `severity`; none without a chain. */
export function stepsOf(config: EscalationConfigData, severity: EscalationSeverity): StepValues[] {
  const chain = config.chains.find((c) => c.severity === severity);
  return (chain?.steps ?? [])
    .slice(1)
    .map((s) => ({ delay: s.delay_minutes, recipients: s.recipients.map(keyOf) }));
}

/** A new step: 15 minutes after the one before it (capped at the longest delay), nobody named yet. */
export function newStep(steps: readonly StepValues[]): StepValues {
  const last = steps.at(-1)?.delay;
  const base = typeof last === 'number' ? last : 0;
  return { delay: Math.min(base + 15, MAX_ESCALATION_DELAY_MINUTES), recipients: [] };
}

/** Can another step be added (the opening step counts). */
export const canAddStep = (steps: readonly StepValues[]) => steps.length + 1 < MAX_ESCALATION_STEPS;

/** Swaps who is told at two steps; the delays stay where they are, so they keep increasing. */
export function moveRecipients(steps: readonly StepValues[], from: number, to: number): StepValues[] {
  if (to < 0 || to >= steps.length) return [...steps];
  const out = steps.map((s) => ({ ...s }));
  const a = out[from]!.recipients;
  out[from]!.recipients = out[to]!.recipients;
  out[to]!.recipients = a;
  return out;
}

/** The problems of each later step (same rules as the api), index for index. */
export function stepProblems(steps: readonly StepValues[]): StepProblem[][] {
  return steps.map((step, i) => {
    const problems: StepProblem[] = [];
    const before = i === 0 ? 0 : steps[i - 1]!.delay;
    if (step.delay === '' || step.delay < 1 || step.delay > MAX_ESCALATION_DELAY_MINUTES) {
      problems.push({ key: 'delayRange', values: { max: MAX_ESCALATION_DELAY_MINUTES } });
    } else if (typeof before === 'number' && step.delay <= before) {
      problems.push({ key: 'delayOrder', values: { before } });
    }
    if (step.recipients.length === 0) problems.push({ key: 'noRecipient' });
    return problems;
  });
}

/** The request that saves the chain, or null while a step has a problem. */
export function toRequest(
  severity: EscalationSeverity,
  steps: readonly StepValues[],
): SaveEscalationConfigRequest | null {
  if (stepProblems(steps).some((p) => p.length > 0)) return null;
  return {
    severity,
    steps: [
      { delay_minutes: 0, recipients: [] },
      ...steps.map((s) => ({ delay_minutes: s.delay as number, recipients: s.recipients.map(recipientOf) })),
    ],
  };
}
