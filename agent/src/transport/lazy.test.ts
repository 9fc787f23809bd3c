import type { MetricBatch } from '@flightdeck/schemas';
import { describe, expect, it } from 'vitest';
import { type Transport, TransportError } from './contract';
import { createLazyTransport } from './lazy';

const batch: MetricBatch = {
  v: 1,
  tenant: 'acme',
  host: 'web-01',
  source: 'agent',
  ts: 1_767_225_600_000,
  samples: [{ m: 'cpu.user', v: 1 }],
};

describe('lazy transport', () => {
  it('fails while the transport cannot be opened, retries after the wait, then uses it', async () => {
    let clock = 0;
    let attempts = 0;
    const sent: MetricBatch[] = [];
    let closed = false;
    const inner: Transport = {
      publishMetrics: async (b) => {
        sent.push(b);
      },
      publishHeartbeat: async () => {},
      backlog: () => ({ depth: 0, dropped: 0 }),
      close: async () => {
        closed = true;
      },
    };
    const t = createLazyTransport(
      async () => {
        attempts++;
        if (attempts === 1) throw new Error('connection refused');
        return inner;
      },
      { what: 'NATS', retryMs: 1_000, now: () => clock },
    );
    await expect(t.publishMetrics(batch)).rejects.toThrow(TransportError);
    await expect(t.publishMetrics(batch)).rejects.toThrow(/NATS not reachable: connection refused/);
    expect(attempts).toBe(1);
    clock = 1_000;
    await t.publishMetrics(batch);
    await t.publishMetrics(batch);
    expect(attempts).toBe(2);
    expect(sent).toHaveLength(2);
    await t.close();
    expect(closed).toBe(true);
  });
});
