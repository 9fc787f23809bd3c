import { z } from 'zod';
import { ALERT_LIFECYCLE_EVENTS, ALERT_STATUSES } from './enums';
import { InvalidBatchError } from './errors';

/**
 * Messages on the bus (DESIGN section 3). Subjects are built from `tenant` and `host`, so both are
 * subject-safe tokens: letters, digits, `_` and `-` (no dots, spaces or wildcards).
 */
export const SubjectToken = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'letters, digits, "_" or "-" (1-128)');

/** Dotted, stable metric name such as `cpu.user` or `mysql.threads_running`. */
export const METRIC_NAME_RE = /^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$/;
export const MetricName = z.string().max(128).regex(METRIC_NAME_RE, 'a dotted lower-case name like cpu.user');

export const LABEL_KEY_RE = /^[a-z_][a-z0-9_]*$/;
/** Labels that tell series of one metric apart, e.g. `{mount: "/"}`. */
export const Labels = z.record(z.string().max(64).regex(LABEL_KEY_RE), z.string().max(256));
export type Labels = z.infer<typeof Labels>;

/** One value. `t` (unix ms) overrides the batch `ts` for this sample. */
export const Sample = z
  .object({
    m: MetricName,
    l: Labels.optional(),
    v: z.number().finite(),
    t: z.number().int().positive().optional(),
  })
  .strict();
export type Sample = z.infer<typeof Sample>;

export const METRIC_SOURCES = ['agent', 'poller', 'demo', 'import'] as const;
export const MAX_SAMPLES_PER_BATCH = 50_000;

/** `fd.metrics.<tenant>.<host>`: a batch of samples taken together. `ts` is unix milliseconds. */
export const MetricBatch = z
  .object({
    v: z.literal(1),
    tenant: SubjectToken,
    host: SubjectToken,
    source: z.enum(METRIC_SOURCES),
    service: z.string().min(1).max(128).optional(),
    ts: z.number().int().positive(),
    samples: z.array(Sample).min(1).max(MAX_SAMPLES_PER_BATCH),
  })
  .strict();
export type MetricBatch = z.infer<typeof MetricBatch>;

const BatchEnvelope = MetricBatch.extend({ samples: z.array(z.unknown()).min(1).max(MAX_SAMPLES_PER_BATCH) });

/** A zod issue path as one string, e.g. `samples[3].v`. */
export function zodIssuePath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out;
}

const SAMPLE_KEYS = new Set(['m', 'l', 'v', 't']);

/**
 * Validates a metric batch for the hot path: the envelope through zod, the samples in a tight loop
 * that allocates nothing for a valid sample. Returns the input typed; throws {@link InvalidBatchError}
 * naming the first bad field. Accepts exactly what {@link MetricBatch} accepts.
 */
export function parseMetricBatch(input: unknown): MetricBatch {
  const env = BatchEnvelope.safeParse(input);
  if (!env.success) {
    const issue = env.error.issues[0]!;
    throw new InvalidBatchError(zodIssuePath(issue.path), issue.message);
  }
  const samples = env.data.samples;
  for (let i = 0; i < samples.length; i++) {
    const s = samples[i] as Record<string, unknown> | null;
    if (typeof s !== 'object' || s === null || Array.isArray(s)) {
      throw new InvalidBatchError(`samples[${i}]`, 'expected an object {m, l?, v, t?}');
    }
    const m = s.m;
    if (typeof m !== 'string' || m.length > 128 || !METRIC_NAME_RE.test(m)) {
      throw new InvalidBatchError(
        `samples[${i}].m`,
        'expected a dotted lower-case metric name like cpu.user',
      );
    }
    const v = s.v;
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      throw new InvalidBatchError(`samples[${i}].v`, 'expected a finite number');
    }
    const t = s.t;
    if (t !== undefined && (typeof t !== 'number' || !Number.isSafeInteger(t) || t <= 0)) {
      throw new InvalidBatchError(`samples[${i}].t`, 'expected unix milliseconds (a positive integer)');
    }
    const l = s.l;
    if (l !== undefined) {
      if (typeof l !== 'object' || l === null || Array.isArray(l)) {
        throw new InvalidBatchError(`samples[${i}].l`, 'expected an object of string labels');
      }
      for (const k in l) {
        const lv = (l as Record<string, unknown>)[k];
        if (k.length > 64 || !LABEL_KEY_RE.test(k)) {
          throw new InvalidBatchError(`samples[${i}].l.${k}`, 'label names are lower-case words');
        }
        if (typeof lv !== 'string' || lv.length > 256) {
          throw new InvalidBatchError(`samples[${i}].l.${k}`, 'expected a string of at most 256 characters');
        }
      }
    }
    for (const k in s) {
      if (!SAMPLE_KEYS.has(k)) throw new InvalidBatchError(`samples[${i}].${k}`, 'unknown field');
    }
  }
  return input as MetricBatch;
}

/** What a host is: sent by the agent at start and whenever it changes. */
export const HostInventory = z
  .object({
    hostname: z.string().min(1).max(255),
    os: z.string().max(255),
    os_version: z.string().max(255).optional(),
    kernel: z.string().max(255).optional(),
    platform: z.enum(['linux', 'windows', 'darwin', 'other']),
    architecture: z.string().max(32),
    cores: z.number().int().nonnegative(),
    memory_bytes: z.number().nonnegative(),
    swap_bytes: z.number().nonnegative(),
    ips: z.array(z.string().max(64)).max(64),
    /** True when the agent runs in a container and reads the host through mounted /proc and /sys. */
    containerized: z.boolean().optional(),
  })
  .strict();
export type HostInventory = z.infer<typeof HostInventory>;

/** One process of a host's top lists. */
export const ProcessSnapshot = z
  .object({
    pid: z.number().int().nonnegative(),
    user: z.string().max(128),
    command: z.string().max(2048),
    cpu_pct: z.number().nonnegative(),
    mem_bytes: z.number().nonnegative(),
  })
  .strict();
export type ProcessSnapshot = z.infer<typeof ProcessSnapshot>;

/** `fd.hb.<tenant>.<host>`: an agent's heartbeat, sent every interval. */
export const Heartbeat = z
  .object({
    v: z.literal(1),
    tenant: SubjectToken,
    host: SubjectToken,
    agent_version: z.string().min(1).max(64),
    interval_s: z.number().int().positive(),
    spool_depth: z.number().int().nonnegative(),
    spool_dropped: z.number().int().nonnegative().default(0),
    ts: z.number().int().positive(),
    /** Present on the first heartbeat after start and whenever the inventory changed. */
    inventory: HostInventory.optional(),
    /** Top processes by CPU and by memory (up to 10 each) at this heartbeat. */
    top_processes: z
      .object({ by_cpu: z.array(ProcessSnapshot).max(10), by_memory: z.array(ProcessSnapshot).max(10) })
      .strict()
      .optional(),
  })
  .strict();
export type Heartbeat = z.infer<typeof Heartbeat>;

/**
 * Commands on `fd.cmd.<worker>`. `agentless_assignments` and `agentless_status` go the other way,
 * from a collector to the api (worker `api`): the targets this collector polls, and a target that
 * became unavailable or recovered. `db_inspect` reads a database's live lists (api/dbtools.ts).
 * `alert_rules` and `alert_transitions` also go to the api: a collector fetches the alert rules it
 * evaluates and sends the level changes it saw (api/alerts.ts).
 */
export const COMMANDS = [
  'connection_test',
  'explain',
  'kill',
  'thread_radar',
  'dictionary',
  'agentless_assignments',
  'agentless_status',
  'db_inspect',
  'alert_rules',
  'alert_transitions',
] as const;
export type CommandName = (typeof COMMANDS)[number];

/** `fd.cmd.<worker>`: a command for a collector or agent; answered with {@link CommandReply}. */
export const CommandRequest = z
  .object({
    v: z.literal(1),
    id: z.string().min(1).max(64),
    tenant: SubjectToken,
    command: z.enum(COMMANDS),
    params: z.record(z.string(), z.unknown()),
    /** Unix ms after which the answer is no longer awaited. */
    deadline: z.number().int().positive(),
  })
  .strict();
export type CommandRequest = z.infer<typeof CommandRequest>;

export const CommandReply = z
  .object({
    v: z.literal(1),
    id: z.string().min(1).max(64),
    status: z.enum(['ok', 'error']),
    message: z.string().optional(),
    data: z.unknown().optional(),
    ts: z.number().int().positive(),
  })
  .strict();
export type CommandReply = z.infer<typeof CommandReply>;

/** `fd.events.<tenant>`: an alert changed; fanned out to browsers over SSE. */
export const AlertEvent = z
  .object({
    v: z.literal(1),
    kind: z.literal('alert'),
    tenant: SubjectToken,
    event: z.enum(ALERT_LIFECYCLE_EVENTS),
    alert: z
      .object({
        id: z.number().int().positive(),
        historic_id: z.number().int().positive().optional(),
        server_id: z.number().int().positive(),
        service: z.string().optional(),
        type_id: z.number().int().min(1).max(49),
        status: z.enum(ALERT_STATUSES),
        text: z.string(),
        date_enter: z.number().int().nonnegative(),
        date_exit: z.number().int().nonnegative().optional(),
      })
      .strict(),
    ts: z.number().int().positive(),
  })
  .strict();
export type AlertEvent = z.infer<typeof AlertEvent>;

/** Subject builders, so no package spells a subject by hand. `prefix` is `fd` outside tests. */
export const subjects = {
  metrics: (prefix: string, tenant: string, host: string) => `${prefix}.metrics.${tenant}.${host}`,
  allMetrics: (prefix: string) => `${prefix}.metrics.>`,
  heartbeat: (prefix: string, tenant: string, host: string) => `${prefix}.hb.${tenant}.${host}`,
  allHeartbeats: (prefix: string) => `${prefix}.hb.>`,
  command: (prefix: string, worker: string) => `${prefix}.cmd.${worker}`,
  events: (prefix: string, tenant: string) => `${prefix}.events.${tenant}`,
  allEvents: (prefix: string) => `${prefix}.events.*`,
};
