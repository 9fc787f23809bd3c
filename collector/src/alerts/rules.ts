import {
  type CompareOperator,
  compare,
  type Labels,
  type MetricBatch,
  type Sample,
} from '@flightdeck/schemas';

/**
 * Defined thresholds, evaluated on every sample as it is written (DESIGN section 5). A rule watches
 * one metric of one host (or of every host of the tenant), optionally narrowed to a service and to
 * label values (a mount point, a device). It has a yellow and a red level, a separate recovery level
 * (hysteresis) and a "for" duration: a level is entered only when its condition held that long.
 */
export interface ThresholdRule {
  readonly id: number;
  readonly tenant: string;
  /** Host key; null watches every host of the tenant. */
  readonly host: string | null;
  /** Service of the series; null matches series of any service and of none. */
  readonly service: string | null;
  readonly metric: string;
  /** Label values a series must have (others may be present); null matches every series of the metric. */
  readonly labels: Labels | null;
  readonly operator: CompareOperator;
  /** Yellow level; null when the rule has none. Ignored by the boolean operators. */
  readonly warning: number | null;
  /** Red level; null when the rule has none. The boolean operators are red when they fire. */
  readonly critical: number | null;
  /**
   * Level the value must cross back over before an open alert resolves (hysteresis). Null: the
   * alert resolves as soon as no level's condition holds.
   */
  readonly recovery: number | null;
  /** How long a condition must hold before its level is entered (0: at once). */
  readonly forMs: number;
}

/** Levels a series can be at for a rule, in the spec's status letters. */
export type RuleLevel = 'G' | 'Y' | 'R';
const RANK: Record<RuleLevel, number> = { G: 0, Y: 1, R: 2 };

/** A series of a rule changed level. */
export interface RuleTransition {
  readonly rule: ThresholdRule;
  readonly tenant: string;
  readonly host: string;
  readonly service: string;
  readonly metric: string;
  /** The series' canonical labels (`mount=/`), empty when it has none. */
  readonly labels: string;
  readonly from: RuleLevel;
  readonly to: RuleLevel;
  readonly value: number;
  /** Unix ms of the sample that made the change. */
  readonly ts: number;
}

/** What is kept per (rule, series): small and mutable, so a sample allocates nothing. */
export interface SeriesRuleState {
  level: RuleLevel;
  /** Level whose condition holds but has not held for `forMs` yet, or G when none. */
  pending: RuleLevel;
  /** Unix ms since `pending` has held. */
  pendingSince: number;
  /** Last value and time seen. */
  value: number;
  ts: number;
}

/** The level a value meets by the rule's conditions alone (no hysteresis, no duration). */
export function levelOf(rule: ThresholdRule, value: number): RuleLevel {
  if (rule.operator === 'bool' || rule.operator === 'not_bool') {
    return compare(rule.operator, value) ? 'R' : 'G';
  }
  if (rule.critical !== null && compare(rule.operator, value, rule.critical)) return 'R';
  if (rule.warning !== null && compare(rule.operator, value, rule.warning)) return 'Y';
  return 'G';
}

/**
 * Whether an open alert may resolve at `value`: with a recovery level the value must be back on
 * the good side of it (below it for "greater" rules, above it for "less" rules).
 */
export function recovered(rule: ThresholdRule, value: number): boolean {
  if (rule.recovery === null || Number.isNaN(value)) return !Number.isNaN(value);
  switch (rule.operator) {
    case 'gt':
    case 'gte':
      return value < rule.recovery;
    case 'lt':
    case 'lte':
      return value > rule.recovery;
    default:
      return true;
  }
}

/**
 * Moves a (rule, series) state towards `target`, the level the newest value meets by the rule's
 * conditions, and returns the level before, or null when the level did not change. Going up waits
 * for `forMs`; going down happens at once, but from an open alert only when `recovered` says the
 * value got back past the rule's recovery condition. Every kind of rule (defined thresholds here,
 * dynamic ones in baseline.ts) decides its own target and recovery and shares this timing.
 */
export function advance(
  st: SeriesRuleState,
  target: RuleLevel,
  recovered: boolean,
  forMs: number,
  ts: number,
): RuleLevel | null {
  if (RANK[target] < RANK[st.level] && !recovered) {
    // Hysteresis: until the value recovered the alert stays where it is.
    target = st.level;
  }
  if (RANK[target] <= RANK[st.level]) {
    st.pending = 'G';
    if (target === st.level) return null;
    const from = st.level;
    st.level = target;
    return from;
  }
  if (forMs <= 0) {
    const from = st.level;
    st.level = target;
    st.pending = 'G';
    return from;
  }
  if (st.pending === 'G') {
    st.pending = target;
    st.pendingSince = ts;
    return null;
  }
  // A pending yellow that turns red keeps its start: the condition "at least yellow" held since then.
  if (RANK[target] > RANK[st.pending]) st.pending = target;
  if (ts - st.pendingSince < forMs) return null;
  const from = st.level;
  st.level = target;
  st.pending = 'G';
  return from;
}

/**
 * Moves one (rule, series) state by one sample and returns the level before, or null when the
 * level did not change. Going up waits for `forMs`; going down happens at once, but from an open
 * alert only once the value recovered past the recovery level.
 */
export function step(rule: ThresholdRule, st: SeriesRuleState, value: number, ts: number): RuleLevel | null {
  st.value = value;
  st.ts = ts;
  if (Number.isNaN(value)) return null;
  const target = levelOf(rule, value);
  // The recovery level only matters on the way down.
  const back = RANK[target] >= RANK[st.level] || recovered(rule, value);
  return advance(st, target, back, rule.forMs, ts);
}

const newState = (): SeriesRuleState => ({ level: 'G', pending: 'G', pendingSince: 0, value: 0, ts: 0 });

/** Does a sample's label set hold every label of the rule? */
function labelsHold(wanted: Labels | null, have: Labels | undefined): boolean {
  if (wanted === null) return true;
  for (const k in wanted) if (have?.[k] !== wanted[k]) return false;
  return true;
}

/** Canonical labels of a sample: `k=v` pairs sorted by key, joined with commas. */
function labelKey(l: Labels | undefined): string {
  if (l === undefined) return '';
  let first: string | undefined;
  let n = 0;
  for (const k in l) {
    if (n++ === 0) first = k;
    else break;
  }
  if (n === 0) return '';
  if (n === 1) return `${first}=${l[first!]}`;
  return Object.keys(l)
    .sort()
    .map((k) => `${k}=${l[k]}`)
    .join(',');
}

export interface RuleSet {
  /** Replaces the rule with this id (states kept when only its levels changed) or adds it. */
  upsert(rule: ThresholdRule): void;
  remove(id: number): void;
  rules(): ThresholdRule[];
  /**
   * Evaluates every sample of a batch against the rules of its tenant and calls `onTransition` for
   * each series that changed level. Allocation-light: a sample no rule watches costs one map lookup.
   */
  evaluate(batch: MetricBatch, onTransition: (t: RuleTransition) => void): void;
  /** The state of every (rule, series) that has left G or is pending, for persistence. */
  states(): { ruleId: number; host: string; service: string; labels: string; state: SeriesRuleState }[];
  /** Restores a persisted state (after a restart) so nothing is raised twice. */
  restore(ruleId: number, host: string, service: string, labels: string, state: SeriesRuleState): void;
}

/** The series a rule watches: what {@link createRuleIndex} files rules by. */
export interface SeriesRule {
  readonly id: number;
  readonly tenant: string;
  /** Host key; null watches every host of the tenant. */
  readonly host: string | null;
  /** Service of the series; null matches series of any service and of none. */
  readonly service: string | null;
  readonly metric: string;
  /** Label values a series must have (others may be present); null matches every series of the metric. */
  readonly labels: Labels | null;
}

/** A rule with the states of the series it watches: `host\0service` -> canonical labels -> state. */
export interface RuleEntry<R extends SeriesRule, S> {
  readonly rule: R;
  readonly states: Map<string, Map<string, S>>;
}

/** Called for each rule a sample matches; `labels` are the sample's canonical labels. */
export type RuleMatch<R extends SeriesRule, S> = (
  entry: RuleEntry<R, S>,
  batch: MetricBatch,
  hostService: string,
  service: string,
  labels: string,
  sample: Sample,
  ts: number,
) => void;

/** A persisted state: the rule and series it belongs to. */
export interface SavedState<T> {
  ruleId: number;
  host: string;
  service: string;
  labels: string;
  state: T;
}

/**
 * Rules indexed by tenant, host and metric, each with its per-series states: the part every kind
 * of rule set shares (defined thresholds, dynamic thresholds). Finding the rules of a sample costs
 * one map lookup per sample, and nothing for a sample no rule watches.
 */
export interface RuleIndex<R extends SeriesRule, S> {
  /** Replaces the rule with this id (states kept when it watches the same series) or adds it. */
  upsert(rule: R): RuleEntry<R, S>;
  remove(id: number): void;
  get(id: number): RuleEntry<R, S> | undefined;
  entries(): IterableIterator<RuleEntry<R, S>>;
  /** Calls `visit` for every (rule, sample) of the batch where the rule watches the sample's series. */
  match(batch: MetricBatch, visit: RuleMatch<R, S>): void;
  /** The state of a rule for a series, made with `create` the first time. */
  stateOf(e: RuleEntry<R, S>, hostService: string, labels: string, create: () => S): S;
  /** Every state `pick` turns into something to keep (undefined: skip it), with its rule and series. */
  collect<T>(pick: (state: S) => T | undefined): SavedState<T>[];
}

/** Rules of one tenant: per host, and for every host (`host` null), each by metric. */
interface TenantRules<E> {
  byHost: Map<string, Map<string, E[]>>;
  anyHost: Map<string, E[]>;
}

/** An empty {@link RuleIndex}. */
export function createRuleIndex<R extends SeriesRule, S>(): RuleIndex<R, S> {
  type Entry = RuleEntry<R, S>;
  const byId = new Map<number, Entry>();
  const index = new Map<string, TenantRules<Entry>>();

  function metricsOf(rule: SeriesRule, create: boolean): Map<string, Entry[]> | undefined {
    let tenant = index.get(rule.tenant);
    if (!tenant) {
      if (!create) return undefined;
      tenant = { byHost: new Map(), anyHost: new Map() };
      index.set(rule.tenant, tenant);
    }
    if (rule.host === null) return tenant.anyHost;
    let metrics = tenant.byHost.get(rule.host);
    if (!metrics && create) {
      metrics = new Map();
      tenant.byHost.set(rule.host, metrics);
    }
    return metrics;
  }
  function indexAdd(e: Entry) {
    const metrics = metricsOf(e.rule, true)!;
    const list = metrics.get(e.rule.metric);
    if (list) list.push(e);
    else metrics.set(e.rule.metric, [e]);
  }
  function indexRemove(e: Entry) {
    const metrics = metricsOf(e.rule, false);
    const list = metrics?.get(e.rule.metric);
    if (!metrics || !list) return;
    const i = list.indexOf(e);
    if (i >= 0) list.splice(i, 1);
    if (list.length === 0) metrics.delete(e.rule.metric);
  }

  // Canonical labels of the sample being matched, made once for all its rules.
  let labelCache: string | undefined;

  function visitEntries(
    entries: Entry[],
    batch: MetricBatch,
    service: string,
    hostService: string,
    s: Sample,
    ts: number,
    visit: RuleMatch<R, S>,
  ) {
    for (let j = 0; j < entries.length; j++) {
      const e = entries[j]!;
      const r = e.rule;
      if (r.service !== null && r.service !== service) continue;
      if (!labelsHold(r.labels, s.l)) continue;
      labelCache ??= labelKey(s.l);
      visit(e, batch, hostService, service, labelCache, s, ts);
    }
  }

  return {
    upsert(rule) {
      const old = byId.get(rule.id);
      const sameSeries =
        old &&
        old.rule.tenant === rule.tenant &&
        old.rule.metric === rule.metric &&
        old.rule.host === rule.host &&
        old.rule.service === rule.service &&
        JSON.stringify(old.rule.labels) === JSON.stringify(rule.labels);
      if (old) indexRemove(old);
      const entry: Entry = { rule, states: sameSeries ? old.states : new Map() };
      byId.set(rule.id, entry);
      indexAdd(entry);
      return entry;
    },
    remove(id) {
      const old = byId.get(id);
      if (!old) return;
      indexRemove(old);
      byId.delete(id);
    },
    get: (id) => byId.get(id),
    entries: () => byId.values(),
    match(batch, visit) {
      const tenant = index.get(batch.tenant);
      if (!tenant) return;
      const hostRules = tenant.byHost.get(batch.host);
      const anyRules = tenant.anyHost.size > 0 ? tenant.anyHost : undefined;
      if (!hostRules && !anyRules) return;
      const service = batch.service ?? '';
      const hostService = `${batch.host}\0${service}`;
      const samples = batch.samples;
      for (let i = 0; i < samples.length; i++) {
        const s = samples[i]!;
        const own = hostRules?.get(s.m);
        const any = anyRules?.get(s.m);
        if (own === undefined && any === undefined) continue;
        const ts = s.t ?? batch.ts;
        labelCache = undefined;
        if (own !== undefined) visitEntries(own, batch, service, hostService, s, ts, visit);
        if (any !== undefined) visitEntries(any, batch, service, hostService, s, ts, visit);
      }
    },
    stateOf(e, hostService, labels, create) {
      let inner = e.states.get(hostService);
      if (!inner) {
        inner = new Map();
        e.states.set(hostService, inner);
      }
      let st = inner.get(labels);
      if (!st) {
        st = create();
        inner.set(labels, st);
      }
      return st;
    },
    collect<T>(pick: (state: S) => T | undefined): SavedState<T>[] {
      const out: SavedState<T>[] = [];
      for (const e of byId.values()) {
        for (const [hs, inner] of e.states) {
          const [host, service] = hs.split('\0') as [string, string];
          for (const [labels, state] of inner) {
            const kept = pick(state);
            if (kept !== undefined) out.push({ ruleId: e.rule.id, host, service, labels, state: kept });
          }
        }
      }
      return out;
    },
  };
}

/** The rules of the collector, indexed by tenant, host and metric. */
export function createRuleSet(initial: Iterable<ThresholdRule> = []): RuleSet {
  const index = createRuleIndex<ThresholdRule, SeriesRuleState>();
  // One visitor for every batch; `emit` is the callback of the batch being evaluated.
  let emit: (t: RuleTransition) => void = () => {};
  const visit: RuleMatch<ThresholdRule, SeriesRuleState> = (
    e,
    batch,
    hostService,
    service,
    labels,
    s,
    ts,
  ) => {
    const st = index.stateOf(e, hostService, labels, newState);
    if (ts < st.ts) return; // an older sample arriving late does not move the state back
    const from = step(e.rule, st, s.v, ts);
    if (from !== null) {
      emit({
        rule: e.rule,
        tenant: batch.tenant,
        host: batch.host,
        service,
        metric: s.m,
        labels,
        from,
        to: st.level,
        value: s.v,
        ts,
      });
    }
  };
  const set: RuleSet = {
    upsert(rule) {
      index.upsert(rule);
    },
    remove: (id) => index.remove(id),
    rules: () => [...index.entries()].map((e) => e.rule),
    evaluate(batch, onTransition) {
      emit = onTransition;
      index.match(batch, visit);
    },
    states: () =>
      index.collect((state) => (state.level !== 'G' || state.pending !== 'G' ? { ...state } : undefined)),
    restore(ruleId, host, service, labels, state) {
      const e = index.get(ruleId);
      if (!e) return;
      Object.assign(index.stateOf(e, `${host}\0${service}`, labels, newState), state);
    },
  };
  for (const r of initial) set.upsert(r);
  return set;
}
