import { type Bus, createInProcessBus } from '@flightdeck/collector/bus';
import type { Heartbeat, MetricBatch } from '@flightdeck/schemas';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createBusTransport } from './bus';
import { TransportError } from './contract';

const batch: MetricBatch = {
  v: 1,
  tenant: 'acme',
  host: 'web-01',
  source: 'agent',
  ts: 1_767_225_600_000,
  samples: [{ m: 'cpu.total', v: 12.5 }],
};
const heartbeat: Heartbeat = {
  v: 1,
  tenant: 'acme',
  host: 'web-01',
  agent_version: '0.1.0',
  interval_s: 10,
  spool_depth: 0,
  spool_dropped: 0,
  ts: 1_767_225_600_000,
};

/** A bus whose publishes are driven by the test; only the methods the transport uses. */
function scriptedBus(publish: () => Promise<void>) {
  const closed = { value: false };
  const bus = {
    kind: 'nats',
    publishMetrics: vi.fn(publish),
    publishHeartbeat: vi.fn(publish),
    close: vi.fn(async () => {
      closed.value = true;
    }),
  } as unknown as Bus;
  return { bus, closed };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('createBusTransport', () => {
  it('delivers batches and heartbeats through the in-process bus, and leaves the shared bus open on close', async () => {
    const bus = createInProcessBus({ subjectPrefix: 'agent-test' });
    try {
      const received: MetricBatch[] = [];
      const beats: Heartbeat[] = [];
      await bus.consumeMetrics(async (b) => {
        received.push(b);
      });
      await bus.subscribeHeartbeats((hb) => beats.push(hb));
      const transport = createBusTransport(bus);
      await transport.publishMetrics(batch);
      await transport.publishHeartbeat(heartbeat);
      await vi.waitFor(() => {
        expect(received).toEqual([batch]);
        expect(beats).toEqual([heartbeat]);
      });
      expect(transport.backlog()).toEqual({ depth: 0, dropped: 0 });

      await transport.close();
      await expect(transport.publishMetrics(batch)).rejects.toThrow(/transport closed/);
      // The bus belongs to the embedded product; it still works for the others.
      await expect(bus.publishMetrics(batch)).resolves.toBeUndefined();
    } finally {
      await bus.close();
    }
  });

  it('rejects with a TransportError that keeps the bus error as its cause', async () => {
    const cause = new Error('connection refused');
    const { bus } = scriptedBus(() => Promise.reject(cause));
    const err = await createBusTransport(bus)
      .publishMetrics(batch)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect((err as TransportError).message).toContain('connection refused');
    expect((err as TransportError).cause).toBe(cause);
  });

  it('gives up on a publish the bus never acknowledges', async () => {
    vi.useFakeTimers();
    const { bus } = scriptedBus(() => new Promise<void>(() => {}));
    const publishing = createBusTransport(bus, { publishTimeoutMs: 5_000 })
      .publishHeartbeat(heartbeat)
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(String(await publishing)).toMatch(/not acknowledged by the nats bus within 5000 ms/);
  });

  it('close() waits for publishes in flight and closes the bus only when told to', async () => {
    vi.useFakeTimers();
    const { bus, closed } = scriptedBus(() => new Promise<void>((r) => setTimeout(r, 1_000)));
    const transport = createBusTransport(bus, { closeBus: true });
    let published = false;
    void transport.publishMetrics(batch).then(() => {
      published = true;
    });
    const closing = transport.close();
    await vi.advanceTimersByTimeAsync(999);
    expect(closed.value).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await closing;
    expect(published).toBe(true);
    expect(closed.value).toBe(true);
  });
});
