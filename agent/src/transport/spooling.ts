import type { Heartbeat, MetricBatch } from '@flightdeck/schemas/wire';
import type { Logger } from 'pino';
import type { Spool } from '../spool';
import { type Transport, TransportError, TransportRejectedError } from './contract';

export interface SpoolingTransportOptions {
  /** Tried in this order for every message, e.g. NATS first, then the HTTP ingest as the fallback. */
  transports: readonly Transport[];
  /** Where batches go when no transport takes them. Closed by `close()`. */
  spool: Spool;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** First retry of the replay after a failed attempt (default 1,000 ms); doubles up to retryMaxMs. */
  retryBaseMs?: number;
  /** Longest wait between replay attempts (default 30,000 ms). */
  retryMaxMs?: number;
  /** Batches taken from the spool per replay step (default 100, the HTTP ingest's limit). */
  replayChunk?: number;
}

export interface SpoolingTransport extends Transport {
  /** Resolves once the spool is empty (or the transport closes); for tests and shutdown. */
  drained(): Promise<void>;
  /** Batches dropped because a transport refused them for good (4xx, malformed). */
  readonly rejected: number;
}

/** `handled` batches from the head were sent or refused; `split`: resend the group one by one. */
type Outcome = { handled: number; refused?: TransportRejectedError; split?: boolean };

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * Publishes through the first transport that takes a message; a batch none takes goes to the spool
 * (DESIGN section 1). While the spool holds anything, new batches are appended behind it and a
 * background replay sends the spool oldest first, so the order in which batches were taken is the
 * order in which they arrive. A batch refused for good is logged and dropped, never spooled, so it
 * cannot block the replay. Heartbeats are not spooled: a late heartbeat says nothing.
 */
export function createSpoolingTransport(options: SpoolingTransportOptions): SpoolingTransport {
  const { transports, spool, logger } = options;
  if (transports.length === 0) throw new Error('the spooling transport needs at least one transport');
  const retryBaseMs = options.retryBaseMs ?? 1_000;
  const retryMaxMs = options.retryMaxMs ?? 30_000;
  const chunkSize = Math.max(1, options.replayChunk ?? 100);

  // Direct sends and replay steps run one at a time, in call order.
  let chain: Promise<unknown> = Promise.resolve();
  function serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = chain.then(fn);
    chain = run.catch(() => {});
    return run;
  }

  let closing: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let replaying: Promise<void> | undefined;
  let failures = 0;
  let rejected = 0;
  /** After a group was refused, this many batches are sent one by one to find the bad one. */
  let singles = 0;
  let waiters: (() => void)[] = [];

  function wakeWaiters() {
    if (spool.depth > 0 && !closing) return;
    for (const w of waiters) w();
    waiters = [];
  }

  /** Sends batches from the head of `batches` through the first transport that takes them. */
  async function deliver(batches: readonly MetricBatch[]): Promise<Outcome> {
    let lastError: unknown;
    for (const t of transports) {
      const group = singles > 0 || !t.publishMetricsMany ? batches.slice(0, 1) : batches;
      try {
        if (group.length > 1) await t.publishMetricsMany!(group);
        else await t.publishMetrics(group[0]!);
        if (singles > 0) singles--;
        return { handled: group.length };
      } catch (err) {
        if (err instanceof TransportRejectedError) {
          if (group.length > 1) {
            // One of the group is bad: send them one at a time until past it.
            singles = group.length;
            return { handled: 0, split: true };
          }
          if (singles > 0) singles--;
          return { handled: 1, refused: err };
        }
        lastError = err;
      }
    }
    logger.warn({ err: errorText(lastError) }, 'no transport took the metric batch');
    return { handled: 0 };
  }

  function backoff(): number {
    return Math.min(retryMaxMs, retryBaseMs * 2 ** Math.min(failures, 20));
  }

  function schedule(delayMs: number) {
    if (timer || replaying || closing || spool.depth === 0) return;
    timer = setTimeout(() => {
      timer = undefined;
      replaying = serial(replay)
        .catch((err) => logger.error({ err: errorText(err) }, 'spool replay failed'))
        .finally(() => {
          replaying = undefined;
          if (spool.depth > 0) schedule(backoff());
          wakeWaiters();
        });
    }, delayMs);
    timer.unref?.();
  }

  /** Drains the spool oldest first; stops at the first step no transport takes. */
  async function replay(): Promise<void> {
    const before = spool.depth;
    while (spool.depth > 0 && !closing) {
      const chunk = spool.peek(chunkSize);
      if (chunk.length === 0) continue; // unreadable lines were dropped by peek
      const outcome = await deliver(chunk);
      if (outcome.refused) {
        rejected++;
        logger.error({ err: outcome.refused.message, rejected }, 'a spooled batch was refused; dropped');
      }
      if (outcome.split) continue; // the same head again, one batch at a time
      if (outcome.handled === 0) {
        failures++;
        return;
      }
      failures = 0;
      spool.shift(outcome.handled);
    }
    if (before > 0 && spool.depth === 0) logger.info({ replayed: before }, 'spool replayed');
  }

  function toSpool(batch: MetricBatch): void {
    try {
      spool.append(batch);
    } catch (err) {
      throw new TransportError(`metric batch not published and not spooled: ${errorText(err)}`, {
        cause: err,
      });
    }
  }

  return {
    async publishMetrics(batch) {
      if (closing) throw new TransportError('transport closed; metric batch not published');
      // Behind what is already waiting, so the order holds.
      if (spool.depth > 0) {
        toSpool(batch);
        schedule(0);
        return;
      }
      await serial(async () => {
        if (spool.depth > 0) {
          toSpool(batch);
          schedule(0);
          return;
        }
        const outcome = await deliver([batch]);
        if (outcome.refused) throw outcome.refused;
        if (outcome.handled === 0) {
          toSpool(batch);
          failures = Math.max(failures, 1);
          logger.warn({ depth: spool.depth, dropped: spool.dropped }, 'metric batch spooled');
          schedule(backoff());
        }
      });
    },

    async publishHeartbeat(hb: Heartbeat) {
      let lastError: unknown;
      for (const t of transports) {
        try {
          await t.publishHeartbeat(hb);
          return;
        } catch (err) {
          lastError = err;
        }
      }
      throw lastError instanceof TransportError
        ? lastError
        : new TransportError(`heartbeat not published: ${errorText(lastError)}`, { cause: lastError });
    },

    backlog: () => ({ depth: spool.depth, dropped: spool.dropped }),

    drained() {
      if (spool.depth === 0 || closing) return Promise.resolve();
      schedule(0);
      return new Promise((resolve) => waiters.push(resolve));
    },

    get rejected() {
      return rejected;
    },

    close() {
      closing ??= (async () => {
        clearTimeout(timer);
        timer = undefined;
        await chain;
        wakeWaiters();
        spool.close();
        await Promise.allSettled(transports.map((t) => t.close()));
      })();
      return closing;
    },
  };
}
