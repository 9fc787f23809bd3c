import {
  type CompareOperator,
  DefinedThresholdRequest,
  type Labels,
  MAX_THRESHOLD_FOR_S,
  type Threshold,
} from '@flightdeck/schemas';

/**
 * The threshold form as typed (text fields), turned into a `defined_threshold` request checked by
 * the shared schema. Errors come back per field as i18n keys under `alerts.form.errors`, so the
 * schema's English rules read in the user's language.
 */

export interface ThresholdFormValues {
  /** Set when editing: `defined_threshold` replaces that threshold. */
  id?: number;
  /** The selected server only, or every server of the customer. */
  scope: 'server' | 'all';
  metric: string;
  /** Series labels as typed: `mount=/, device=sda`; empty for every series of the metric. */
  labels: string;
  operator: CompareOperator;
  yellow: string;
  red: string;
  recovery: string;
  /** Seconds the level must hold before the alert opens. */
  forSeconds: string;
  enabled: boolean;
}

export type ThresholdField = Exclude<keyof ThresholdFormValues, 'id'>;

export interface FieldError {
  /** Key under `alerts.form.errors`. */
  key: string;
  values?: Record<string, string | number>;
}

export type FieldErrors = Partial<Record<ThresholdField, FieldError>>;

/** Operators that fire on a true/false value and need no level (red when they fire). */
export const BOOLEAN_OPERATORS: ReadonlySet<CompareOperator> = new Set(['bool', 'not_bool']);

export function emptyThresholdForm(scope: 'server' | 'all', metric = 'cpu.total'): ThresholdFormValues {
  return {
    scope,
    metric,
    labels: '',
    operator: 'gt',
    yellow: '',
    red: '',
    recovery: '',
    forSeconds: '0',
    enabled: true,
  };
}

const text = (v: number | null) => (v === null ? '' : String(v));

export function thresholdToForm(threshold: Threshold): ThresholdFormValues {
  return {
    id: threshold.id,
    scope: threshold.server_id === null ? 'all' : 'server',
    metric: threshold.metric,
    labels: formatLabels(threshold.labels),
    operator: threshold.operator,
    yellow: text(threshold.yellow),
    red: text(threshold.red),
    recovery: text(threshold.recovery),
    forSeconds: String(threshold.for_s),
    enabled: threshold.enabled,
  };
}

/** `{mount: '/'}` as typed in the form: `mount=/`. */
export function formatLabels(labels: Labels | null): string {
  if (!labels) return '';
  return Object.entries(labels)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
}

/** `mount=/, device=sda` → `{mount: '/', device: 'sda'}`; empty → null; undefined when malformed. */
export function parseLabels(input: string): Labels | null | undefined {
  const trimmed = input.trim();
  if (trimmed === '') return null;
  const out: Labels = {};
  for (const part of trimmed.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) return undefined;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (!/^[a-z_][a-z0-9_]*$/.test(key) || value === '' || key in out) return undefined;
    out[key] = value;
  }
  return out;
}

/** A level as typed: '' is none, a decimal comma is accepted; undefined when it is not a number. */
export function parseLevel(input: string): number | null | undefined {
  const trimmed = input.trim().replace(',', '.');
  if (trimmed === '') return null;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(trimmed)) return undefined;
  const n = Number(trimmed);
  return Number.isFinite(n) ? n : undefined;
}

/** The schema's rule messages, by the key the form shows them with. */
const RULE_KEYS: Readonly<Record<string, string>> = {
  'give a yellow level, a red level or both': 'levelsRequired',
  'the red level must not be below the yellow level': 'redBelowYellow',
  'the red level must not be above the yellow level': 'redAboveYellow',
  'the recovery level must not be above the lowest alerting level': 'recoveryAbove',
  'the recovery level must not be below the highest alerting level': 'recoveryBelow',
  'not a metric of the catalogue': 'metricUnknown',
};

const FIELD_OF: Readonly<Record<string, ThresholdField>> = {
  metric: 'metric',
  labels: 'labels',
  operator: 'operator',
  yellow: 'yellow',
  red: 'red',
  recovery: 'recovery',
  for_s: 'forSeconds',
  enabled: 'enabled',
  server_id: 'scope',
};

export type ThresholdFormResult =
  | { ok: true; request: DefinedThresholdRequest }
  | { ok: false; errors: FieldErrors };

/**
 * The request for the form's values, or the errors to show. `serverId` is the server the page
 * shows (null when it shows all servers: the threshold then applies to every server).
 */
export function thresholdRequest(values: ThresholdFormValues, serverId: number | null): ThresholdFormResult {
  const errors: FieldErrors = {};
  const boolean = BOOLEAN_OPERATORS.has(values.operator);
  const levels = {
    yellow: boolean ? null : parseLevel(values.yellow),
    red: boolean ? null : parseLevel(values.red),
    recovery: boolean ? null : parseLevel(values.recovery),
  };
  for (const field of ['yellow', 'red', 'recovery'] as const) {
    if (levels[field] === undefined) errors[field] = { key: 'number' };
  }
  const labels = parseLabels(values.labels);
  if (labels === undefined) errors.labels = { key: 'labels' };
  const forText = values.forSeconds.trim();
  const forSeconds = forText === '' ? 0 : Number(forText);
  if (!/^\d*$/.test(forText) || forSeconds > MAX_THRESHOLD_FOR_S) {
    errors.forSeconds = { key: 'forRange', values: { max: MAX_THRESHOLD_FOR_S } };
  }
  if (values.metric === '') errors.metric = { key: 'metricRequired' };
  if (Object.keys(errors).length > 0) return { ok: false, errors };

  const body = {
    ...(values.id !== undefined ? { id: values.id } : {}),
    server_id: values.scope === 'all' ? null : serverId,
    metric: values.metric,
    labels: labels ?? null,
    operator: values.operator,
    yellow: levels.yellow ?? null,
    red: levels.red ?? null,
    recovery: levels.recovery ?? null,
    for_s: forSeconds,
    enabled: values.enabled,
  };
  const parsed = DefinedThresholdRequest.safeParse(body);
  if (parsed.success) return { ok: true, request: parsed.data };
  for (const issue of parsed.error.issues) {
    const field = FIELD_OF[String(issue.path[0])] ?? 'metric';
    if (errors[field]) continue;
    const key = RULE_KEYS[issue.message];
    errors[field] = key ? { key } : { key: 'invalid', values: { message: issue.message } };
  }
  return { ok: false, errors };
}
