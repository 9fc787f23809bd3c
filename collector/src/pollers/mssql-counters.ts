import { round } from './rates';

/**
 * Counter types of sys.dm_os_performance_counters (`cntr_type`, the Windows performance counter
 * types) and how each reads: a snapshot, a running total whose rate is taken between two polls, a
 * fraction of its base counter, or an average whose value and base both run and are divided over
 * the interval.
 */
export const CNTR_TYPE = {
  /** PERF_COUNTER_LARGE_RAWCOUNT: the last value observed (User Connections, Page life expectancy). */
  RAWCOUNT: 65792,
  /** PERF_COUNTER_COUNTER: a running total of a per-second counter (32-bit). */
  COUNTER: 272696320,
  /** PERF_COUNTER_BULK_COUNT: a running total of a per-second counter (Batch Requests/sec). */
  BULK_COUNT: 272696576,
  /** PERF_LARGE_RAW_FRACTION: divided by its base counter as read (Buffer cache hit ratio). */
  RAW_FRACTION: 537003264,
  /** PERF_AVERAGE_BULK: change over the interval divided by its base's change (Average Wait Time). */
  AVERAGE_BULK: 1073874176,
  /** PERF_LARGE_RAW_BASE: the base of a fraction or an average. */
  RAW_BASE: 1073939712,
} as const;

/** One row of sys.dm_os_performance_counters; `object` without its instance prefix. */
export interface MssqlCounter {
  object: string;
  counter: string;
  instance: string;
  value: number;
  type: number;
}
/** Counters keyed by {@link counterKey}. */
export type MssqlCounters = ReadonlyMap<string, MssqlCounter>;

/** Key of a counter in {@link MssqlCounters}: object, counter and instance, lower-case. */
export function counterKey(object: string, counter: string, instance = ''): string {
  return `${object}|${counter}|${instance}`.toLowerCase();
}
const key = counterKey;

/** A snapshot counter's value; undefined for a counter of another type. */
export function snapshotValue(counters: MssqlCounters, object: string, counter: string, instance = '') {
  const c = counters.get(key(object, counter, instance));
  return c?.type === CNTR_TYPE.RAWCOUNT ? c.value : undefined;
}

/** A per-second counter's running total since the instance started; undefined for another type. */
export function runningTotal(counters: MssqlCounters, object: string, counter: string, instance = '') {
  const c = counters.get(key(object, counter, instance));
  return c && (c.type === CNTR_TYPE.BULK_COUNT || c.type === CNTR_TYPE.COUNTER) ? c.value : undefined;
}

/** A fraction counter over its base, 0 to 1; undefined while the base is 0. */
export function fractionValue(counters: MssqlCounters, object: string, counter: string, base: string) {
  const c = counters.get(key(object, counter));
  const b = counters.get(key(object, base));
  if (c?.type !== CNTR_TYPE.RAW_FRACTION || b?.type !== CNTR_TYPE.RAW_BASE || !(b.value > 0))
    return undefined;
  return round(Math.min(1, c.value / b.value), 4);
}

/** Buffer cache hit ratio (Buffer Manager), 0 to 1. */
export function bufferCacheHitRatio(counters: MssqlCounters): number | undefined {
  return fractionValue(counters, 'Buffer Manager', 'Buffer cache hit ratio', 'Buffer cache hit ratio base');
}

/**
 * An average counter over the interval: its change divided by its base's change (both run). No
 * value when nothing was counted in between (no lock waits: no average) or a counter went backwards.
 */
export function averageOverInterval(
  before: MssqlCounters,
  after: MssqlCounters,
  object: string,
  counter: string,
  base: string,
  instance = '',
): number | undefined {
  const read = (m: MssqlCounters, name: string, type: number) => {
    const c = m.get(key(object, name, instance));
    return c?.type === type ? c.value : undefined;
  };
  const v0 = read(before, counter, CNTR_TYPE.AVERAGE_BULK);
  const v1 = read(after, counter, CNTR_TYPE.AVERAGE_BULK);
  const b0 = read(before, base, CNTR_TYPE.RAW_BASE);
  const b1 = read(after, base, CNTR_TYPE.RAW_BASE);
  if (v0 === undefined || v1 === undefined || b0 === undefined || b1 === undefined) return undefined;
  const dv = v1 - v0;
  const db = b1 - b0;
  if (dv < 0 || !(db > 0)) return undefined;
  return round(dv / db, 2);
}
