import { InvalidBatchError } from '@flightdeck/schemas/errors';
import {
  AlertEvent,
  CommandReply,
  CommandRequest,
  Heartbeat,
  type MetricBatch,
  parseMetricBatch,
  SubjectToken,
  subjects,
} from '@flightdeck/schemas/wire';
import {
  AckPolicy,
  type ConsumerMessages,
  DeliverPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  type JetStreamManager,
  type JsMsg,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
} from '@nats-io/jetstream';
import {
  connect,
  type NatsConnection,
  NoRespondersError,
  nanos,
  RequestError,
  TimeoutError,
} from '@nats-io/transport-node';
import type { ComponentHealth } from '../store/contract';
import { type Bus, CommandTimeoutError, type MetricHandler, type Subscription } from './contract';
import {
  answerCommand,
  asError,
  BusClosedError,
  type BusCommonOptions,
  BusUnavailableError,
  callSafely,
  checkTenantFilter,
  DEFAULT_CONCURRENCY,
  defaultLogger,
  parseMessage,
  retryDelayMs,
} from './shared';

export interface NatsBusOptions extends BusCommonOptions {
  /** One URL or several (`nats://host:4222`). */
  servers: string | string[];
  /** JetStream stream holding `<prefix>.metrics.>` (default `FD_METRICS`). */
  stream?: string;
  /** Durable pull consumer shared by every collector: the queue group of DESIGN (default `collectors`). */
  durable?: string;
  /** Give up the first connection after this long (default 5,000 ms). Later outages reconnect forever. */
  connectTimeoutMs?: number;
  /** Connection name shown by the server's monitoring. */
  name?: string;
  /** How long JetStream waits for an ack before redelivering (default 30,000 ms). */
  ackWaitMs?: number;
}

export interface NatsBus extends Bus {
  readonly kind: 'nats';
}

const DAY_MS = 24 * 60 * 60 * 1000;
const COMMAND_QUEUE = 'workers';

function isApiError(err: unknown, code: number): boolean {
  return err instanceof JetStreamApiError && err.code === code;
}

/** Creates the stream, or brings an existing one to our subjects and retention. */
async function ensureStream(jsm: JetStreamManager, stream: string, prefix: string): Promise<void> {
  const subject = subjects.allMetrics(prefix);
  const maxAge = nanos(DAY_MS);
  try {
    const info = await jsm.streams.info(stream);
    const subjectsNow = info.config.subjects ?? [];
    if (!subjectsNow.includes(subject) || info.config.max_age !== maxAge) {
      await jsm.streams.update(stream, {
        subjects: [...new Set([...subjectsNow, subject])],
        max_age: maxAge,
      });
    }
  } catch (err) {
    if (!isApiError(err, JetStreamApiCodes.StreamNotFound)) throw err;
    try {
      await jsm.streams.add({
        name: stream,
        subjects: [subject],
        storage: StorageType.File,
        retention: RetentionPolicy.Limits,
        max_age: maxAge,
      });
    } catch (addErr) {
      // Another process created it between our info and add: fine, it is there now.
      await jsm.streams.info(stream).catch(() => {
        throw addErr;
      });
    }
  }
}

async function ensureConsumer(
  jsm: JetStreamManager,
  stream: string,
  durable: string,
  ackWaitMs: number,
): Promise<void> {
  const settings = { ack_wait: nanos(ackWaitMs), max_deliver: -1, max_ack_pending: 10_000 };
  try {
    await jsm.consumers.add(stream, {
      durable_name: durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ...settings,
    });
  } catch (err) {
    // It exists with other settings (older deployment): keep it, and its position, but update.
    if (!(err instanceof JetStreamApiError)) throw err;
    await jsm.consumers.update(stream, durable, settings);
  }
}

/**
 * The bus at scale: metric batches through a JetStream stream and a durable pull consumer shared
 * by every collector; heartbeats, events and commands on core NATS. Reconnects forever, so a NATS
 * restart pauses the bus instead of ending the process.
 */
export async function createNatsBus(options: NatsBusOptions): Promise<NatsBus> {
  const prefix = options.subjectPrefix ?? 'fd';
  const stream = options.stream ?? 'FD_METRICS';
  const durable = options.durable ?? 'collectors';
  const logger = options.logger ?? defaultLogger();
  const ackWaitMs = options.ackWaitMs ?? 30_000;
  const retryBaseMs = options.retryBaseMs ?? 1_000;
  const retryMaxMs = options.retryMaxMs ?? 60_000;
  const servers = options.servers;

  let nc: NatsConnection;
  try {
    nc = await connect({
      servers,
      name: options.name ?? 'flightdeck',
      timeout: options.connectTimeoutMs ?? 5_000,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 1_000,
    });
  } catch (err) {
    throw new BusUnavailableError(`NATS at ${String(servers)} is not reachable: ${asError(err).message}`, {
      cause: err,
    });
  }

  let jsm: JetStreamManager;
  try {
    jsm = await jetstreamManager(nc);
    await ensureStream(jsm, stream, prefix);
  } catch (err) {
    await nc.close();
    throw new BusUnavailableError(`JetStream stream ${stream} is not available: ${asError(err).message}`, {
      cause: err,
    });
  }
  const js = jsm.jetstream();

  let connection: ComponentHealth = { state: 'ok' };
  void (async () => {
    for await (const s of nc.status()) {
      if (s.type === 'disconnect') connection = { state: 'down', detail: `disconnected from ${s.server}` };
      else if (s.type === 'reconnecting') connection = { state: 'down', detail: 'reconnecting to NATS' };
      else if (s.type === 'reconnect') connection = { state: 'ok' };
      else if (s.type === 'error') logger.warn({ err: s.error }, 'NATS error');
    }
  })();

  let closing = false;
  let closePromise: Promise<void> | undefined;
  let consumerReady: Promise<void> | undefined;
  const open = new Set<Subscription>();

  function ensureOpen(what: string): void {
    if (closing || nc.isClosed()) throw new BusClosedError(what);
  }

  function track(sub: Subscription): Subscription {
    open.add(sub);
    return {
      unsubscribe: async () => {
        open.delete(sub);
        await sub.unsubscribe();
      },
    };
  }

  async function handleMessage(
    m: JsMsg,
    handler: MetricHandler,
    onInvalid: ((raw: Uint8Array | unknown, error: Error) => void) | undefined,
  ): Promise<void> {
    let batch: MetricBatch;
    try {
      let raw: unknown;
      try {
        raw = m.json();
      } catch (err) {
        throw new InvalidBatchError('', `not JSON: ${asError(err).message}`);
      }
      batch = parseMetricBatch(raw);
    } catch (err) {
      const error = asError(err);
      // No reason text: `+TERM <reason>` needs nats-server 2.10, Debian ships 2.9.
      m.term();
      if (!onInvalid) {
        logger.warn({ err: error, subject: m.subject }, 'invalid metric message dropped');
        return;
      }
      try {
        onInvalid(m.data, error);
      } catch (cbErr) {
        logger.error({ err: cbErr }, 'onInvalid callback failed');
      }
      return;
    }
    // A slow store write must not look like a lost collector: keep telling JetStream we work on it.
    const keepAlive = setInterval(() => m.working(), Math.max(500, ackWaitMs / 2));
    try {
      await handler(batch);
      m.ack();
    } catch (err) {
      const delay = retryDelayMs(m.info.deliveryCount, retryBaseMs, retryMaxMs);
      logger.warn(
        { err, attempts: m.info.deliveryCount, retryInMs: delay, subject: m.subject },
        'metric handler failed; batch will be redelivered',
      );
      m.nak(delay);
    } finally {
      clearInterval(keepAlive);
    }
  }

  return {
    kind: 'nats',

    async publishMetrics(batch) {
      ensureOpen('publishMetrics');
      parseMetricBatch(batch);
      try {
        await js.publish(subjects.metrics(prefix, batch.tenant, batch.host), JSON.stringify(batch));
      } catch (err) {
        throw new BusUnavailableError(`metric batch not stored by JetStream: ${asError(err).message}`, {
          cause: err,
        });
      }
    },

    async consumeMetrics(handler, consumeOptions = {}) {
      ensureOpen('consumeMetrics');
      const concurrency = Math.max(1, consumeOptions.concurrency ?? DEFAULT_CONCURRENCY);
      const onInvalid = consumeOptions.onInvalid;
      consumerReady ??= ensureConsumer(jsm, stream, durable, ackWaitMs).catch((err) => {
        consumerReady = undefined;
        throw err;
      });
      await consumerReady;
      const consumer = await js.consumers.get(stream, durable);

      let stopping = false;
      let messages: ConsumerMessages | undefined;
      const inFlight = new Set<Promise<void>>();

      const loop = (async () => {
        while (!stopping && !nc.isClosed()) {
          try {
            messages = await consumer.consume({ max_messages: concurrency });
            if (stopping) void messages.close();
            for await (const m of messages) {
              if (!stopping && inFlight.size >= concurrency) await Promise.race(inFlight);
              // Pulled but not started when we stop: hand it straight back to the other collectors.
              if (stopping) {
                m.nak();
                continue;
              }
              const p = handleMessage(m, handler, onInvalid).finally(() => inFlight.delete(p));
              inFlight.add(p);
            }
          } catch (err) {
            if (stopping || nc.isClosed()) break;
            logger.error({ err }, 'metric consumer stopped; restarting in 1 s');
            await new Promise((r) => setTimeout(r, 1_000));
          }
        }
      })();

      return track({
        unsubscribe: async () => {
          if (stopping) return loop;
          stopping = true;
          void messages?.close();
          await loop;
          await Promise.all(inFlight);
          // Acks are fire-and-forget: a flush round trip means the server has them all.
          if (!nc.isClosed()) await nc.flush().catch(() => undefined);
        },
      });
    },

    async publishHeartbeat(hb) {
      ensureOpen('publishHeartbeat');
      const msg = parseMessage(Heartbeat, hb);
      nc.publish(subjects.heartbeat(prefix, msg.tenant, msg.host), JSON.stringify(msg));
    },

    async subscribeHeartbeats(handler) {
      ensureOpen('subscribeHeartbeats');
      const sub = nc.subscribe(subjects.allHeartbeats(prefix), {
        callback: (err, msg) => {
          if (err) return logger.warn({ err }, 'heartbeat subscription error');
          let parsed: Heartbeat;
          try {
            parsed = parseMessage(Heartbeat, msg.json());
          } catch (e) {
            return logger.warn({ err: e, subject: msg.subject }, 'invalid heartbeat dropped');
          }
          callSafely(handler, parsed, logger, 'heartbeat');
        },
      });
      // Once flushed the server knows the subscription: a heartbeat published after this arrives.
      await nc.flush();
      return track({ unsubscribe: async () => sub.unsubscribe() });
    },

    async publishEvent(event) {
      ensureOpen('publishEvent');
      const msg = parseMessage(AlertEvent, event);
      nc.publish(subjects.events(prefix, msg.tenant), JSON.stringify(msg));
    },

    async subscribeEvents(tenant, handler) {
      ensureOpen('subscribeEvents');
      checkTenantFilter(tenant);
      const subject = tenant === '*' ? subjects.allEvents(prefix) : subjects.events(prefix, tenant);
      const sub = nc.subscribe(subject, {
        callback: (err, msg) => {
          if (err) return logger.warn({ err }, 'event subscription error');
          let parsed: AlertEvent;
          try {
            parsed = parseMessage(AlertEvent, msg.json());
          } catch (e) {
            return logger.warn({ err: e, subject: msg.subject }, 'invalid event dropped');
          }
          callSafely(handler, parsed, logger, 'event');
        },
      });
      await nc.flush();
      return track({ unsubscribe: async () => sub.unsubscribe() });
    },

    async request(worker, request) {
      ensureOpen('request');
      parseMessage(SubjectToken, worker);
      const req = parseMessage(CommandRequest, request);
      const timeout = req.deadline - Date.now();
      if (timeout <= 0) throw new CommandTimeoutError(worker, req.command);
      let reply: unknown;
      try {
        const msg = await nc.request(subjects.command(prefix, worker), JSON.stringify(req), { timeout });
        reply = msg.json();
      } catch (err) {
        if (err instanceof RequestError || err instanceof TimeoutError || err instanceof NoRespondersError) {
          throw new CommandTimeoutError(worker, req.command);
        }
        throw err;
      }
      return parseMessage(CommandReply, reply);
    },

    async serveCommands(worker, handler) {
      ensureOpen('serveCommands');
      parseMessage(SubjectToken, worker);
      const inFlight = new Set<Promise<unknown>>();
      const sub = nc.subscribe(subjects.command(prefix, worker), {
        queue: COMMAND_QUEUE,
        callback: (err, msg) => {
          if (err) return logger.warn({ err }, 'command subscription error');
          let raw: unknown;
          try {
            raw = msg.json();
          } catch {
            raw = null;
          }
          const p = answerCommand(raw, handler, logger)
            .then((reply) => {
              if (reply) msg.respond(JSON.stringify(reply));
            })
            .catch((e) => logger.warn({ err: e }, 'command reply not sent'))
            .finally(() => inFlight.delete(p));
          inFlight.add(p);
        },
      });
      await nc.flush();
      return track({
        unsubscribe: async () => {
          sub.unsubscribe();
          await Promise.allSettled([...inFlight]);
        },
      });
    },

    async health(): Promise<ComponentHealth> {
      if (nc.isClosed()) return { state: 'down', detail: 'NATS connection closed' };
      if (closing) return { state: 'down', detail: 'closing' };
      return connection.state === 'ok' ? { state: 'ok', detail: `NATS ${nc.getServer()}` } : connection;
    },

    close() {
      closePromise ??= (async () => {
        closing = true;
        await Promise.allSettled([...open].map((s) => s.unsubscribe()));
        open.clear();
        if (!nc.isClosed()) await nc.drain();
      })();
      return closePromise;
    },
  };
}
