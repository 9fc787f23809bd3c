import type { Heartbeat, MetricBatch } from '@flightdeck/schemas/wire';
import type { Logger } from 'pino';
import { type Transport, TransportError, TransportRejectedError } from './contract';

/** Most batches one `POST /api/ingest` may carry (the api's limit). */
export const MAX_INGEST_BATCHES = 100;

export interface HttpTransportOptions {
  /** Base URL of the api, e.g. `https://flightdeck.example.com`; the call goes to `<url>/api/ingest`. */
  url: string;
  /** The agent access key, sent as `Authorization: Bearer <key>`. */
  accessKey: string;
  /** A request not answered within this time fails (default 10 s). */
  timeoutMs?: number;
  logger?: Pick<Logger, 'warn' | 'error'>;
}

/** The failure message of an api answer: its envelope's `message`, else the status line. */
async function answerMessage(res: Response): Promise<string> {
  const text = await res.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { message?: unknown; code?: unknown };
    if (typeof body.message === 'string') return body.message;
  } catch {
    // Not JSON: a proxy's page, say.
  }
  return `${res.status} ${res.statusText}${text ? `: ${text.slice(0, 200)}` : ''}`;
}

/**
 * Publishes through the api's HTTP ingest (DESIGN section 2, embedded mode and the fallback at
 * scale). A network error, a timeout or a 5xx rejects with `TransportError` (a spool keeps the
 * batch); a 4xx other than 401/403/408/429 rejects with `TransportRejectedError` carrying the
 * server's message (a spool drops the batch: sending it again would be refused again). A refused
 * access key (401/403) is a set-up problem an operator fixes, so those batches stay spooled.
 */
export function createHttpTransport(options: HttpTransportOptions): Transport {
  const endpoint = `${options.url.replace(/\/+$/, '')}/api/ingest`;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const inFlight = new Set<Promise<unknown>>();
  let closing: Promise<void> | undefined;

  async function post(what: string, body: { batches: readonly MetricBatch[]; heartbeat?: Heartbeat }) {
    if (closing) throw new TransportError(`transport closed; ${what} not published`);
    const attempt = (async () => {
      let res: Response;
      try {
        res = await fetch(endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${options.accessKey}` },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (err) {
        const reason =
          (err as Error)?.name === 'TimeoutError'
            ? `no answer within ${timeoutMs} ms`
            : ((err as Error & { cause?: Error })?.cause?.message ?? (err as Error)?.message);
        throw new TransportError(`${what} not sent to ${endpoint}: ${reason}`, { cause: err });
      }
      if (res.ok) {
        await res.body?.cancel().catch(() => {});
        return;
      }
      const message = await answerMessage(res);
      if (res.status === 401 || res.status === 403) {
        options.logger?.error(
          { status: res.status, endpoint },
          `ingest refused the access key (check the key of the config file or AGENT_ACCESS_KEY); keeping the ${what} in the spool: ${message}`,
        );
        throw new TransportError(`${what} refused by ${endpoint} (${res.status}): ${message}`);
      }
      if (res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429) {
        options.logger?.warn({ status: res.status, endpoint }, `ingest refused the ${what}: ${message}`);
        throw new TransportRejectedError(`${what} refused by ${endpoint} (${res.status}): ${message}`);
      }
      throw new TransportError(`${what} not accepted by ${endpoint} (${res.status}): ${message}`);
    })();
    inFlight.add(attempt);
    try {
      await attempt;
    } finally {
      inFlight.delete(attempt);
    }
  }

  return {
    publishMetrics: (batch) => post('metric batch', { batches: [batch] }),
    async publishMetricsMany(batches) {
      for (let i = 0; i < batches.length; i += MAX_INGEST_BATCHES) {
        await post('metric batches', { batches: batches.slice(i, i + MAX_INGEST_BATCHES) });
      }
    },
    publishHeartbeat: (hb) => post('heartbeat', { batches: [], heartbeat: hb }),
    backlog: () => ({ depth: 0, dropped: 0 }),
    close() {
      closing ??= Promise.allSettled([...inFlight]).then(() => {});
      return closing;
    },
  };
}
