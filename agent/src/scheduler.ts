import type { Logger } from 'pino';
import type { CollectContext, Collector, SampleLike } from './collectors/contract';
import { errorMessage } from './collectors/linux/proc';

export interface SchedulerOptions {
  intervalMs: number;
  /** One run. The next run never starts before this settles; a rejection is logged, not thrown. */
  task: (scheduledAt: number) => Promise<void>;
  logger: Logger;
}

export interface Scheduler {
  /**
   * Runs the task now, then on the grid of whole multiples of the interval since the epoch (every
   * 10 s at :00, :10, :20 ...). Resolves when the first run has finished (it never rejects).
   */
  start(): Promise<void>;
  /** Cancels the next run and resolves once the run in flight (if any) has finished. */
  stop(): Promise<void>;
  readonly running: boolean;
}

/**
 * Runs a task on a fixed grid aligned to the wall clock, so every agent with the same interval
 * samples at the same instants and the charts of several hosts line up point for point. Each timer is set for the next grid point, not
 * for "interval after the last run", so timer lateness and run time never accumulate into drift. A
 * run that outlasts the interval is never overlapped: the grid points it covered are skipped (and
 * logged) and the next run waits for the following one.
 */
export function createScheduler({ intervalMs, task, logger }: SchedulerOptions): Scheduler {
  if (!(intervalMs > 0)) throw new Error(`interval must be positive, got ${intervalMs}`);
  let anchor = 0;
  let tick = 0;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> | undefined;
  let running = false;

  function scheduleNext(): void {
    const now = Date.now();
    // A timer can fire a millisecond early; never schedule the same grid point twice.
    const next = Math.max(tick + 1, Math.floor((now - anchor) / intervalMs) + 1);
    if (next > tick + 1) {
      logger.warn(
        { skipped: next - tick - 1, intervalMs },
        'a run outlasted the interval; skipping missed runs',
      );
    }
    tick = next;
    let delay = anchor + tick * intervalMs - now;
    if (delay > intervalMs) {
      // The wall clock was set back: re-anchor the grid rather than wait for the old time to return.
      logger.warn({ backMs: delay - intervalMs }, 'the clock went back; re-anchoring the schedule');
      anchor = now;
      tick = 1;
      delay = intervalMs;
    }
    timer = setTimeout(fire, delay);
  }

  function fire(): Promise<void> {
    timer = undefined;
    const scheduledAt = anchor + tick * intervalMs;
    const run = Promise.resolve()
      .then(() => task(scheduledAt))
      .catch((err: unknown) => {
        logger.error({ err: errorMessage(err) }, 'scheduled run failed');
      })
      .finally(() => {
        inFlight = undefined;
        if (running) scheduleNext();
      });
    inFlight = run;
    return run;
  }

  return {
    start() {
      if (running) return Promise.resolve();
      running = true;
      anchor = Math.floor(Date.now() / intervalMs) * intervalMs;
      tick = 0;
      return fire();
    },
    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await inFlight;
    },
    get running() {
      return running;
    },
  };
}

export interface CollectorRun {
  samples: SampleLike[];
  /** Names of collectors that threw, timed out or were still busy from an earlier run. */
  failed: string[];
}

/**
 * Runs collectors concurrently, each bounded by `timeoutMs`. A collector that throws or times out
 * contributes nothing and is logged; one whose earlier call is still pending is not called again (its
 * state would be read by two calls at once), so a hung probe costs one pending call, not one per run.
 * Values that are not finite numbers are dropped here so one bad reading cannot void the batch.
 */
export function createCollectorRunner(collectors: readonly Collector[], timeoutMs: number) {
  const busy = new Set<Collector>();

  async function runOne(c: Collector, ctx: CollectContext): Promise<SampleLike[] | undefined> {
    const log = ctx.logger;
    if (busy.has(c)) {
      log.warn({ collector: c.name }, `collector ${c.name} is still busy with an earlier run; skipped`);
      return undefined;
    }
    busy.add(c);
    const call = Promise.resolve()
      .then(() => c.collect({ ...ctx, logger: log.child({ collector: c.name }) }))
      .finally(() => busy.delete(c));
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    try {
      const result = await Promise.race([call, deadline]);
      if (result === 'timeout') {
        call.catch(() => {});
        log.warn({ collector: c.name, timeoutMs }, `collector ${c.name} timed out`);
        return undefined;
      }
      return result.filter((s) => {
        if (typeof s.v === 'number' && Number.isFinite(s.v)) return true;
        log.warn({ collector: c.name, metric: s.m, value: String(s.v) }, 'dropped a non-finite value');
        return false;
      });
    } catch (err) {
      log.warn({ collector: c.name, err: errorMessage(err) }, `collector ${c.name} failed`);
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  return async function run(ctx: CollectContext): Promise<CollectorRun> {
    const results = await Promise.all(collectors.map((c) => runOne(c, ctx)));
    const samples: SampleLike[] = [];
    const failed: string[] = [];
    results.forEach((r, i) => {
      if (r) samples.push(...r);
      else failed.push(collectors[i]!.name);
    });
    return { samples, failed };
  };
}
