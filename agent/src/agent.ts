import { PRODUCT_VERSION } from '@flightdeck/schemas/version';
import {
  Heartbeat,
  type HostInventory,
  type MetricBatch,
  parseMetricBatch,
  SubjectToken,
} from '@flightdeck/schemas/wire';
import pino, { type Logger } from 'pino';
import type { Collector, HeartbeatExtras } from './collectors/contract';
import { errorMessage } from './collectors/linux/proc';
import { defaultCollectors } from './collectors/registry';
import type { FilesSync } from './files/contract';
import { createFilesWatcher, type FilesWatcher, type FilesWatcherOptions } from './files/watcher';
import { inventoryReader, stableJson } from './inventory';
import { createCollectorRunner, createScheduler } from './scheduler';
import type { Transport } from './transport/contract';

export interface AgentOptions {
  /** Where batches and heartbeats go. The agent owns it from now on and closes it in `stop()`. */
  transport: Transport;
  tenant: string;
  hostKey: string;
  intervalSeconds: number;
  /** Default `/proc`. */
  procRoot?: string;
  logger?: Logger;
  /** Default: the collectors of this platform (`linuxCollectors()` on Linux). */
  collectors?: Collector[];
  /** How long one collector may take per run (default half the interval, at most 5 s). */
  collectorTimeoutMs?: number;
  /**
   * What the host is, read every run and sent in the first heartbeat and whenever it changed.
   * Default: {@link inventoryReader} of `procRoot`; `false` sends none.
   */
  inventory?: (() => HostInventory) | false;
  /**
   * Critical files: where the agent syncs the files it watches (`httpFilesSync` of the api URL and
   * access key, or the api's function in the embedded product). Absent: no files are watched.
   */
  files?: FilesSync;
  /** Settings of the critical-files watcher; it runs every agent interval unless `intervalMs` says otherwise. */
  filesOptions?: Partial<
    Pick<
      FilesWatcherOptions,
      'intervalMs' | 'maxFileBytes' | 'concurrency' | 'fullRehashMs' | 'hostRoot' | 'target'
    >
  >;
  /**
   * Called after every run with its result, the counters and the transport's backlog (the agent's
   * status file is written from here). An exception is logged, never thrown out of the run.
   */
  onRun?: (result: RunResult, stats: AgentStats, backlog: { depth: number; dropped: number }) => void;
}

export interface AgentStats {
  /** Runs completed (collected, and publishing attempted). */
  runs: number;
  /** Metric batches the transport accepted. */
  published: number;
  /** Metric batches that were not published: rejected by the transport or invalid. */
  failed: number;
  /** Heartbeats the transport rejected. */
  heartbeatsFailed: number;
  /** Unix ms when the last run started; `null` before the first. */
  lastRunAt: number | null;
}

export interface RunResult {
  /** The batch of this run; absent when no collector returned a sample. */
  batch?: MetricBatch;
  published: boolean;
  /** Collectors that failed, timed out or were still busy. */
  failedCollectors: string[];
}

export interface Agent {
  /** Takes the first sample, publishes it, then keeps sampling every interval. */
  start(): Promise<void>;
  /** Stops sampling, lets the run in flight finish publishing, then closes the transport. */
  stop(): Promise<void>;
  /** One run now: collect, validate, publish the batch and a heartbeat. Never overlaps another run. */
  runOnce(): Promise<RunResult>;
  stats(): AgentStats;
}

function subjectToken(option: string, value: string): string {
  const parsed = SubjectToken.safeParse(value);
  if (!parsed.success) {
    throw new Error(
      `${option} ${JSON.stringify(value)} is not a subject token: ${parsed.error.issues[0]?.message}`,
    );
  }
  return parsed.data;
}

/**
 * The host agent: collectors sampled on a fixed grid, one validated MetricBatch per run, then a
 * heartbeat. Bad options throw here, at start-up; nothing after that throws out of a run.
 */
export function createAgent(options: AgentOptions): Agent {
  const tenant = subjectToken('tenant', options.tenant);
  const host = subjectToken('hostKey', options.hostKey);
  const intervalSeconds = options.intervalSeconds;
  if (!Number.isInteger(intervalSeconds) || intervalSeconds < 1) {
    throw new Error(`intervalSeconds must be a whole number of at least 1, got ${intervalSeconds}`);
  }
  const { transport } = options;
  const procRoot = options.procRoot ?? '/proc';
  const logger = options.logger ?? pino({ name: 'agent' });
  const collectors = options.collectors ?? defaultCollectors();
  const intervalMs = intervalSeconds * 1000;
  const collect = createCollectorRunner(
    collectors,
    options.collectorTimeoutMs ?? Math.min(5000, intervalMs / 2),
  );

  const inventory =
    options.inventory === false ? undefined : (options.inventory ?? inventoryReader({ procRoot, logger }));
  // The inventory the bus last accepted; a heartbeat that was not published leaves it unchanged.
  let sentInventory: string | undefined;

  const stats: AgentStats = { runs: 0, published: 0, failed: 0, heartbeatsFailed: 0, lastRunAt: null };
  // Runs are chained so a manual runOnce() and a scheduled run never overlap.
  let tail: Promise<unknown> = Promise.resolve();
  let stopping: Promise<void> | undefined;

  async function cycle(): Promise<RunResult> {
    const now = Date.now();
    stats.lastRunAt = now;
    const { samples, failed: failedCollectors } = await collect({ procRoot, now, logger });
    const result: RunResult = { published: false, failedCollectors };

    if (samples.length === 0) {
      logger.warn({ failedCollectors }, 'no collector returned a sample; no batch this run');
    } else {
      try {
        const batch = parseMetricBatch({ v: 1, tenant, host, source: 'agent', ts: now, samples });
        result.batch = batch;
        await transport.publishMetrics(batch);
        result.published = true;
        stats.published++;
      } catch (err) {
        stats.failed++;
        logger.error(
          { err: errorMessage(err), samples: samples.length, failedTotal: stats.failed },
          'metric batch not published',
        );
      }
    }

    const extras: HeartbeatExtras = {};
    for (const c of collectors) {
      if (c.heartbeat && !failedCollectors.includes(c.name)) Object.assign(extras, c.heartbeat());
    }
    let changedInventory: { value: HostInventory; json: string } | undefined;
    try {
      const value = inventory?.();
      const json = value ? stableJson(value) : undefined;
      if (value && json && json !== sentInventory) changedInventory = { value, json };
    } catch (err) {
      logger.warn({ err: errorMessage(err) }, 'inventory not read');
    }
    const backlog = transport.backlog();
    try {
      await transport.publishHeartbeat(
        Heartbeat.parse({
          ...extras,
          ...(changedInventory ? { inventory: changedInventory.value } : {}),
          v: 1,
          tenant,
          host,
          agent_version: PRODUCT_VERSION,
          interval_s: intervalSeconds,
          spool_depth: backlog.depth,
          spool_dropped: backlog.dropped,
          ts: Date.now(),
        }),
      );
      if (changedInventory) sentInventory = changedInventory.json;
    } catch (err) {
      stats.heartbeatsFailed++;
      logger.warn({ err: errorMessage(err) }, 'heartbeat not published');
    }
    stats.runs++;
    if (options.onRun) {
      try {
        options.onRun(result, { ...stats }, transport.backlog());
      } catch (err) {
        logger.warn({ err: errorMessage(err) }, 'the after-run callback failed');
      }
    }
    return result;
  }

  function runOnce(): Promise<RunResult> {
    const run = tail.then(cycle);
    tail = run.catch(() => {});
    return run;
  }

  const scheduler = createScheduler({
    intervalMs,
    logger,
    task: async () => {
      await runOnce();
    },
  });
  // Beside the metric runs, on its own schedule: hashing files never delays a batch.
  const files: FilesWatcher | undefined = options.files
    ? createFilesWatcher({
        intervalMs,
        ...options.filesOptions,
        sync: options.files,
        tenant,
        host,
        logger: logger.child({ part: 'files' }),
      })
    : undefined;
  let firstRun: Promise<void> | undefined;

  return {
    start() {
      if (stopping) return Promise.reject(new Error('the agent was stopped; create a new one'));
      if (!firstRun) {
        logger.info(
          { tenant, host, intervalSeconds, collectors: collectors.map((c) => c.name) },
          'agent starting',
        );
        firstRun = scheduler.start();
        void files?.start();
      }
      return firstRun;
    },
    stop() {
      stopping ??= (async () => {
        await Promise.all([scheduler.stop(), files?.stop()]);
        await tail;
        await transport.close();
        logger.info({ ...stats }, 'agent stopped');
      })();
      return stopping;
    },
    runOnce,
    stats: () => ({ ...stats }),
  };
}
