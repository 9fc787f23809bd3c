import { InvalidBatchError, type MetricBatch } from '@flightdeck/schemas';
import type { Logger } from 'pino';
import type { Bus, Subscription } from '../bus/contract';
import type { ComponentHealth, MetricStore } from '../store/contract';

/** What the collector reports in `/api/health`. */
export interface CollectorHealth extends ComponentHealth {
  batches_written: number;
  samples_written: number;
  batches_rejected: number;
  write_errors: number;
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
  concurrency?: number;
}

/**
 * Bus -> store: every batch is written before the bus acknowledges it, so a batch is either in the
 * store or still on the bus. A batch the store rejects as malformed is counted and dropped (it would
 * fail again on redelivery); any other write error sends it back to the bus for a later try.
 */
export function createIngest({ bus, store, logger, concurrency }: IngestOptions): Ingest {
  const counters = { batches_written: 0, samples_written: 0, batches_rejected: 0, write_errors: 0 };
  let lastWriteAt: number | null = null;
  let lastError: { at: number; message: string } | null = null;
  let subscription: Subscription | null = null;

  async function handle(batch: MetricBatch): Promise<void> {
    try {
      const result = await store.write([batch]);
      counters.batches_written += result.batches;
      counters.samples_written += result.samples;
      lastWriteAt = Date.now();
    } catch (err) {
      if (err instanceof InvalidBatchError) {
        counters.batches_rejected++;
        logger.warn(
          { host: batch.host, tenant: batch.tenant, path: err.path },
          `rejected metric batch: ${err.message}`,
        );
        return;
      }
      counters.write_errors++;
      lastError = { at: Date.now(), message: err instanceof Error ? err.message : String(err) };
      logger.error({ err, host: batch.host }, 'metric store write failed; the batch goes back to the bus');
      throw err;
    }
  }

  return {
    async start() {
      if (subscription) return;
      subscription = await bus.consumeMetrics(handle, {
        concurrency: concurrency ?? 64,
        onInvalid: (_raw, error) => {
          counters.batches_rejected++;
          logger.warn({ reason: error.message }, 'dropped a malformed message from the metrics stream');
        },
      });
    },
    async stop() {
      const sub = subscription;
      subscription = null;
      await sub?.unsubscribe();
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
