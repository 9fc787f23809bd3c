import { type MetricBatch, type MetricUnit, metricByName } from '@flightdeck/schemas';
import type { Logger } from 'pino';
import { canonicalLabels, type MetricStore, type SeriesSelector, seriesField } from '../store/contract';
import {
  advance,
  createRuleIndex,
  type RuleLevel,
  type RuleMatch,
  type RuleTransition,
  type SavedState,
  type SeriesRule,
  type SeriesRuleState,
} from './rules';

/**
 * Dynamic thresholds (README "Dynamic thresholds"): each series gets a baseline learnt from its own
 * history, a median and a spread per hour of the week, and a sample is judged by how many spreads
 * it lies from the median of its hour. Learning reads the store and runs about hourly
 * ({@link DynamicSet.relearn}); evaluation runs on every sample beside the defined thresholds.
 */

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const WEEK = 7 * DAY;
/** MAD times this estimates the standard deviation of normally distributed values. */
const MAD_TO_SIGMA = 1.4826;
/** Sigma never reaches 0: a score divides by it. */
const MIN_SIGMA = 1e-9;

/** The algorithm name every dynamic alert carries. */
export const BASELINE_ALGORITHM = 'seasonal-median-mad' as const;

/** Where a band comes from, most specific first: the hour of the week, the hour of the day, all history. */
export const BASELINE_SEASONS = ['hour_of_week', 'hour_of_day', 'global'] as const;
/** Where a band comes from. */
export type BaselineSeason = (typeof BASELINE_SEASONS)[number];

const DAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
const hh = (h: number) => String(h).padStart(2, '0');
/** Season keys, made once so a band costs no string: `mon-14`, `14`, `all`. */
const WEEK_KEYS = Array.from({ length: 168 }, (_, i) => `${DAY_NAMES[Math.floor(i / 24)]}-${hh(i % 24)}`);
const DAY_KEYS = Array.from({ length: 24 }, (_, h) => hh(h));

/**
 * Smallest sigma per unit, so a flat series does not alarm on tiny noise: two percentage points,
 * one connection, ten milliseconds...
 */
export const SIGMA_FLOOR_BY_UNIT: Readonly<Record<MetricUnit, number>> = {
  percent: 2,
  ratio: 0.02,
  bytes: 1_048_576,
  bytes_per_second: 10_240,
  per_second: 0.5,
  count: 1,
  seconds: 1,
  milliseconds: 10,
  celsius: 1,
  days: 1,
};

/** The absolute sigma floor of a metric, by its catalogue unit; 0 for a metric the catalogue does not list. */
export function sigmaFloorOf(metric: string): number {
  const def = metricByName(metric);
  return def ? SIGMA_FLOOR_BY_UNIT[def.unit] : 0;
}

export interface BaselineOptions {
  /** Fewest points a season needs before its band is used (default 6). */
  minSeasonPoints?: number;
  /**
   * Fewest distinct weeks (hour of week) or days (hour of day) a season's points must come from
   * (default 2): one Monday says little about the next Monday.
   */
  minSeasonCycles?: number;
  /** History the points must span before the model raises anything (default 24 h). */
  minSpanMs?: number;
  /** Sigma floor as a fraction of |median| (default 0.05). */
  relativeFloor?: number;
  /** Sigma floor in the metric's unit (default 0; {@link learnRuleSeries} uses {@link sigmaFloorOf}). */
  absoluteFloor?: number;
  /** The seasons' clock: minutes east of UTC (default 0, UTC). */
  utcOffsetMinutes?: number;
}

/**
 * What is learnt for one series. Plain numbers and arrays, so it can be kept as JSON. The band of
 * each hour of the week is resolved at learning time (its own season, else its hour of day, else
 * all history), so evaluating a sample is two array reads.
 */
export interface BaselineModel {
  readonly algorithm: typeof BASELINE_ALGORITHM;
  /** True once the history spans `minSpanMs`; a model that is not armed raises nothing. */
  readonly armed: boolean;
  /** Unix ms of the first and the last point learnt from (0 without points). */
  readonly from: number;
  readonly to: number;
  readonly points: number;
  readonly utcOffsetMinutes: number;
  /** Per hour of the week (0 = Sunday 00:00-01:00 on the model's clock): index in {@link BASELINE_SEASONS}. Empty when not armed. */
  readonly season: readonly number[];
  /** Per hour of the week: the median of its season. */
  readonly median: readonly number[];
  /** Per hour of the week: 1.4826 x MAD of its season, floored. */
  readonly sigma: readonly number[];
}

/** Hour of the week of a time, 0 (Sunday 00:00) to 167, on a clock `offsetMs` east of UTC. */
export function hourOfWeek(ts: number, offsetMs = 0): number {
  const h = Math.floor((ts + offsetMs) / HOUR);
  const day = Math.floor(h / 24);
  // 1970-01-01 was a Thursday.
  return ((((day + 4) % 7) + 7) % 7) * 24 + (((h % 24) + 24) % 24);
}

/**
 * Puts the k-th smallest of `a[lo..hi]` at index k, smaller ones before it and larger ones after
 * (quickselect: linear on average, where a sort is n log n; learning runs for every series hourly).
 */
function select(a: Float64Array, k: number, lo: number, hi: number): number {
  while (hi > lo) {
    // Median of three as the pivot keeps sorted or flat input from going quadratic.
    const mid = (lo + hi) >> 1;
    const x = a[lo]!;
    const y = a[mid]!;
    const z = a[hi]!;
    const pivot = x < y ? (y < z ? y : x < z ? z : x) : x < z ? x : y < z ? z : y;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i] = a[j]!;
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break;
  }
  return a[k]!;
}

/** Median of the values (reordered in place). */
function median(a: Float64Array): number {
  const n = a.length;
  const half = n >> 1;
  const upper = select(a, half, 0, n - 1);
  if (n % 2) return upper;
  // Everything before `half` is now at most `upper`: the lower middle is the largest of them.
  let lower = a[0]!;
  for (let i = 1; i < half; i++) if (a[i]! > lower) lower = a[i]!;
  return (lower + upper) / 2;
}

/** Median and MAD of the values (overwritten). */
function robust(values: Float64Array): { median: number; mad: number } {
  const m = median(values);
  for (let i = 0; i < values.length; i++) values[i] = Math.abs(values[i]! - m);
  return { median: m, mad: median(values) };
}

/**
 * Values grouped by season in one buffer (season s holds `values[start[s] .. start[s + 1])`), with
 * how many distinct cycles (weeks or days) each season's values came from.
 */
interface Seasons {
  values: Float64Array;
  start: Int32Array;
  cycles: Int32Array;
}

function groupBy(v: Float64Array, season: Uint8Array, cycle: Float64Array, count: number): Seasons {
  const start = new Int32Array(count + 1);
  const cycles = new Int32Array(count);
  const last = new Float64Array(count).fill(Number.NaN);
  for (let i = 0; i < season.length; i++) {
    const s = season[i]!;
    start[s + 1]!++;
    // Points come in time order, so a new cycle of a season shows as a change.
    if (cycle[i] !== last[s]) {
      cycles[s]!++;
      last[s] = cycle[i]!;
    }
  }
  for (let s = 0; s < count; s++) start[s + 1]! += start[s]!;
  const fill = start.slice(0, count);
  const values = new Float64Array(v.length);
  for (let i = 0; i < season.length; i++) values[fill[season[i]!]!++] = v[i]!;
  return { values, start, cycles };
}

/**
 * Learns the baseline of one series from its history: for each hour of the week the median and MAD
 * of the values seen in that hour (typically 5-minute averages over up to 4 weeks). A season is used
 * when it has `minSeasonPoints` values from `minSeasonCycles` weeks; otherwise the hour of the day
 * (all days) stands in, with the same conditions over days; otherwise all the history. Points are
 * `{t: unix ms, v}`; non-finite values are skipped.
 */
export function learnBaseline(
  points: readonly { t: number; v: number }[],
  options: BaselineOptions = {},
): BaselineModel {
  const minPoints = options.minSeasonPoints ?? 6;
  const minCycles = options.minSeasonCycles ?? 2;
  const minSpanMs = options.minSpanMs ?? DAY;
  const relFloor = options.relativeFloor ?? 0.05;
  const absFloor = options.absoluteFloor ?? 0;
  const utcOffsetMinutes = options.utcOffsetMinutes ?? 0;
  const offsetMs = utcOffsetMinutes * MINUTE;

  let pts = points.filter((p) => Number.isFinite(p.v) && Number.isFinite(p.t));
  for (let i = 1; i < pts.length; i++) {
    if (pts[i]!.t < pts[i - 1]!.t) {
      pts = pts.sort((x, y) => x.t - y.t);
      break;
    }
  }
  const n = pts.length;
  const first = pts[0]?.t ?? 0;
  const last = pts[n - 1]?.t ?? 0;
  // Each point stands for one step of time (a 5-minute average covers 5 minutes), so 288 such
  // points are a whole day although the first and the last are 23 h 55 min apart.
  let step = Number.POSITIVE_INFINITY;
  for (let i = 1; i < n; i++) {
    const gap = pts[i]!.t - pts[i - 1]!.t;
    if (gap > 0 && gap < step) step = gap;
  }
  const span = n === 0 ? 0 : last - first + (Number.isFinite(step) ? step : 0);
  const armed = n > 0 && span >= minSpanMs;
  const base = { algorithm: BASELINE_ALGORITHM, armed, from: first, to: last, points: n, utcOffsetMinutes };
  if (!armed) return { ...base, season: [], median: [], sigma: [] };

  const v = new Float64Array(n);
  const weekSlot = new Uint8Array(n);
  const daySlot = new Uint8Array(n);
  const weekOf = new Float64Array(n);
  const dayOf = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const p = pts[i]!;
    v[i] = p.v;
    weekSlot[i] = hourOfWeek(p.t, offsetMs);
    daySlot[i] = weekSlot[i]! % 24;
    weekOf[i] = Math.floor((p.t + offsetMs) / WEEK);
    dayOf[i] = Math.floor((p.t + offsetMs) / DAY);
  }
  const stats = (values: Float64Array) => {
    const r = robust(values);
    return {
      median: r.median,
      sigma: Math.max(MAD_TO_SIGMA * r.mad, relFloor * Math.abs(r.median), absFloor, MIN_SIGMA),
    };
  };
  const usable = (g: Seasons, s: number) =>
    g.start[s + 1]! - g.start[s]! >= minPoints && g.cycles[s]! >= minCycles;
  const seasonStats = (g: Seasons, s: number) => stats(g.values.subarray(g.start[s]!, g.start[s + 1]!));

  const week = groupBy(v, weekSlot, weekOf, 168);
  // The hour of the day and the whole history are worked out only if some hour of the week needs them.
  let day: Seasons | undefined;
  const daily: ({ median: number; sigma: number } | null | undefined)[] = new Array(24);
  let global: { median: number; sigma: number } | undefined;

  const season: number[] = new Array(168);
  const medians: number[] = new Array(168);
  const sigmas: number[] = new Array(168);
  for (let slot = 0; slot < 168; slot++) {
    let chosen: { median: number; sigma: number } | null | undefined;
    if (usable(week, slot)) {
      chosen = seasonStats(week, slot);
      season[slot] = 0;
    } else {
      const h = slot % 24;
      day ??= groupBy(v, daySlot, dayOf, 24);
      if (daily[h] === undefined) daily[h] = usable(day, h) ? seasonStats(day, h) : null;
      chosen = daily[h];
      season[slot] = 1;
      if (!chosen) {
        global ??= stats(v.slice());
        chosen = global;
        season[slot] = 2;
      }
    }
    medians[slot] = chosen.median;
    sigmas[slot] = chosen.sigma;
  }
  return { ...base, season, median: medians, sigma: sigmas };
}

/** The band of a series at a time: where its season's values normally lie. */
export interface Band {
  season: BaselineSeason;
  /** `mon-14` (hour of week), `14` (hour of day) or `all`, on the model's clock. */
  season_key: string;
  median: number;
  sigma: number;
  /** median - max(k x sigma, minDeviation) and median + the same. */
  lower: number;
  upper: number;
  /** k: the band's half-width in sigmas. */
  sensitivity: number;
}

export interface BandOptions {
  /** k, the band's half-width in sigmas (default 3). */
  sensitivity?: number;
  /** The half-width is at least this, in the metric's unit (default 0). */
  minDeviation?: number;
}

/** Season key of an hour of the week for a season. */
function seasonKey(season: number, slot: number): string {
  return season === 0 ? WEEK_KEYS[slot]! : season === 1 ? DAY_KEYS[slot % 24]! : 'all';
}

/** The band of a model at a time, or null when the model is not armed. */
export function band(model: BaselineModel, ts: number, options: BandOptions = {}): Band | null {
  if (!model.armed) return null;
  const k = options.sensitivity ?? 3;
  const slot = hourOfWeek(ts, model.utcOffsetMinutes * MINUTE);
  const season = model.season[slot]!;
  const median = model.median[slot]!;
  const sigma = model.sigma[slot]!;
  const half = Math.max(k * sigma, options.minDeviation ?? 0);
  return {
    season: BASELINE_SEASONS[season]!,
    season_key: seasonKey(season, slot),
    median,
    sigma,
    lower: median - half,
    upper: median + half,
    sensitivity: k,
  };
}

// ---------------------------------------------------------------------------------------------------
// Evaluation
// ---------------------------------------------------------------------------------------------------

/** Which side of the band raises: above it, below it, or both. */
export const DYNAMIC_DIRECTIONS = ['above', 'below', 'both'] as const;
export type DynamicDirection = (typeof DYNAMIC_DIRECTIONS)[number];

/** A dynamic threshold: a series is judged against its own band instead of fixed levels. */
export interface DynamicRule extends SeriesRule {
  readonly direction: DynamicDirection;
  /** k: yellow once the value is more than k sigmas from the median on a watched side. */
  readonly sensitivity: number;
  /** Red once it is more than `criticalFactor` x k sigmas away (default 1.5). */
  readonly criticalFactor?: number;
  /** How long a level's condition must hold before the level is entered (0: at once). */
  readonly forMs: number;
  /** How long the value must be back inside the band before an open alert resolves (default `forMs`). */
  readonly recoverMs?: number;
  /** Smallest distance from the median, in the metric's unit, that may raise (0: none). */
  readonly minDeviation: number;
}

/** A series of a dynamic rule changed level, with why: the band, its season and the score. */
export interface DynamicTransition extends Omit<RuleTransition, 'rule'> {
  readonly rule: DynamicRule;
  readonly algorithm: typeof BASELINE_ALGORITHM;
  /** The yellow band at the sample's time: median +/- max(k x sigma, minDeviation). */
  readonly band: { lower: number; upper: number; median: number };
  readonly season: BaselineSeason;
  readonly season_key: string;
  /** |value - median| / sigma. */
  readonly score: number;
}

/** What is kept per (dynamic rule, series) for persistence. */
export interface DynamicRuleState extends SeriesRuleState {
  /** Unix ms since the value has been back inside the band; 0 while it is outside. */
  insideSince: number;
}

/** The live state: the persisted part, plus the series' model looked up once per model change. */
interface LiveState extends DynamicRuleState {
  key: string;
  model: BaselineModel | null;
  /** Value of the set's model epoch when `model` was looked up. */
  epoch: number;
}

const newLiveState = (): LiveState => ({
  level: 'G',
  pending: 'G',
  pendingSince: 0,
  value: 0,
  ts: 0,
  insideSince: 0,
  key: '',
  model: null,
  epoch: -1,
});

/** The key a series' model is set under. */
export function modelKey(
  tenant: string,
  host: string,
  service: string,
  metric: string,
  labels: string,
): string {
  return `${tenant}\0${host}\0${service}\0${metric}\0${labels}`;
}

/** A model learnt for one series of a rule. */
export interface LearntSeries {
  key: string;
  host: string;
  /** '' when the series has no service. */
  service: string;
  /** Canonical labels. */
  labels: string;
  model: BaselineModel;
}

export interface RelearnOptions extends BaselineOptions {
  /** Hosts to learn for a rule that watches every host (host null). */
  hosts?: readonly string[];
  /** History read (default 28 days). */
  historyMs?: number;
  /** Width of the averages learnt from, in seconds (default 300). */
  stepS?: number;
}

/**
 * Learns the models of every series a rule watches from the store: 5-minute averages over the last
 * 28 days, one query per series. Series are found with `latest`, so a series that never had a
 * sample is not learnt. The absolute sigma floor defaults to the metric's unit floor.
 */
export async function learnRuleSeries(
  store: MetricStore,
  rule: SeriesRule,
  now: number,
  options: RelearnOptions = {},
): Promise<LearntSeries[]> {
  const hosts = rule.host !== null ? [rule.host] : (options.hosts ?? []);
  const stepS = options.stepS ?? 300;
  const start = Math.floor((now - (options.historyMs ?? 28 * DAY)) / 1000);
  const end = Math.floor(now / 1000);
  const learn: BaselineOptions = {
    ...options,
    absoluteFloor: options.absoluteFloor ?? sigmaFloorOf(rule.metric),
  };
  const out: LearntSeries[] = [];
  for (const host of hosts) {
    const found = await store.latest({
      tenant: rule.tenant,
      host,
      metric: rule.metric,
      ...(rule.service !== null ? { service: rule.service } : {}),
      ...(rule.labels !== null ? { labels: rule.labels } : {}),
    });
    for (const s of found) {
      const service = s.service ?? '';
      // service '' selects the series without a service; labels select supersets too, so the
      // series' own field is picked from the answer.
      const selector: SeriesSelector = {
        tenant: rule.tenant,
        host,
        service,
        metric: rule.metric,
        labels: s.labels,
      };
      const data = await store.query({ series: [selector], start, end, step: stepS, agg: 'avg' });
      const field = seriesField(rule.metric, s.labels);
      const ys = data.y_values[field];
      if (!ys) throw new Error(`store answered without the series ${field} of ${host}`);
      const points: { t: number; v: number }[] = [];
      for (let i = 0; i < ys.length; i++) {
        const v = ys[i];
        if (v !== null && v !== undefined) points.push({ t: data.x_values[i]! * 1000, v });
      }
      const labels = canonicalLabels(s.labels);
      out.push({
        key: modelKey(rule.tenant, host, service, rule.metric, labels),
        host,
        service,
        labels,
        model: learnBaseline(points, learn),
      });
    }
  }
  return out;
}

export interface DynamicSet {
  /** Replaces the rule with this id (states kept when it watches the same series) or adds it. */
  upsert(rule: DynamicRule): void;
  remove(id: number): void;
  rules(): DynamicRule[];
  /** Sets (or with null drops) the model of a series ({@link modelKey}); every rule on it uses it. */
  setModel(key: string, model: BaselineModel | null): void;
  model(key: string): BaselineModel | undefined;
  /**
   * Evaluates every sample of a batch against the dynamic rules of its tenant and calls
   * `onTransition` for each series that changed level. A series without an armed model is not
   * judged (its state stays as it was). Allocation-light, as the defined thresholds are.
   */
  evaluate(batch: MetricBatch, onTransition: (t: DynamicTransition) => void): void;
  /** The state of every (rule, series) that has left G or is pending, for persistence. */
  states(): SavedState<DynamicRuleState>[];
  /** Restores a persisted state (after a restart) so nothing is raised twice. */
  restore(ruleId: number, host: string, service: string, labels: string, state: DynamicRuleState): void;
  /**
   * Relearns the models of a rule's series from the store and sets them; meant to run hourly. A rule
   * on every host learns for `options.hosts`, else for the hosts whose samples it has seen. A host
   * the store fails on is skipped with a warning and reported in `failed`.
   */
  relearn(
    store: MetricStore,
    rule: DynamicRule,
    now: number,
    options?: RelearnOptions,
  ): Promise<{ learnt: LearntSeries[]; failed: { host: string; error: string }[] }>;
}

export interface DynamicSetOptions {
  /** Where relearning failures are logged. */
  logger?: Pick<Logger, 'warn'>;
}

/** The dynamic rules of the collector, indexed as the defined ones are. */
export function createDynamicSet(
  initial: Iterable<DynamicRule> = [],
  options: DynamicSetOptions = {},
): DynamicSet {
  const index = createRuleIndex<DynamicRule, LiveState>();
  const models = new Map<string, BaselineModel>();
  // Bumped by every setModel: a state looks its model up again only when it changed.
  let epoch = 0;
  let emit: (t: DynamicTransition) => void = () => {};

  const visit: RuleMatch<DynamicRule, LiveState> = (e, batch, hostService, service, labels, s, ts) => {
    const st = index.stateOf(e, hostService, labels, newLiveState);
    if (ts < st.ts) return; // an older sample arriving late does not move the state back
    const v = s.v;
    st.value = v;
    st.ts = ts;
    if (st.epoch !== epoch) {
      if (st.key === '') st.key = `${batch.tenant}\0${hostService}\0${s.m}\0${labels}`;
      st.model = models.get(st.key) ?? null;
      st.epoch = epoch;
    }
    const m = st.model;
    if (m === null || !m.armed || Number.isNaN(v)) return;
    const r = e.rule;
    const slot = hourOfWeek(ts, m.utcOffsetMinutes * MINUTE);
    const median = m.median[slot]!;
    const sigma = m.sigma[slot]!;
    const dev = v - median;
    const out = r.direction === 'above' ? dev : r.direction === 'below' ? -dev : Math.abs(dev);
    const yellow = Math.max(r.sensitivity * sigma, r.minDeviation);
    const red = Math.max((r.criticalFactor ?? 1.5) * r.sensitivity * sigma, r.minDeviation);
    const target: RuleLevel = out > red ? 'R' : out > yellow ? 'Y' : 'G';
    if (out > yellow) st.insideSince = 0;
    else if (st.insideSince === 0) st.insideSince = ts;
    const back = st.insideSince !== 0 && ts - st.insideSince >= (r.recoverMs ?? r.forMs);
    const from = advance(st, target, back, r.forMs, ts);
    if (from === null) return;
    const season = m.season[slot]!;
    emit({
      rule: r,
      tenant: batch.tenant,
      host: batch.host,
      service,
      metric: s.m,
      labels,
      from,
      to: st.level,
      value: v,
      ts,
      algorithm: BASELINE_ALGORITHM,
      band: { lower: median - yellow, upper: median + yellow, median },
      season: BASELINE_SEASONS[season]!,
      season_key: seasonKey(season, slot),
      score: Math.abs(dev) / sigma,
    });
  };

  const set: DynamicSet = {
    upsert(rule) {
      index.upsert(rule);
    },
    remove: (id) => index.remove(id),
    rules: () => [...index.entries()].map((e) => e.rule),
    setModel(key, model) {
      if (model === null) models.delete(key);
      else models.set(key, model);
      epoch++;
    },
    model: (key) => models.get(key),
    evaluate(batch, onTransition) {
      emit = onTransition;
      index.match(batch, visit);
    },
    states: () =>
      index.collect((st) =>
        st.level !== 'G' || st.pending !== 'G'
          ? {
              level: st.level,
              pending: st.pending,
              pendingSince: st.pendingSince,
              value: st.value,
              ts: st.ts,
              insideSince: st.insideSince,
            }
          : undefined,
      ),
    restore(ruleId, host, service, labels, state) {
      const e = index.get(ruleId);
      if (!e) return;
      const st = index.stateOf(e, `${host}\0${service}`, labels, newLiveState);
      st.level = state.level;
      st.pending = state.pending;
      st.pendingSince = state.pendingSince;
      st.value = state.value;
      st.ts = state.ts;
      st.insideSince = state.insideSince;
    },
    async relearn(store, rule, now, relearnOptions = {}) {
      let hosts = relearnOptions.hosts;
      if (rule.host === null && hosts === undefined) {
        const seen = new Set<string>();
        for (const hs of index.get(rule.id)?.states.keys() ?? []) seen.add(hs.slice(0, hs.indexOf('\0')));
        hosts = [...seen];
      }
      const learnt: LearntSeries[] = [];
      const failed: { host: string; error: string }[] = [];
      for (const host of rule.host !== null ? [rule.host] : (hosts ?? [])) {
        try {
          learnt.push(...(await learnRuleSeries(store, { ...rule, host }, now, relearnOptions)));
        } catch (err) {
          const error = err instanceof Error ? err.message : String(err);
          failed.push({ host, error });
          options.logger?.warn(
            { rule: rule.id, tenant: rule.tenant, host, metric: rule.metric, err: error },
            'dynamic threshold: baseline not relearnt',
          );
        }
      }
      for (const l of learnt) set.setModel(l.key, l.model);
      return { learnt, failed };
    },
  };
  for (const r of initial) set.upsert(r);
  return set;
}
