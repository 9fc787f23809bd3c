import type { Bus } from '@flightdeck/collector/bus';
import { InvalidBatchError } from '@flightdeck/schemas/errors';
import type { Heartbeat, MetricBatch } from '@flightdeck/schemas/wire';
import { type Transport, TransportError, TransportRejectedError } from './contract';

export interface BusTransportOptions {
  /**
   * Close the bus when the transport closes. Off by default: in the embedded product the bus is
   * shared with the collector and the api, and its owner closes it.
   */
  closeBus?: boolean;
  /** A publish not acknowledged within this time rejects (default 10 s), so shutdown cannot hang. */
  publishTimeoutMs?: number;
}

/** Publishes the agent's batches and heartbeats on the bus (`fd.metrics.*`, `fd.hb.*`). */
export function createBusTransport(bus: Bus, options: BusTransportOptions = {}): Transport {
  const timeoutMs = options.publishTimeoutMs ?? 10_000;
  const inFlight = new Set<Promise<unknown>>();
  let closing: Promise<void> | undefined;

  async function publish(what: string, send: () => Promise<void>): Promise<void> {
    if (closing) throw new TransportError(`transport closed; ${what} not published`);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new TransportError(`${what} not acknowledged by the ${bus.kind} bus within ${timeoutMs} ms`),
          ),
        timeoutMs,
      );
    });
    const attempt = Promise.race([Promise.resolve().then(send), deadline]).finally(() => clearTimeout(timer));
    inFlight.add(attempt);
    try {
      await attempt;
    } catch (err) {
      if (err instanceof TransportError) throw err;
      if (err instanceof InvalidBatchError) {
        throw new TransportRejectedError(`${what} refused by the ${bus.kind} bus: ${err.message}`, {
          cause: err,
        });
      }
      throw new TransportError(
        `${what} not published on the ${bus.kind} bus: ${(err as Error)?.message ?? err}`,
        {
          cause: err,
        },
      );
    } finally {
      inFlight.delete(attempt);
    }
  }

  /**
   * A disconnected NATS client buffers publishes and sends them on reconnect, after we have given up
   * on them and spooled the batch: fail at once while the bus says it is down, so a spooled batch is
   * not also sent from that buffer (a duplicate, harmless to the store but wasteful).
   */
  async function sendMetrics(batch: MetricBatch): Promise<void> {
    if (typeof bus.health === 'function') {
      const health = await bus.health();
      if (health.state === 'down') {
        throw new TransportError(`the ${bus.kind} bus is down: ${health.detail ?? 'unavailable'}`);
      }
    }
    await bus.publishMetrics(batch);
  }

  return {
    publishMetrics: (batch: MetricBatch) => publish('metric batch', () => sendMetrics(batch)),
    publishHeartbeat: (hb: Heartbeat) => publish('heartbeat', () => bus.publishHeartbeat(hb)),
    backlog: () => ({ depth: 0, dropped: 0 }),
    close() {
      closing ??= (async () => {
        await Promise.allSettled([...inFlight]);
        if (options.closeBus) await bus.close();
      })();
      return closing;
    },
  };
}
