import { type Transport, TransportError } from './contract';

/**
 * A transport opened on first use and again after a failed opening, so an agent started while NATS
 * is down runs (and spools) instead of exiting. Once open, the inner transport handles outages
 * itself (the NATS client reconnects forever). Attempts are at least `retryMs` apart (default 30 s);
 * in between a publish fails at once.
 */
export function createLazyTransport(
  open: () => Promise<Transport>,
  options: { what: string; retryMs?: number; now?: () => number },
): Transport {
  const retryMs = options.retryMs ?? 30_000;
  const now = options.now ?? Date.now;
  let inner: Transport | undefined;
  let opening: Promise<Transport> | undefined;
  let lastFailure: { at: number; message: string } | undefined;
  let closed = false;

  async function get(): Promise<Transport> {
    if (inner) return inner;
    if (closed) throw new TransportError(`transport closed; ${options.what} not used`);
    if (!opening) {
      if (lastFailure && now() - lastFailure.at < retryMs) {
        throw new TransportError(`${options.what} not reachable: ${lastFailure.message}`);
      }
      opening = open().then(
        (t) => {
          inner = t;
          lastFailure = undefined;
          return t;
        },
        (err: unknown) => {
          opening = undefined;
          lastFailure = { at: now(), message: err instanceof Error ? err.message : String(err) };
          throw new TransportError(`${options.what} not reachable: ${lastFailure.message}`, { cause: err });
        },
      );
    }
    return opening;
  }

  return {
    publishMetrics: async (batch) => (await get()).publishMetrics(batch),
    publishHeartbeat: async (hb) => (await get()).publishHeartbeat(hb),
    backlog: () => inner?.backlog() ?? { depth: 0, dropped: 0 },
    async close() {
      closed = true;
      const t = inner ?? (await opening?.catch(() => undefined));
      await t?.close();
    },
  };
}
