import type { AcknowledgeHours, AlertLifecycleEvent } from '@flightdeck/schemas';
import type { RuleLevel, RuleTransition } from './rules';

/**
 * The alert lifecycle (spec section 4): a rule transition of a series opens, updates or resolves
 * its alert; an alert that comes back soon after it resolved is "recurring"; an acknowledgement
 * hides it for 1 to 24 hours and ends early when it resolves. Every change is recorded in the
 * history; whether it is notified depends on maintenance, acknowledgement and dependencies.
 */
export interface OpenAlert {
  /** The history row of this occurrence (spec: historic_id). */
  historicId: number;
  ruleId: number;
  tenant: string;
  host: string;
  service: string;
  metric: string;
  labels: string;
  level: Exclude<RuleLevel, 'G'>;
  /** Unix ms the alert opened, and of its last change. */
  enteredAt: number;
  changedAt: number;
  value: number;
  /** Unix ms until which it is acknowledged, or null. */
  ackUntil: number | null;
  ackBy: string | null;
  ackComment: string | null;
  /** Set when the host's own "unreachable" alert is open: the host alert's historic id. */
  suppressedBy: number | null;
  /** Opened within `recurWindowMs` of the previous occurrence's resolution. */
  recurring: boolean;
}

/** A change the book made, to record, push to browsers and maybe notify. */
export interface AlertChange {
  event: AlertLifecycleEvent;
  alert: OpenAlert;
  /** For `resolved`: unix ms it resolved. */
  exitAt?: number;
  /** Whether to notify: false in maintenance, while acknowledged, when suppressed, or for a downgrade. */
  notify: boolean;
  /** Why `notify` is false, for the history ("maintenance", "acknowledged", "suppressed", "eased"). */
  quiet?: 'maintenance' | 'acknowledged' | 'suppressed' | 'eased';
}

/** What the book keeps between restarts: the open alerts and when each series last resolved. */
export interface AlertBookState {
  open: OpenAlert[];
  /** `seriesKey` -> unix ms of the last resolution, for recurrence. */
  lastResolved: Record<string, number>;
  nextHistoricId: number;
}

export interface AlertBookOptions {
  /** An alert reopening within this time of its resolution is "recurring" (default 1 h). */
  recurWindowMs?: number;
  /** The state to start from (after a restart). */
  state?: AlertBookState;
}

/** Context of a transition that the rules cannot know: maintenance windows and host dependencies. */
export interface TransitionContext {
  /** The series' server or service is in a maintenance window now. */
  inMaintenance?: boolean;
  /** The historic id of the host's open "unreachable" alert, when the host is down. */
  hostDownAlert?: number | null;
}

export interface AlertBook {
  /** Applies a rule transition; returns the change it made, or null when nothing changed. */
  apply(t: RuleTransition, context?: TransitionContext): AlertChange | null;
  /** Acknowledges an open alert for `hours`; null when no open alert has that historic id. */
  acknowledge(
    historicId: number,
    hours: AcknowledgeHours,
    by: string,
    comment: string | null,
    now: number,
  ): AlertChange | null;
  /** Ends acknowledgements that ran out by `now`; each becomes an `updated` change (not notified). */
  expireAcknowledgements(now: number): AlertChange[];
  /** Open alerts of a tenant (all tenants without an argument). */
  open(tenant?: string): OpenAlert[];
  /** Open alerts the chip counts: not acknowledged at `now` and not suppressed. */
  unacknowledged(tenant: string, now: number): OpenAlert[];
  state(): AlertBookState;
}

const seriesKey = (ruleId: number, host: string, service: string, labels: string) =>
  `${ruleId}\0${host}\0${service}\0${labels}`;

export function createAlertBook(options: AlertBookOptions = {}): AlertBook {
  const recurWindowMs = options.recurWindowMs ?? 3_600_000;
  const open = new Map<string, OpenAlert>();
  const byHistoric = new Map<number, string>();
  const lastResolved = new Map<string, number>(Object.entries(options.state?.lastResolved ?? {}));
  let nextHistoricId = options.state?.nextHistoricId ?? 1;
  for (const a of options.state?.open ?? []) {
    const key = seriesKey(a.ruleId, a.host, a.service, a.labels);
    open.set(key, { ...a });
    byHistoric.set(a.historicId, key);
  }

  const acknowledgedAt = (a: OpenAlert, now: number) => a.ackUntil !== null && a.ackUntil > now;

  return {
    apply(t, context = {}) {
      const key = seriesKey(t.rule.id, t.host, t.service, t.labels);
      const current = open.get(key);
      const quietFor = (a: OpenAlert): AlertChange['quiet'] =>
        context.inMaintenance
          ? 'maintenance'
          : a.suppressedBy !== null
            ? 'suppressed'
            : acknowledgedAt(a, t.ts)
              ? 'acknowledged'
              : undefined;

      if (t.to === 'G') {
        if (!current) return null;
        open.delete(key);
        byHistoric.delete(current.historicId);
        lastResolved.set(key, t.ts);
        current.changedAt = t.ts;
        current.value = t.value;
        const quiet = context.inMaintenance
          ? 'maintenance'
          : current.suppressedBy !== null
            ? 'suppressed'
            : undefined;
        // An acknowledged alert that recovers is still worth telling: the acknowledgement ends with it.
        current.ackUntil = null;
        return {
          event: 'resolved',
          alert: current,
          exitAt: t.ts,
          notify: quiet === undefined,
          ...(quiet ? { quiet } : {}),
        };
      }

      if (!current) {
        const resolvedAt = lastResolved.get(key);
        const recurring = resolvedAt !== undefined && t.ts - resolvedAt <= recurWindowMs;
        const alert: OpenAlert = {
          historicId: nextHistoricId++,
          ruleId: t.rule.id,
          tenant: t.tenant,
          host: t.host,
          service: t.service,
          metric: t.metric,
          labels: t.labels,
          level: t.to,
          enteredAt: t.ts,
          changedAt: t.ts,
          value: t.value,
          ackUntil: null,
          ackBy: null,
          ackComment: null,
          suppressedBy: context.hostDownAlert ?? null,
          recurring,
        };
        open.set(key, alert);
        byHistoric.set(alert.historicId, key);
        const quiet = quietFor(alert);
        return {
          event: recurring ? 'recurring' : 'new',
          alert,
          notify: quiet === undefined,
          ...(quiet ? { quiet } : {}),
        };
      }

      // Still open, another level: worse is told (unless quiet), better is recorded only.
      const worse = t.to === 'R' && current.level === 'Y';
      current.level = t.to;
      current.changedAt = t.ts;
      current.value = t.value;
      const quiet = worse ? quietFor(current) : 'eased';
      return { event: 'updated', alert: current, notify: quiet === undefined, ...(quiet ? { quiet } : {}) };
    },

    acknowledge(historicId, hours, by, comment, now) {
      const key = byHistoric.get(historicId);
      const alert = key ? open.get(key) : undefined;
      if (!alert) return null;
      alert.ackUntil = now + hours * 3_600_000;
      alert.ackBy = by;
      alert.ackComment = comment;
      return { event: 'acknowledged', alert, notify: false, quiet: 'acknowledged' };
    },

    expireAcknowledgements(now) {
      const out: AlertChange[] = [];
      for (const a of open.values()) {
        if (a.ackUntil !== null && a.ackUntil <= now) {
          a.ackUntil = null;
          a.ackBy = null;
          a.ackComment = null;
          out.push({ event: 'updated', alert: a, notify: false, quiet: 'eased' });
        }
      }
      return out;
    },

    open(tenant) {
      const all = [...open.values()];
      return tenant === undefined ? all : all.filter((a) => a.tenant === tenant);
    },

    unacknowledged(tenant, now) {
      return [...open.values()].filter(
        (a) => a.tenant === tenant && !acknowledgedAt(a, now) && a.suppressedBy === null,
      );
    },

    state() {
      return {
        open: [...open.values()].map((a) => ({ ...a })),
        lastResolved: Object.fromEntries(lastResolved),
        nextHistoricId,
      };
    },
  };
}
