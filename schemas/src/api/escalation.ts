import { z } from 'zod';

// ---------------------------------------------------------------------------------------------
// Escalation chains (spec section 7, "Integrations"): POST /integrations/integration/escalation_config
// and /integrations/integration/save_escalation_config.

/**
 * An escalation chain tells who is told again while an alert stays open and unacknowledged. Step 1
 * (delay 0) is the opening notification, sent as always to every enabled integration of the
 * customer's users, so it names no recipients. Each later step, `delay_minutes` after the alert
 * opened, is sent to its recipients if the alert is still open, was never acknowledged and is not
 * inside a maintenance window. A customer has a default chain and may have one per level (`R` red,
 * `Y` yellow) that replaces the default for alerts at that level.
 */

/** Most steps in a chain (the opening step included). */
export const MAX_ESCALATION_STEPS = 10;
/** Longest delay of a step: one day. */
export const MAX_ESCALATION_DELAY_MINUTES = 1440;
/** Most recipients of one step. */
export const MAX_ESCALATION_RECIPIENTS = 20;

/** Which alerts a chain is for: `default` for every level without a chain of its own. */
export const ESCALATION_SEVERITIES = ['default', 'R', 'Y'] as const;
export const EscalationSeverity = z.enum(ESCALATION_SEVERITIES);
export type EscalationSeverity = z.infer<typeof EscalationSeverity>;

/** One recipient of a step: a user of the customer (each enabled integration of theirs) or one integration. */
export const EscalationRecipient = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('user'), user_id: z.number().int().positive() }).strict(),
  z.object({ kind: z.literal('integration'), integration_id: z.number().int().positive() }).strict(),
]);
export type EscalationRecipient = z.infer<typeof EscalationRecipient>;

/** One step of a chain. */
export const EscalationStep = z
  .object({
    delay_minutes: z.number().int().min(0).max(MAX_ESCALATION_DELAY_MINUTES),
    recipients: z.array(EscalationRecipient).max(MAX_ESCALATION_RECIPIENTS),
  })
  .strict();
export type EscalationStep = z.infer<typeof EscalationStep>;

/** The shape rules of a chain's steps, shared by the request and the stored chain. */
export const EscalationSteps = z
  .array(EscalationStep)
  .min(1, 'A chain needs at least its first step.')
  .max(MAX_ESCALATION_STEPS, `A chain has at most ${MAX_ESCALATION_STEPS} steps.`)
  .superRefine((steps, ctx) => {
    steps.forEach((step, i) => {
      if (i === 0) {
        if (step.delay_minutes !== 0) {
          ctx.addIssue({
            code: 'custom',
            path: [0, 'delay_minutes'],
            message: 'The first step is the opening notification: its delay is 0 minutes.',
          });
        }
        if (step.recipients.length > 0) {
          ctx.addIssue({
            code: 'custom',
            path: [0, 'recipients'],
            message: 'The first step goes to every enabled integration; add recipients to the later steps.',
          });
        }
        return;
      }
      const before = steps[i - 1]!;
      if (step.delay_minutes <= before.delay_minutes) {
        ctx.addIssue({
          code: 'custom',
          path: [i, 'delay_minutes'],
          message: `Step ${i + 1} must wait longer than step ${i} (${before.delay_minutes} min).`,
        });
      }
      if (step.recipients.length === 0) {
        ctx.addIssue({
          code: 'custom',
          path: [i, 'recipients'],
          message: `Step ${i + 1} needs at least one recipient.`,
        });
      }
      const keys = step.recipients.map((r) => (r.kind === 'user' ? `u${r.user_id}` : `i${r.integration_id}`));
      if (new Set(keys).size !== keys.length) {
        ctx.addIssue({
          code: 'custom',
          path: [i, 'recipients'],
          message: `Step ${i + 1} names a recipient twice.`,
        });
      }
    });
  });

/** A saved chain. */
export const EscalationChain = z
  .object({
    severity: EscalationSeverity,
    steps: EscalationSteps,
    /** Unix seconds of the last save. */
    updated_at: z.number().int(),
  })
  .strict();
export type EscalationChain = z.infer<typeof EscalationChain>;

/** A user of the customer who can be named in a step. */
export const EscalationUser = z
  .object({ id: z.number().int().positive(), name: z.string(), email: z.string() })
  .strict();
export type EscalationUser = z.infer<typeof EscalationUser>;

/** An integration of the customer's users that can be named in a step (its target as shown). */
export const EscalationIntegration = z
  .object({
    id: z.number().int().positive(),
    user_id: z.number().int().positive(),
    channel: z.enum(['email', 'telegram', 'slack', 'gchat', 'whatsapp']),
    target: z.string(),
    enabled: z.boolean(),
  })
  .strict();
export type EscalationIntegration = z.infer<typeof EscalationIntegration>;

/** Body of `escalation_config`: nothing (the session names the customer). */
export const EscalationConfigRequest = z.object({}).strict();
export type EscalationConfigRequest = z.infer<typeof EscalationConfigRequest>;

/** Data of `escalation_config`: the chains saved, and who can be named in them. */
export const EscalationConfigData = z
  .object({
    chains: z.array(EscalationChain),
    users: z.array(EscalationUser),
    integrations: z.array(EscalationIntegration),
  })
  .strict();
export type EscalationConfigData = z.infer<typeof EscalationConfigData>;

/**
 * Body of `save_escalation_config`: the whole chain of one severity. A chain of only its first step
 * removes the chain (alerts are told once, as without escalation). Recipients must be users or
 * integrations of the caller's customer (checked by the api).
 */
export const SaveEscalationConfigRequest = z
  .object({ severity: EscalationSeverity, steps: EscalationSteps })
  .strict();
export type SaveEscalationConfigRequest = z.infer<typeof SaveEscalationConfigRequest>;
