import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MetricBatch } from '@flightdeck/schemas';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { Bus } from '../bus/contract';
import { createNatsBus, type NatsBusOptions } from '../bus/nats';
import type { MetricStore } from '../store/contract';
import { createSqliteStore } from '../store/sqlite';
import { startOwnNatsServer } from '../testing/nats-server';
import { createIngest } from './consumer';

const logger = pino({ level: 'silent' });
const busLogger = { warn() {}, error() {} };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const T0 = Date.UTC(2026, 0, 1);

function batch(i: number): MetricBatch {
  return {
    v: 1,
    tenant: 't1',
    host: 'h1',
    source: 'agent',
    ts: T0 + i * 1000,
    samples: [{ m: 'cpu.user', v: i }],
  };
}

/**
 * The fault "collector stopped while agents publish": JetStream keeps what arrives while no
 * collector consumes, and the durable consumer hands it to the next collector. Own nats-server.
 */
describe('ingest over NATS JetStream (own nats-server)', () => {
  it('loses nothing when the collector is stopped while agents publish', async () => {
    const nats = await startOwnNatsServer();
    const dir = mkdtempSync(join(tmpdir(), 'fd-ingest-nats-'));
    const store = createSqliteStore({ path: join(dir, 'metrics.db') });
    const written = new Set<number>();
    const recording: MetricStore = {
      ...store,
      async write(batches) {
        const r = await store.write(batches);
        for (const b of batches) written.add(b.samples[0]!.v);
        return r;
      },
    };
    const common: NatsBusOptions = {
      servers: nats.url,
      stream: 'FD_METRICS_INGEST',
      subjectPrefix: 'fding',
      logger: busLogger,
      retryBaseMs: 50,
      retryMaxMs: 200,
    };
    const buses: Bus[] = [];
    try {
      const agentBus = await createNatsBus({ ...common, name: 'agent' });
      buses.push(agentBus);
      let published = 0;
      const publishFor = async (ms: number) => {
        const until = Date.now() + ms;
        while (Date.now() < until) {
          await agentBus.publishMetrics(batch(published++));
          await sleep(10);
        }
      };

      const firstBus = await createNatsBus({ ...common, name: 'collector-1' });
      buses.push(firstBus);
      const first = createIngest({ bus: firstBus, store: recording, logger });
      await first.start();
      await publishFor(500);
      await first.stop();
      await firstBus.close();
      const beforeOutage = written.size;
      expect(beforeOutage).toBeGreaterThan(0);

      await publishFor(1_000); // nobody consumes
      expect(written.size).toBe(beforeOutage);

      const secondBus = await createNatsBus({ ...common, name: 'collector-2' });
      buses.push(secondBus);
      const second = createIngest({ bus: secondBus, store: recording, logger });
      await second.start();
      await publishFor(300);
      const until = Date.now() + 15_000;
      while (written.size < published && Date.now() < until) await sleep(20);
      await second.stop();
      expect(written.size).toBe(published);
      expect([...written].sort((a, b) => a - b)).toEqual(Array.from({ length: published }, (_, i) => i));
      const latest = await store.latest({ tenant: 't1', host: 'h1', metric: 'cpu.user' });
      expect(latest[0]?.value).toBe(published - 1);
    } finally {
      await Promise.allSettled(buses.map((b) => b.close()));
      await store.close();
      await nats.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
