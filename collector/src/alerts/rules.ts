import { type CompareOperator, compare, type Labels, type MetricBatch } from '@flightdeck/schemas';

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
 * Moves one (rule, series) state by one sample and returns the level before, or null when the
 * level did not change. Going up waits for `forMs`; going down happens at once, but from an open
 * alert only once the value recovered past the recovery level.
 */
export function step(rule: ThresholdRule, st: SeriesRuleState, value: number, ts: number): RuleLevel | null {
  st.value = value;
  st.ts = ts;
  if (Number.isNaN(value)) return null;
  let target = levelOf(rule, value);
  if (RANK[target] < RANK[st.level] && !recovered(rule, value)) {
    // Hysteresis: between the level and the recovery level the alert stays where it is.
    target = st.level;
  }
  if (RANK[target] <= RANK[st.level]) {
    st.pending = 'G';
    if (target === st.level) return null;
    const from = st.level;
    st.level = target;
    return from;
  }
  if (rule.forMs <= 0) {
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
  if (ts - st.pendingSince < rule.forMs) return null;
  const from = st.level;
  st.level = target;
  st.pending = 'G';
  return from;
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

interface RuleEntry {
  rule: ThresholdRule;
  /** `host\0service` -> canonical labels -> state. */
  states: Map<string, Map<string, SeriesRuleState>>;
}

/** Rules of one tenant: per host, and for every host (`host` null), each by metric. */
interface TenantRules {
  byHost: Map<string, Map<string, RuleEntry[]>>;
  anyHost: Map<string, RuleEntry[]>;
}

/** The rules of the collector, indexed by tenant, host and metric. */
export function createRuleSet(initial: Iterable<ThresholdRule> = []): RuleSet {
  const byId = new Map<number, RuleEntry>();
  const index = new Map<string, TenantRules>();

  function metricsOf(rule: ThresholdRule, create: boolean): Map<string, RuleEntry[]> | undefined {
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
  function indexAdd(e: RuleEntry) {
    const metrics = metricsOf(e.rule, true)!;
    const list = metrics.get(e.rule.metric);
    if (list) list.push(e);
    else metrics.set(e.rule.metric, [e]);
  }
  function indexRemove(e: RuleEntry) {
    const metrics = metricsOf(e.rule, false);
    const list = metrics?.get(e.rule.metric);
    if (!metrics || !list) return;
    const i = list.indexOf(e);
    if (i >= 0) list.splice(i, 1);
    if (list.length === 0) metrics.delete(e.rule.metric);
  }

  function stateOf(e: RuleEntry, hostService: string, labels: string): SeriesRuleState {
    let inner = e.states.get(hostService);
    if (!inner) {
      inner = new Map();
      e.states.set(hostService, inner);
    }
    let st = inner.get(labels);
    if (!st) {
      st = newState();
      inner.set(labels, st);
    }
    return st;
  }

  // Canonical labels of the sample being evaluated, made once for all its rules.
  let labelCache: string | undefined;

  function evalEntries(
    entries: RuleEntry[],
    batch: MetricBatch,
    service: string,
    hostService: string,
    s: MetricBatch['samples'][number],
    ts: number,
    onTransition: (t: RuleTransition) => void,
  ) {
    for (let j = 0; j < entries.length; j++) {
      const e = entries[j]!;
      const r = e.rule;
      if (r.service !== null && r.service !== service) continue;
      if (!labelsHold(r.labels, s.l)) continue;
      labelCache ??= labelKey(s.l);
      const labels = labelCache;
      const st = stateOf(e, hostService, labels);
      if (ts < st.ts) continue; // an older sample arriving late does not move the state back
      const from = step(r, st, s.v, ts);
      if (from !== null) {
        onTransition({
          rule: r,
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
    }
  }

  const set: RuleSet = {
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
      const entry: RuleEntry = { rule, states: sameSeries ? old.states : new Map() };
      byId.set(rule.id, entry);
      indexAdd(entry);
    },
    remove(id) {
      const old = byId.get(id);
      if (!old) return;
      indexRemove(old);
      byId.delete(id);
    },
    rules: () => [...byId.values()].map((e) => e.rule),
    evaluate(batch, onTransition) {
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
        if (own !== undefined) evalEntries(own, batch, service, hostService, s, ts, onTransition);
        if (any !== undefined) evalEntries(any, batch, service, hostService, s, ts, onTransition);
      }
    },
    states() {
      const out: ReturnType<RuleSet['states']> = [];
      for (const e of byId.values()) {
        for (const [hs, inner] of e.states) {
          const [host, service] = hs.split('\0') as [string, string];
          for (const [labels, state] of inner) {
            if (state.level !== 'G' || state.pending !== 'G') {
              out.push({ ruleId: e.rule.id, host, service, labels, state: { ...state } });
            }
          }
        }
      }
      return out;
    },
    restore(ruleId, host, service, labels, state) {
      const e = byId.get(ruleId);
      if (!e) return;
      Object.assign(stateOf(e, `${host}\0${service}`, labels), state);
    },
  };
  for (const r of initial) set.upsert(r);
  return set;
}
