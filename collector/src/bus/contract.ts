import type {
  AlertEvent,
  CommandReply,
  CommandRequest,
  Heartbeat,
  MetricBatch,
} from '@flightdeck/schemas/wire';
import type { ComponentHealth } from '../store/contract';

/**
 * The bus between agents, pollers, collectors and the api (DESIGN section 3). Two implementations
 * (in-process for the embedded mode, NATS JetStream at scale) pass one contract suite.
 */
export interface Bus {
  readonly kind: 'in-process' | 'nats';
  /**
   * Validates and publishes a batch on `fd.metrics.<tenant>.<host>`. Resolves once the bus holds
   * it durably (JetStream ack; in-process: queued). A malformed batch throws `InvalidBatchError`
   * naming the field and publishes nothing.
   */
  publishMetrics(batch: MetricBatch): Promise<void>;
  /**
   * Delivers batches to `handler`, one consumer group shared by all collectors. A message is
   * acknowledged only after `handler` resolves (after the store write); if it throws, the batch is
   * redelivered later. A message that is not a valid batch is handed to `onInvalid` and dropped,
   * never to `handler`.
   */
  consumeMetrics(handler: MetricHandler, options?: ConsumeOptions): Promise<Subscription>;
  publishHeartbeat(hb: Heartbeat): Promise<void>;
  subscribeHeartbeats(handler: (hb: Heartbeat) => void): Promise<Subscription>;
  /** Sends a command to a worker and waits for its reply until `request.deadline`. */
  request(worker: string, request: CommandRequest): Promise<CommandReply>;
  /** Serves commands addressed to `worker`; several servers of one worker share the work. */
  serveCommands(
    worker: string,
    handler: (request: CommandRequest) => Promise<CommandReply>,
  ): Promise<Subscription>;
  publishEvent(event: AlertEvent): Promise<void>;
  /** Events of one tenant, or of all tenants with `'*'`. */
  subscribeEvents(tenant: string, handler: (event: AlertEvent) => void): Promise<Subscription>;
  health(): Promise<ComponentHealth>;
  /** Stops taking new messages, waits for handlers in flight to finish and acknowledge, then closes. */
  close(): Promise<void>;
}

export type MetricHandler = (batch: MetricBatch) => Promise<void>;

export interface ConsumeOptions {
  /** Called with the raw payload and the reason when a message is not a valid batch. */
  onInvalid?: (raw: Uint8Array | unknown, error: Error) => void;
  /** Batches handled at once (default 64). */
  concurrency?: number;
}

export interface Subscription {
  /** Stops delivery; resolves once handlers in flight have finished. */
  unsubscribe(): Promise<void>;
}

/** Thrown by {@link Bus.request} when no reply came before the deadline or nobody serves the worker. */
export class CommandTimeoutError extends Error {
  readonly code = 'timeout' as const;
  constructor(
    readonly worker: string,
    readonly command: string,
  ) {
    super(`no reply from worker "${worker}" to ${command} in time`);
    this.name = 'CommandTimeoutError';
  }
}
