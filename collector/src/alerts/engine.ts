import { randomBytes } from 'node:crypto';
import {
  AlertRulesData,
  type AlertRulesParams,
  AlertTransitionsData,
  type AlertTransitionsParams,
  type CommandRequest,
  MAX_TRANSITIONS_PER_MESSAGE,
  type MetricBatch,
  type WireAlertRule,
  type WireRuleState,
  type WireRuleTransition,
} from '@flightdeck/schemas';
import type { Logger } from 'pino';
import type { Bus } from '../bus/contract';
import type { MetricStore } from '../store/contract';
import { createDynamicSet, type DynamicRule, type DynamicSet, type DynamicTransition } from './baseline';
import { createRuleIndex, type RuleMatch, type SeriesRuleState, step, type ThresholdRule } from './rules';

/** Worker the api serves the alert engine's commands on (`alert_rules`, `alert_transitions`). */
export const ALERTS_WORKER = 'alerts';
/** Tenant of the commands between collectors and the api, which concern every tenant. */
const SYSTEM_TENANT = '_system';
/** How often the rules are asked for when the api does not say. */
export const DEFAULT_RULES_REFRESH_MS = 2_000;
/** How often the running "for" durations are sent to the api, for a restart. */
export const DEFAULT_CHECKPOINT_MS = 5_000;
/** Transitions kept while the api cannot be reached; the oldest go first beyond this. */
const MAX_QUEUED_TRANSITIONS = 100_000;
const API_REQUEST_MS = 10_000;
/** Dynamic thresholds relearn their bands this often. */
const RELEARN_MS = 3_600_000;

/**
 * A defined threshold as the engine keeps it: hosts an all-hosts rule leaves to their own rule.
 * Unlike other labels (a mount, an interface: distinct things), `core` splits the host's total into
 * parts, so a rule without a `core` label watches the total only, not every core.
 */
interface EngineRule extends ThresholdRule {
  readonly except: ReadonlySet<string> | null;
}

export interface AlertEngineOptions {
  bus: Bus;
  logger: Logger;
  /** Where dynamic thresholds learn their bands from; absent: dynamic thresholds stay unarmed. */
  store?: MetricStore;
  /** Default: a new id per process. */
  collectorId?: string;
  /** How often to ask for rule changes (default: what the api says, else 2 s). */
  refreshMs?: number;
  checkpointMs?: number;
}

export interface AlertEngineStats {
  rules: number;
  transitions_sent: number;
  transitions_queued: number;
  transitions_dropped: number;
  send_errors: number;
  rules_version: string | null;
}

/**
 * The collector's alert engine: it evaluates every sample against the thresholds as the ingest
 * writes it (call `evaluate` after each successful store write) and sends the level changes to the
 * api, which owns alerts, history and notifications. Rules come from the api over the bus
 * (`alert_rules` to worker `alerts`, asked every few seconds with the version held, so a change
 * takes effect within that time). Sending never holds up evaluation: changes are queued and sent in
 * order, retried while the api cannot be reached.
 *
 * Restart: at start the api hands back the level of every open alert and the "for" durations that
 * were running (checkpointed every `checkpointMs`), so an alert already open is not raised again.
 */
export interface AlertEngine {
  readonly collectorId: string;
  /** Evaluates written batches; allocation-light, never throws. */
  evaluate(batches: readonly MetricBatch[]): void;
  /** Asks for the rules now. */
  refresh(): Promise<void>;
  /** Sends what is queued (transitions and running durations) now; resolves once the api has it. */
  flush(): Promise<void>;
  stats(): AlertEngineStats;
  /** Sends what is queued (bounded wait), stops timers. */
  stop(): Promise<void>;
}

const newState = (): SeriesRuleState => ({ level: 'G', pending: 'G', pendingSince: 0, value: 0, ts: 0 });

function toThreshold(r: WireAlertRule): EngineRule {
  return {
    id: r.id,
    tenant: r.tenant,
    host: r.host,
    service: r.service,
    metric: r.metric,
    labels: r.labels,
    operator: r.operator,
    warning: r.warning,
    critical: r.critical,
    recovery: r.recovery,
    forMs: r.for_ms,
    except: r.host === null && r.except_hosts.length > 0 ? new Set(r.except_hosts) : null,
  };
}

function toDynamic(r: WireAlertRule): DynamicRule {
  return {
    id: r.id,
    tenant: r.tenant,
    host: r.host,
    service: r.service,
    metric: r.metric,
    labels: r.labels,
    direction: r.direction ?? 'above',
    sensitivity: r.sensitivity ?? 3,
    forMs: r.for_ms,
    minDeviation: r.min_deviation,
  };
}

export async function startAlertEngine(options: AlertEngineOptions): Promise<AlertEngine> {
  const { bus, logger } = options;
  const collectorId = options.collectorId ?? `col-${randomBytes(6).toString('hex')}`;
  const checkpointMs = options.checkpointMs ?? DEFAULT_CHECKPOINT_MS;
  const index = createRuleIndex<EngineRule, SeriesRuleState>();
  const dynamic: DynamicSet = createDynamicSet([], { logger });
  const tenantOf = new Map<number, string>();
  let version: string | null = null;
  let restored = false;
  let stopped = false;
  let seq = 0;
  const counters = { transitions_sent: 0, transitions_dropped: 0, send_errors: 0 };

  // ---- evaluation -------------------------------------------------------------------------------
  const queue: WireRuleTransition[] = [];
  /** (rule, series) whose pending level changed since the last checkpoint. */
  const dirty = new Map<string, WireRuleState>();

  function push(t: WireRuleTransition) {
    if (queue.length >= MAX_QUEUED_TRANSITIONS) {
      queue.shift();
      counters.transitions_dropped++;
    }
    queue.push(t);
  }

  const visit: RuleMatch<EngineRule, SeriesRuleState> = (e, batch, hostService, service, labels, s, ts) => {
    const r = e.rule;
    if (r.except?.has(batch.host)) return;
    // A core's series is part of the host's total: only a rule that names the core watches it.
    if (s.l?.core !== undefined && r.labels?.core === undefined) return;
    const st = index.stateOf(e, hostService, labels, newState);
    if (ts < st.ts) return; // an older sample arriving late does not move the state back
    const pendingBefore = st.pending;
    const from = step(r, st, s.v, ts);
    if (from !== null) {
      push({
        rule_id: r.id,
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
    if (st.pending !== pendingBefore) {
      dirty.set(`${r.id}\0${hostService}\0${labels}`, {
        rule_id: r.id,
        tenant: batch.tenant,
        host: batch.host,
        service,
        labels,
        level: st.level,
        pending: st.pending,
        pending_since: st.pendingSince,
      });
    }
  };

  const onDynamic = (t: DynamicTransition) =>
    push({
      rule_id: t.rule.id,
      tenant: t.tenant,
      host: t.host,
      service: t.service,
      metric: t.metric,
      labels: t.labels,
      from: t.from,
      to: t.to,
      value: t.value,
      ts: t.ts,
      dynamic: {
        algorithm: t.algorithm,
        band: { lower: t.band.lower, median: t.band.median, upper: t.band.upper },
        season: t.season,
        season_key: t.season_key,
        score: t.score,
      },
    });

  // ---- talking to the api -----------------------------------------------------------------------
  function command(name: CommandRequest['command'], params: Record<string, unknown>): CommandRequest {
    return {
      v: 1,
      id: `${collectorId}-a${++seq}`,
      tenant: SYSTEM_TENANT,
      command: name,
      params,
      deadline: Date.now() + API_REQUEST_MS,
    };
  }

  async function ask<T>(name: CommandRequest['command'], params: object, parse: (d: unknown) => T) {
    const reply = await bus.request(ALERTS_WORKER, command(name, params as Record<string, unknown>));
    if (reply.status !== 'ok') throw new Error(`the api refused ${name}: ${reply.message ?? ''}`);
    return parse(reply.data);
  }

  function applyRules(rules: readonly WireAlertRule[]) {
    const keep = new Set<number>();
    for (const r of rules) {
      keep.add(r.id);
      tenantOf.set(r.id, r.tenant);
      if (r.mode === 'dynamic') {
        index.remove(r.id);
        const known = dynamic.rules().find((d) => d.id === r.id);
        const rule = toDynamic(r);
        dynamic.upsert(rule);
        if (!known) void relearn(rule);
        continue;
      }
      dynamic.remove(r.id);
      const entry = index.upsert(toThreshold(r));
      // Hosts now left to their own rule: forget this rule's state there (their alerts were resolved by the api).
      const except = entry.rule.except;
      if (except) {
        for (const hs of entry.states.keys()) {
          if (except.has(hs.slice(0, hs.indexOf('\0')))) entry.states.delete(hs);
        }
      }
    }
    for (const e of [...index.entries()]) if (!keep.has(e.rule.id)) index.remove(e.rule.id);
    for (const d of dynamic.rules()) if (!keep.has(d.id)) dynamic.remove(d.id);
    for (const id of [...tenantOf.keys()]) if (!keep.has(id)) tenantOf.delete(id);
  }

  function restore(states: readonly WireRuleState[]) {
    for (const s of states) {
      const state: SeriesRuleState = {
        level: s.level,
        pending: s.pending,
        pendingSince: s.pending_since,
        value: 0,
        ts: 0,
      };
      const e = index.get(s.rule_id);
      if (e) Object.assign(index.stateOf(e, `${s.host}\0${s.service}`, s.labels, newState), state);
      else dynamic.restore(s.rule_id, s.host, s.service, s.labels, { ...state, insideSince: 0 });
    }
  }

  async function relearn(rule: DynamicRule) {
    if (!options.store || stopped) return;
    try {
      await dynamic.relearn(options.store, rule, Date.now());
    } catch (err) {
      logger.warn({ err, rule: rule.id }, 'dynamic threshold: baseline not learnt');
    }
  }

  let refreshing: Promise<void> | null = null;
  function refresh(): Promise<void> {
    refreshing ??= (async () => {
      try {
        const params: AlertRulesParams = {
          collector_id: collectorId,
          ...(version !== null ? { version } : {}),
          ...(restored ? {} : { with_states: true }),
        };
        const data = await ask('alert_rules', params, (d) => AlertRulesData.parse(d));
        if (data.rules) applyRules(data.rules);
        if (!restored) {
          restore(data.states ?? []);
          restored = true;
          logger.info(
            { rules: data.rules?.length ?? 0, restored: data.states?.length ?? 0 },
            'alert rules loaded',
          );
        }
        version = data.version;
        if (options.refreshMs === undefined) refreshEvery = data.refresh_ms;
      } finally {
        refreshing = null;
      }
    })();
    return refreshing;
  }

  let sending: Promise<void> | null = null;
  let retryAt = 0;
  let failures = 0;
  let sendTimer: NodeJS.Timeout | undefined;

  function scheduleSend(delayMs = 0) {
    if (stopped && delayMs > 0) return;
    if (sendTimer) return;
    sendTimer = setTimeout(() => {
      sendTimer = undefined;
      void send().catch(() => {});
    }, delayMs);
    sendTimer.unref?.();
  }

  /** Sends queued transitions (and the checkpoint when `withStates`) in order, one message at a time. */
  function send(withStates = false): Promise<void> {
    if (sending) return sending.then(() => (queue.length > 0 || withStates ? send(withStates) : undefined));
    if (queue.length === 0 && !(withStates && dirty.size > 0)) return Promise.resolve();
    sending = (async () => {
      const taken = queue.slice(0, MAX_TRANSITIONS_PER_MESSAGE);
      const states = withStates ? [...dirty.values()].slice(0, MAX_TRANSITIONS_PER_MESSAGE) : [];
      const params: AlertTransitionsParams = {
        collector_id: collectorId,
        transitions: taken,
        ...(states.length > 0 ? { states } : {}),
      };
      try {
        await ask('alert_transitions', params, (d) => AlertTransitionsData.parse(d));
        // Drop exactly what was sent; more may have come meanwhile (the queue only grows at the end).
        const sent = taken.length > 0 ? queue.indexOf(taken[taken.length - 1]!) + 1 : 0;
        queue.splice(0, sent);
        counters.transitions_sent += taken.length;
        for (const s of states) {
          const key = `${s.rule_id}\0${s.host}\0${s.service}\0${s.labels}`;
          if (dirty.get(key) === s) dirty.delete(key);
        }
        failures = 0;
      } catch (err) {
        counters.send_errors++;
        failures++;
        const wait = Math.min(10_000, 250 * 2 ** Math.min(failures, 6));
        retryAt = Date.now() + wait;
        scheduleSend(wait);
        logger.warn(
          { err: err instanceof Error ? err.message : String(err), queued: queue.length },
          'alert transitions not delivered to the api; will retry',
        );
        throw err;
      } finally {
        sending = null;
      }
    })();
    return sending.then(() => {
      if (queue.length > 0) scheduleSend();
    });
  }

  // ---- timers -----------------------------------------------------------------------------------
  let refreshEvery = options.refreshMs ?? DEFAULT_RULES_REFRESH_MS;
  let refreshTimer: NodeJS.Timeout | undefined;
  function loopRefresh() {
    refreshTimer = setTimeout(() => {
      refresh()
        .catch((err) => logger.warn({ err: (err as Error).message }, 'alert rules not refreshed'))
        .finally(() => {
          if (!stopped) loopRefresh();
        });
    }, refreshEvery);
    refreshTimer.unref?.();
  }
  const checkpointTimer = setInterval(() => {
    if (dirty.size > 0 && Date.now() >= retryAt) void send(true).catch(() => {});
  }, checkpointMs);
  checkpointTimer.unref?.();
  const relearnTimer = setInterval(() => {
    for (const rule of dynamic.rules()) void relearn(rule);
  }, RELEARN_MS);
  relearnTimer.unref?.();

  try {
    await refresh();
  } catch (err) {
    logger.warn({ err: (err as Error).message }, 'alert rules not loaded yet; asking again shortly');
  }
  loopRefresh();

  return {
    collectorId,
    evaluate(batches) {
      if (!restored) return;
      const before = queue.length;
      for (const batch of batches) {
        try {
          index.match(batch, visit);
          dynamic.evaluate(batch, onDynamic);
        } catch (err) {
          logger.error({ err, host: batch.host, tenant: batch.tenant }, 'alert rules failed on a batch');
        }
      }
      if (queue.length > before) scheduleSend(Math.max(0, retryAt - Date.now()));
    },
    refresh,
    async flush() {
      clearTimeout(sendTimer);
      sendTimer = undefined;
      await send(true);
    },
    stats: () => ({
      rules: tenantOf.size,
      transitions_sent: counters.transitions_sent,
      transitions_queued: queue.length,
      transitions_dropped: counters.transitions_dropped,
      send_errors: counters.send_errors,
      rules_version: version,
    }),
    async stop() {
      stopped = true;
      clearTimeout(refreshTimer);
      clearInterval(checkpointTimer);
      clearInterval(relearnTimer);
      clearTimeout(sendTimer);
      await refreshing?.catch(() => {});
      try {
        await Promise.race([
          send(true),
          new Promise<void>((resolve) => setTimeout(resolve, 5_000).unref?.()),
        ]);
      } catch (err) {
        logger.warn(
          { err: (err as Error).message, queued: queue.length },
          'alert transitions not delivered before stopping; the next start raises them again from the samples',
        );
      }
    },
  };
}
