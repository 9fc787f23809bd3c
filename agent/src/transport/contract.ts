import type { Heartbeat, MetricBatch } from '@flightdeck/schemas/wire';

/**
 * How the agent hands its messages on (DESIGN section 2): the bus (`bus.ts`), the api's HTTP
 * `/api/ingest` (`http.ts`), and the on-disk spool in front of one or more of them (`spooling.ts`).
 *
 * A publish rejects when the message was not accepted, so a spool wrapping a transport can keep the
 * batch and replay it. The agent catches the rejection, logs it and counts it; it never crashes.
 */
export interface Transport {
  /** Publishes a validated batch; resolves once the other side holds it. */
  publishMetrics(batch: MetricBatch): Promise<void>;
  publishHeartbeat(hb: Heartbeat): Promise<void>;
  /**
   * Optional: publishes several batches in one exchange (the HTTP ingest takes up to 100), all or
   * none. The spool replays through it when present.
   */
  publishMetricsMany?(batches: readonly MetricBatch[]): Promise<void>;
  /**
   * Batches waiting to be delivered and batches dropped because the backlog was full, reported in
   * the heartbeat. A transport without a spool holds nothing.
   */
  backlog(): { depth: number; dropped: number };
  /** Waits for publishes in flight, then releases what the transport opened. Publishing afterwards rejects. */
  close(): Promise<void>;
}

/** A publish the transport could not complete. `cause` holds the underlying error. */
export class TransportError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TransportError';
  }
}

/**
 * The other side answered and refused the message for good (malformed, HTTP 4xx): sending it again
 * would fail again, so a spool drops it instead of keeping it (a bad batch never blocks the spool).
 */
export class TransportRejectedError extends TransportError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TransportRejectedError';
  }
}
