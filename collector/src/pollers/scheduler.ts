import {
  type MetricBatch,
  type PollAssignment,
  type PollerFailure,
  type PollerFailureCode,
  type PollerService,
  type PollStatusParams,
  SERVICE_UP_METRIC,
} from '@flightdeck/schemas';
import type { Logger } from 'pino';
import type { Poller, PollerOptions, PollSample } from './contract';
import { createPoller as defaultCreatePoller } from './registry';

/** Most polls running at once in one collector; the others wait for a slot. */
export const DEFAULT_MAX_CONCURRENT_POLLS = 16;
/** How often the assignment list is asked for again. */
export const DEFAULT_REFRESH_MS = 30_000;
/** Added to a target's own time-outs before the scheduler gives up on a poll. */
const POLL_GRACE_MS = 1_000;

export interface PollSchedulerOptions {
  /** This collector's share of the registered targets; called at start and every `refreshMs`. */
  assignments: () => Promise<PollAssignment[]>;
  publish: (batch: MetricBatch) => Promise<void>;
  /** A target became unavailable or recovered (and its first poll's outcome). */
  report: (status: PollStatusParams) => Promise<void>;
  logger: Logger;
  refreshMs?: number;
  maxConcurrent?: number;
  /** Milliseconds between polls of a target; default its `interval_s`. Tests shorten it. */
  intervalMs?: (assignment: PollAssignment) => number;
  /** A number in [0, 1) that places a target's first poll within its interval. */
  random?: () => number;
  createPoller?: typeof defaultCreatePoller;
  /** Told of every poll once it settles, or is skipped: how late it started and how long it took. */
  onPoll?: (timing: PollTiming) => void;
}

/** One poll as the scheduler saw it, for whoever watches its timeliness (a benchmark, a health figure). */
export interface PollTiming {
  service_id: number;
  service: PollerService;
  /** Unix ms the poll was planned for: the first poll's time plus whole intervals. */
  due: number;
  /** Unix ms it started, after waiting for a free slot; null when skipped. */
  started: number | null;
  /** Milliseconds from start until it settled (published and reported included). */
  duration_ms: number;
  /** `ok`, why it failed, or `skipped`: the target's previous poll was still running. */
  outcome: 'ok' | PollerFailureCode | 'skipped';
}

export interface PollScheduler {
  start(): Promise<void>;
  /** Fetches the assignment list now (also done every `refreshMs`). */
  refresh(): Promise<void>;
  /** Targets being polled, by service id. */
  targets(): number[];
  /** Stops the timers, waits for polls in flight, closes every target's connections. */
  stop(): Promise<void>;
}

interface Target {
  assignment: PollAssignment;
  /** The config as text: a change means a new poller. */
  key: string;
  poller: Poller | undefined;
  timer: NodeJS.Timeout | undefined;
  /** Unix ms the next poll is planned for. */
  due: number;
  running: Promise<void> | undefined;
  /** What was last reported; undefined before the first poll. */
  available: boolean | undefined;
  removed: boolean;
  /** Settles a poll in flight at once when the target is removed. */
  cancel: () => void;
  cancelled: Promise<void>;
}

/** The time a poll of `config` may take: its connect and query time-outs, plus a grace. */
export function pollTimeoutMs(config: Record<string, unknown>): number {
  const n = (k: string) => (typeof config[k] === 'number' ? (config[k] as number) : 0);
  const own = n('connect_timeout_ms') + n('query_timeout_ms') + n('timeout_ms');
  return (own > 0 ? own : 10_000) + POLL_GRACE_MS;
}

/**
 * Polls this collector's agentless targets (CONVENTIONS habit 5: the scheduler owns timing,
 * publishing and status; a poller only measures). Each target keeps its poller between polls (its
 * connections close once idle, so open connections follow the polls in flight); it is polled every interval, the first time at a random point of
 * the interval so targets registered together do not poll together. A poll that does not settle
 * within the target's own time-outs counts as a `timeout` failure and its poller is replaced, so a
 * hanging target holds one slot of `maxConcurrent` and never delays another target's schedule.
 * Every poll publishes `service.up` (1 when it reached the target, with the target's samples; 0
 * alone when it failed), so an unreachable target raises its alert through the thresholds like
 * any other metric.
 */
export function createPollScheduler(options: PollSchedulerOptions): PollScheduler {
  const logger = options.logger;
  const refreshMs = options.refreshMs ?? DEFAULT_REFRESH_MS;
  const maxConcurrent = Math.max(1, options.maxConcurrent ?? DEFAULT_MAX_CONCURRENT_POLLS);
  const intervalOf = options.intervalMs ?? ((a: PollAssignment) => a.interval_s * 1000);
  const random = options.random ?? Math.random;
  const makePoller = options.createPoller ?? defaultCreatePoller;
  const pollerOptions: PollerOptions = { logger };

  const targets = new Map<number, Target>();
  let refreshTimer: NodeJS.Timeout | undefined;
  let refreshing: Promise<void> | undefined;
  let stopped = false;
  let active = 0;
  const waiting: (() => void)[] = [];

  async function slot(): Promise<() => void> {
    if (active >= maxConcurrent) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    return () => {
      active--;
      waiting.shift()?.();
    };
  }

  function observe(target: Target, due: number, started: number | null, outcome: PollTiming['outcome']) {
    if (!options.onPoll) return;
    const a = target.assignment;
    const duration_ms = started === null ? 0 : Date.now() - started;
    try {
      options.onPoll({ service_id: a.service_id, service: a.service, due, started, duration_ms, outcome });
    } catch (err) {
      logger.warn({ err, service_id: a.service_id }, 'poll observer failed');
    }
  }

  /**
   * Fixed rate against the first poll's time: each poll is planned at `due + interval` whatever
   * the previous one took, and the timer is set from that plan rather than from the moment it
   * fired, so a timer's own lateness never piles up from one interval to the next.
   */
  function schedule(target: Target): void {
    if (stopped || target.removed) return;
    target.timer = setTimeout(
      () => {
        target.timer = undefined;
        const due = target.due;
        const interval = intervalOf(target.assignment);
        target.due = due + interval;
        // After a stall longer than an interval (a suspended process), skip the polls missed.
        const now = Date.now();
        if (target.due <= now) target.due += Math.ceil((now - target.due + 1) / interval) * interval;
        schedule(target);
        if (target.running) {
          logger.warn(
            { service_id: target.assignment.service_id, target: target.poller?.target },
            'previous poll still running: this one skipped',
          );
          observe(target, due, null, 'skipped');
          return;
        }
        target.running = pollOnce(target, due).finally(() => {
          target.running = undefined;
        });
      },
      Math.max(0, target.due - Date.now()),
    );
  }

  async function pollOnce(target: Target, due: number): Promise<void> {
    const release = await slot();
    try {
      if (stopped || target.removed) return;
      const now = Date.now();
      const outcome = await pollNow(target, now);
      observe(target, due, now, outcome);
    } finally {
      release();
    }
  }

  async function pollNow(target: Target, now: number): Promise<PollTiming['outcome']> {
    const a = target.assignment;
    if (!target.poller) {
      const made = makePoller(a.service, a.config, pollerOptions);
      if (!made.ok) {
        await publish(target, [{ m: SERVICE_UP_METRIC, v: 0 }], now, a.host);
        await settle(target, made, now);
        return made.code;
      }
      target.poller = made.poller;
    }
    const poller = target.poller;
    const limit = pollTimeoutMs(a.config);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<PollerFailure>((resolve) => {
      timer = setTimeout(
        () =>
          resolve({
            ok: false,
            code: 'timeout',
            message: `${poller.target} did not answer the poll within ${limit} ms.`,
          }),
        limit,
      );
    });
    const result = await Promise.race([
      target.cancelled.then(
        (): PollerFailure => ({ ok: false, code: 'timeout', message: `${poller.target}: poll cancelled` }),
      ),
      poller.poll(now).catch(
        (err: unknown): PollerFailure => ({
          ok: false,
          code: 'connection_failed',
          message: `${poller.target}: ${err instanceof Error ? err.message : String(err)}`,
        }),
      ),
      timedOut,
    ]).finally(() => clearTimeout(timer));
    if (!result.ok && result.code === 'timeout') {
      // The poll may still hold a connection: start afresh next time.
      target.poller = undefined;
      void closeQuietly(poller);
    }
    // Every poll says whether it reached the target, so a failure is a sample that thresholds see.
    const samples: PollSample[] = result.ok
      ? [...result.samples, { m: SERVICE_UP_METRIC, v: 1 }]
      : [{ m: SERVICE_UP_METRIC, v: 0 }];
    await publish(target, samples, now, poller.target);
    await settle(target, result, now);
    return result.ok ? 'ok' : result.code;
  }

  /** Publishes a poll's samples as one batch of the target's host and service, stamped `now`. */
  async function publish(target: Target, samples: PollSample[], now: number, name: string): Promise<void> {
    if (target.removed) return;
    const a = target.assignment;
    const batch: MetricBatch = {
      v: 1,
      tenant: a.tenant,
      host: a.host,
      source: 'poller',
      service: a.service,
      ts: now,
      samples,
    };
    try {
      await options.publish(batch);
    } catch (err) {
      logger.warn({ err, service_id: a.service_id, target: name }, 'poll samples not published');
    }
  }

  async function settle(
    target: Target,
    result: { ok: true } | { ok: false; code: PollerFailureCode; message: string },
    now: number,
  ): Promise<void> {
    const a = target.assignment;
    if (!result.ok) {
      logger.warn(
        { service_id: a.service_id, service: a.service, host: a.host, code: result.code },
        `agentless target unavailable: ${result.message}`,
      );
    }
    if (target.available === result.ok || target.removed) return;
    target.available = result.ok;
    const status: PollStatusParams = {
      service_id: a.service_id,
      tenant: a.tenant,
      available: result.ok,
      ts: now,
      ...(result.ok ? {} : { code: result.code, message: result.message.slice(0, 2048) }),
    };
    try {
      await options.report(status);
    } catch (err) {
      // Report again at the next poll rather than lose the change.
      target.available = undefined;
      logger.warn({ err, service_id: a.service_id }, 'availability of an agentless target not reported');
    }
  }

  async function closeQuietly(poller: Poller): Promise<void> {
    try {
      await poller.close();
    } catch (err) {
      logger.warn({ err, target: poller.target }, 'closing a poller failed');
    }
  }

  async function remove(target: Target): Promise<void> {
    target.removed = true;
    target.cancel();
    clearTimeout(target.timer);
    targets.delete(target.assignment.service_id);
    await target.running;
    if (target.poller) await closeQuietly(target.poller);
  }

  function add(assignment: PollAssignment, key: string): void {
    let cancel = () => {};
    const cancelled = new Promise<void>((resolve) => {
      cancel = resolve;
    });
    const target: Target = {
      cancel,
      cancelled,
      assignment,
      key,
      poller: undefined,
      timer: undefined,
      due: Date.now() + Math.floor(random() * intervalOf(assignment)),
      running: undefined,
      available: undefined,
      removed: false,
    };
    targets.set(assignment.service_id, target);
    schedule(target);
  }

  async function apply(list: PollAssignment[]): Promise<void> {
    const wanted = new Map(list.map((a) => [a.service_id, a]));
    const closing: Promise<void>[] = [];
    for (const target of targets.values()) {
      const next = wanted.get(target.assignment.service_id);
      if (!next || JSON.stringify(next) !== target.key) closing.push(remove(target));
    }
    for (const [id, a] of wanted) if (!targets.has(id)) add(a, JSON.stringify(a));
    await Promise.all(closing);
  }

  async function refreshOnce(): Promise<void> {
    try {
      const list = await options.assignments();
      if (!stopped) await apply(list);
    } catch (err) {
      // Keep polling what we have: the api may be restarting.
      logger.warn({ err }, 'agentless assignments not fetched; keeping the current targets');
    }
  }

  function refresh(): Promise<void> {
    refreshing ??= refreshOnce().finally(() => {
      refreshing = undefined;
    });
    return refreshing;
  }

  function loop(): void {
    if (stopped) return;
    refreshTimer = setTimeout(() => void refresh().finally(loop), refreshMs);
  }

  return {
    async start() {
      await refresh();
      loop();
    },
    refresh,
    targets: () => [...targets.keys()],
    async stop() {
      stopped = true;
      clearTimeout(refreshTimer);
      await refreshing;
      await Promise.all([...targets.values()].map(remove));
      for (const release of waiting.splice(0)) release();
    },
  };
}
