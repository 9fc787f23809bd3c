import { InvalidBatchError, type MetricBatch } from '@flightdeck/schemas';
import type { Logger } from 'pino';
import type { Bus, Subscription } from '../bus/contract';
import type { ComponentHealth, DeadLetterInput, MetricStore } from '../store/contract';

/** What the collector reports in `/api/health`. */
export interface CollectorHealth extends ComponentHealth {
  batches_written: number;
  samples_written: number;
  batches_rejected: number;
  write_errors: number;
  /** Refused batches kept in the store's dead-letter table. */
  dead_letters: number;
  /** Unix milliseconds of the last successful store write, or null before the first. */
  last_write_at: number | null;
}

export interface Ingest {
  start(): Promise<void>;
  /** Stops taking batches from the bus; resolves once the batches in flight are written. */
  stop(): Promise<void>;
  health(): Promise<CollectorHealth>;
}

export interface IngestOptions {
  bus: Bus;
  store: MetricStore;
  logger: Logger;
  /** Batches taken from the bus at once (default 64). */
  concurrency?: number;
  /** Most batches written in one store call (default: the concurrency, at most 64). */
  groupMaxBatches?: number;
  /** Longest a batch waits for others to share its write (default 5 ms). */
  groupMaxWaitMs?: number;
  /**
   * Called with the batches of each successful store write, before they are acknowledged (the
   * alert engine evaluates its rules here). Must not block; an error it throws is logged only.
   */
  onWritten?: (batches: readonly MetricBatch[]) => void;
}

interface Waiting {
  batch: MetricBatch;
  resolve: () => void;
  reject: (err: unknown) => void;
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * Bus -> store: every batch is written before the bus acknowledges it, so a batch is either in the
 * store or still on the bus. Batches that arrive together (up to `groupMaxBatches`, or within
 * `groupMaxWaitMs`) share one store write, one transaction, and each is acknowledged after it. A
 * batch the bus or the store finds malformed is counted and kept as a dead letter (it would fail
 * again on redelivery); if it came in a group the others are written one by one, so none of them is
 * lost. Any other write error sends the whole group back to the bus for a later try.
 */
export function createIngest(options: IngestOptions): Ingest {
  const { bus, store, logger } = options;
  const concurrency = options.concurrency ?? 64;
  const groupMax = Math.max(1, options.groupMaxBatches ?? Math.min(64, concurrency));
  const groupWaitMs = options.groupMaxWaitMs ?? 5;
  const counters = {
    batches_written: 0,
    samples_written: 0,
    batches_rejected: 0,
    write_errors: 0,
    dead_letters: 0,
  };
  let lastWriteAt: number | null = null;
  let lastError: { at: number; message: string } | null = null;
  let subscription: Subscription | null = null;
  const deadLettersInFlight = new Set<Promise<void>>();

  function deadLetter(entry: DeadLetterInput): void {
    const p = store
      .deadLetter(entry)
      .then(
        () => {
          counters.dead_letters++;
        },
        (err) => {
          logger.error({ err: errorText(err), reason: entry.reason }, 'dead letter not written');
        },
      )
      .finally(() => deadLettersInFlight.delete(p));
    deadLettersInFlight.add(p);
  }

  function rejected(batch: MetricBatch, err: InvalidBatchError): void {
    counters.batches_rejected++;
    logger.warn(
      { host: batch.host, tenant: batch.tenant, path: err.path },
      `rejected metric batch: ${err.message}`,
    );
    deadLetter({ reason: err.message, payload: batch });
  }

  let group: Waiting[] = [];
  let timer: NodeJS.Timeout | undefined;

  function flush(): void {
    clearTimeout(timer);
    timer = undefined;
    const taken = group;
    group = [];
    if (taken.length > 0) void writeGroup(taken);
  }

  async function writeGroup(taken: Waiting[]): Promise<void> {
    const batches = taken.map((w) => w.batch);
    try {
      // The bus hands the handler only batches that passed parseMetricBatch.
      const result = await store.write(batches, { validated: true });
      counters.batches_written += result.batches;
      counters.samples_written += result.samples;
      lastWriteAt = Date.now();
      if (options.onWritten) {
        try {
          options.onWritten(batches);
        } catch (err) {
          logger.error({ err, batches: batches.length }, 'evaluation after the store write failed');
        }
      }
      for (const w of taken) w.resolve();
    } catch (err) {
      if (err instanceof InvalidBatchError) {
        if (taken.length === 1) {
          rejected(taken[0]!.batch, err);
          taken[0]!.resolve(); // acknowledged: it is a dead letter now, not a retry
          return;
        }
        // One of them is bad: write each alone so the good ones are kept.
        await Promise.all(taken.map((w) => writeGroup([w])));
        return;
      }
      counters.write_errors++;
      lastError = { at: Date.now(), message: errorText(err) };
      logger.error(
        { err, batches: taken.length },
        'metric store write failed; the batches go back to the bus',
      );
      for (const w of taken) w.reject(err);
    }
  }

  function handle(batch: MetricBatch): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      group.push({ batch, resolve, reject });
      if (group.length >= groupMax) flush();
      else timer ??= setTimeout(flush, groupWaitMs);
    });
  }

  return {
    async start() {
      if (subscription) return;
      subscription = await bus.consumeMetrics(handle, {
        concurrency,
        onInvalid: (raw, error) => {
          counters.batches_rejected++;
          logger.warn(
            { reason: error.message },
            'malformed message on the metrics stream kept as a dead letter',
          );
          deadLetter({ reason: error.message, payload: raw });
        },
      });
    },
    async stop() {
      const sub = subscription;
      subscription = null;
      // Handlers in flight wait for their group: write it now rather than after the timer.
      const stopping = sub?.unsubscribe();
      flush();
      await stopping;
      await Promise.allSettled([...deadLettersInFlight]);
    },
    async health() {
      const recentError = lastError && Date.now() - lastError.at < 60_000 ? lastError : null;
      const state: ComponentHealth['state'] = !subscription ? 'down' : recentError ? 'degraded' : 'ok';
      const detail = !subscription
        ? 'not consuming metrics'
        : recentError
          ? `last store write failed: ${recentError.message}`
          : undefined;
      return { state, ...(detail ? { detail } : {}), ...counters, last_write_at: lastWriteAt };
    },
  };
}
