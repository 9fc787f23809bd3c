import type { ChartData, Labels, MetricBatch } from '@flightdeck/schemas';

/**
 * The metric store: the collector writes, the api reads. Two implementations (SQLite for the
 * embedded mode, QuestDB at scale) pass one contract suite (contract.test.ts).
 *
 * Times: batches carry unix milliseconds; queries take and answer unix seconds, as the chart
 * contract and the console do.
 */
export interface MetricStore {
  readonly kind: 'sqlite' | 'questdb';
  /**
   * Validates every batch (envelope with zod, samples in a tight loop) and writes them in one
   * transaction. A malformed batch rejects the whole call with an `InvalidBatchError` naming the
   * field (e.g. `batches[2].samples[7].v`) before anything of the call is written; data accepted by
   * earlier calls is never touched. Writing the same (series, ts) again replaces the value.
   */
  write(batches: readonly MetricBatch[], options?: WriteOptions): Promise<WriteResult>;
  /** Series over a range, in the chart contract. See {@link SeriesQuery}. */
  query(q: SeriesQuery): Promise<ChartData>;
  /** The newest sample of every series that matches. */
  latest(selector: SeriesSelector): Promise<LatestSample[]>;
  /** Deletes samples (and rollups) older than `days` days; returns how many sample rows went. */
  retention(days: number): Promise<{ deleted: number }>;
  health(): Promise<ComponentHealth>;
  /**
   * Keeps a batch the collector could not take (malformed on the bus, refused by `write`) with the
   * reason, so it can be looked at later instead of vanishing. The payload is cut to
   * {@link DEAD_LETTER_PAYLOAD_MAX} bytes.
   */
  deadLetter(entry: DeadLetterInput): Promise<void>;
  /** The newest dead letters first (default limit 100). */
  deadLetters(options?: { limit?: number }): Promise<DeadLetter[]>;
  /** Finishes pending writes and releases the connection. */
  close(): Promise<void>;
}

export interface WriteOptions {
  /**
   * Every batch already passed `parseMetricBatch` (the bus hands consumers only such batches), so
   * the store does not validate again. Anything else must leave it unset.
   */
  validated?: boolean;
}

/** Most bytes of a dead letter's payload that are kept. */
export const DEAD_LETTER_PAYLOAD_MAX = 64 * 1024;

export interface DeadLetterInput {
  /** Why it was refused, e.g. `samples[3].v: expected a finite number`. */
  reason: string;
  /** The message as received (bytes are read as UTF-8; an object is written as JSON). */
  payload: string | Uint8Array | unknown;
  /** Unix milliseconds; default now. */
  at?: number;
}

export interface DeadLetter {
  /** Unix milliseconds when it was refused. */
  at: number;
  reason: string;
  /** The payload, at most {@link DEAD_LETTER_PAYLOAD_MAX} bytes of it. */
  payload: string;
  /** True when the payload was longer and was cut. */
  truncated: boolean;
}

/** The stored form of a dead letter: payload as text cut to the limit on a character boundary. */
export function deadLetterRow(entry: DeadLetterInput, now = Date.now()): DeadLetter {
  const p = entry.payload;
  let text: string;
  if (typeof p === 'string') text = p;
  else if (p instanceof Uint8Array) text = Buffer.from(p.buffer, p.byteOffset, p.byteLength).toString('utf8');
  else {
    try {
      text = JSON.stringify(p) ?? String(p);
    } catch {
      text = String(p);
    }
  }
  let truncated = false;
  if (Buffer.byteLength(text) > DEAD_LETTER_PAYLOAD_MAX) {
    truncated = true;
    // Cut the bytes, then drop a partial character the cut may have left at the end.
    text = Buffer.from(text)
      .subarray(0, DEAD_LETTER_PAYLOAD_MAX)
      .toString('utf8')
      .replace(/\uFFFD$/, '');
  }
  return { at: entry.at ?? now, reason: entry.reason.slice(0, 1024), payload: text, truncated };
}

export interface WriteResult {
  batches: number;
  samples: number;
}

/** Which series: all of `metric` on `host` (and `service`), optionally narrowed by labels. */
export interface SeriesSelector {
  tenant: string;
  host: string;
  service?: string;
  /** A metric name, or a list of them (one chart shows several metrics). */
  metric: string | readonly string[];
  /** Only series whose labels contain all of these pairs. */
  labels?: Labels;
}

export type Aggregate = 'avg' | 'min' | 'max' | 'sum' | 'count';

export interface SeriesQuery {
  /** One or more selectors; every matching series becomes one y field. */
  series: readonly SeriesSelector[];
  /** Unix seconds, inclusive. */
  start: number;
  /** Unix seconds, exclusive. */
  end: number;
  /**
   * Most points wanted per series (default 1,000). The bucket width is the range divided by this,
   * rounded up to a whole multiple of the resolution of the table read.
   */
  maxPoints?: number;
  /** Bucket width in seconds; when given, used instead of the one derived from maxPoints. */
  step?: number;
  agg?: Aggregate;
}

export interface LatestSample {
  host: string;
  service?: string;
  metric: string;
  labels: Labels;
  /** Unix milliseconds. */
  ts: number;
  value: number;
}

export interface ComponentHealth {
  state: 'ok' | 'degraded' | 'down';
  detail?: string;
}

/**
 * The y field name of a series in the chart contract: the metric, then its labels in key order,
 * e.g. `disk.used_pct{mount=/}`; with several hosts in one query the host leads: `db1:cpu.user`.
 */
export function seriesField(metric: string, labels: Labels, host?: string): string {
  const keys = Object.keys(labels).sort();
  const body = keys.length ? `${metric}{${keys.map((k) => `${k}=${labels[k]}`).join(',')}}` : metric;
  return host ? `${host}:${body}` : body;
}

/** Canonical label string kept with each series: keys sorted, `k=v` joined by commas. */
export function canonicalLabels(labels: Labels | undefined): string {
  if (!labels) return '';
  // Hot path (every sample written): one label needs no key array and no sort.
  let only: string | undefined;
  let n = 0;
  for (const k in labels) {
    if (n++ === 0) only = k;
    else break;
  }
  if (n === 0) return '';
  if (n === 1) return `${only}=${labels[only!]}`;
  const keys = Object.keys(labels);
  if (keys.length === 0) return '';
  keys.sort();
  let out = '';
  for (const k of keys) out += `${out ? ',' : ''}${k}=${labels[k]}`;
  return out;
}
