import { createInProcessBus } from '@flightdeck/collector/bus';
import { waitFor } from '@flightdeck/collector/testing';
import type { AlertEvent } from '@flightdeck/schemas';
import { Hono } from 'hono';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import type { AppEnv } from '../../env';
import { createEventHub, eventStream } from './events';

const logger = pino({ level: 'silent' });
const bus = createInProcessBus({ logger });
const hub = createEventHub(bus, logger);

/** An app whose session is customer `customer` of the query, streaming with a 50 ms heartbeat. */
const app = new Hono<AppEnv>().get('/events', (c) => {
  c.set('session', {
    sessionId: 1,
    userId: 1,
    customerId: Number(c.req.query('customer')),
    isAdmin: false,
    roleCode: 5,
  } as AppEnv['Variables']['session']);
  return eventStream(c, hub, logger, 50);
});

function alertEvent(tenant: string, id: number): AlertEvent {
  return {
    v: 1,
    kind: 'alert',
    tenant,
    event: 'new',
    alert: { id, server_id: 1, type_id: 10, status: 'R', text: `alert ${id}`, date_enter: 1_800_000_000 },
    ts: 1_800_000_000_000 + id,
  };
}

async function connect(customer: number) {
  const res = await app.request(`/events?customer=${customer}`);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const reading = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      text += decoder.decode(value, { stream: true });
    }
  })().catch(() => {});
  return {
    res,
    text: () => text,
    async close() {
      await reader.cancel();
      await reading;
    },
  };
}

afterAll(() => bus.close());

describe('GET /api/events', () => {
  it("streams the customer's alert events, and only them, with a heartbeat", async () => {
    const seven = await connect(7);
    expect(seven.res.headers.get('content-type')).toBe('text/event-stream');
    await waitFor(() => hub.size() === 1, 'the stream to subscribe');
    await bus.publishEvent(alertEvent('8', 2));
    await bus.publishEvent(alertEvent('7', 1));
    await waitFor(() => seven.text().includes('event: alert'), 'the alert event');
    const alerts = seven
      .text()
      .split('\n\n')
      .filter((block) => block.startsWith('event: alert'))
      .map((block) => JSON.parse(block.split('\n')[1]!.slice('data: '.length)) as AlertEvent);
    expect(alerts.map((a) => [a.tenant, a.alert.id])).toEqual([['7', 1]]);
    await waitFor(() => seven.text().split('event: ping').length > 3, 'three heartbeats', 2_000);
    await seven.close();
  });

  it('drops the subscription and the heartbeat when the client goes away', async () => {
    const first = await connect(9);
    const second = await connect(9);
    await waitFor(() => hub.size() === 2, 'both streams');
    await first.close();
    await waitFor(() => hub.size() === 1, 'the first stream to end');
    await second.close();
    await waitFor(() => hub.size() === 0, 'the second stream to end');
    const pings = second.text().split('event: ping').length;
    await new Promise((r) => setTimeout(r, 150));
    expect(second.text().split('event: ping').length).toBe(pings);
    // The tenant can subscribe again afterwards.
    const again = await connect(9);
    await waitFor(() => hub.size() === 1, 'the new stream');
    await bus.publishEvent(alertEvent('9', 3));
    await waitFor(() => again.text().includes('"id":3'), 'the event on the new stream');
    await again.close();
  });
});
