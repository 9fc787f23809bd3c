import type { Bus, Subscription } from '@flightdeck/collector/bus';
import { type AlertEvent, SSE_HEARTBEAT_MS } from '@flightdeck/schemas';
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { Logger } from 'pino';
import type { AppEnv } from '../../env';

/** Events a slow client may have waiting before its stream is closed (it reconnects and refetches). */
const MAX_BACKLOG = 1_000;

type Listener = (event: AlertEvent) => void;

/**
 * Fans the bus's `fd.events.<tenant>` out to the browsers of this process: one bus subscription
 * per tenant with at least one open stream, dropped when its last stream closes.
 */
export interface EventHub {
  add(tenant: string, listener: Listener): Promise<() => void>;
  /** Open streams, for tests and health. */
  size(): number;
}

export function createEventHub(bus: Pick<Bus, 'subscribeEvents'>, logger: Logger): EventHub {
  const tenants = new Map<string, { listeners: Set<Listener>; subscription: Promise<Subscription> }>();
  let open = 0;
  return {
    async add(tenant, listener) {
      let entry = tenants.get(tenant);
      if (!entry) {
        const listeners = new Set<Listener>();
        const subscription = bus.subscribeEvents(tenant, (event) => {
          for (const l of listeners) l(event);
        });
        entry = { listeners, subscription };
        tenants.set(tenant, entry);
        subscription.catch(() => tenants.delete(tenant));
      }
      await entry.subscription;
      entry.listeners.add(listener);
      open++;
      const current = entry;
      let removed = false;
      return () => {
        if (removed) return;
        removed = true;
        open--;
        current.listeners.delete(listener);
        if (current.listeners.size === 0 && tenants.get(tenant) === current) {
          tenants.delete(tenant);
          current.subscription
            .then((s) => s.unsubscribe())
            .catch((err) => logger.warn({ err, tenant }, 'event subscription not closed'));
        }
      };
    },
    size: () => open,
  };
}

/**
 * `GET /api/events`: Server-Sent Events of the session's customer. An `alert` event carries an
 * AlertEvent as JSON; `ping` comes at once and then every SSE_HEARTBEAT_MS. The bus subscription
 * and the timer end when the client goes away.
 */
export function eventStream(
  c: Context<AppEnv>,
  hub: EventHub,
  logger: Logger,
  heartbeatMs = SSE_HEARTBEAT_MS,
) {
  const tenant = String(c.get('session').customerId);
  return streamSSE(c, async (stream) => {
    let backlog = 0;
    let writing: Promise<unknown> = Promise.resolve();
    const write = (event: string, data: string, id?: string) => {
      if (stream.aborted || stream.closed) return;
      if (backlog >= MAX_BACKLOG) {
        logger.warn({ tenant }, 'event stream too slow; closing it');
        stream.abort();
        return;
      }
      backlog++;
      writing = writing
        .then(() => stream.writeSSE({ event, data, ...(id ? { id } : {}) }))
        .finally(() => {
          backlog--;
        });
    };
    const ping = () => write('ping', JSON.stringify({ ts: Date.now() }));
    let done!: () => void;
    const closed = new Promise<void>((resolve) => {
      done = resolve;
    });
    const remove = await hub.add(tenant, (event) => write('alert', JSON.stringify(event), String(event.ts)));
    const timer = setInterval(ping, heartbeatMs);
    const end = () => {
      clearInterval(timer);
      remove();
      done();
    };
    stream.onAbort(end);
    // The client may have left while the subscription was being made.
    if (stream.aborted) end();
    ping();
    await closed;
  });
}
