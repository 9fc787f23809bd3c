import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CollectorComponentHealth, InvalidBatchError, type MetricBatch } from '@flightdeck/schemas';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createInProcessBus, type InProcessBus } from '../bus/in-process';
import { DEAD_LETTER_PAYLOAD_MAX, type MetricStore } from '../store/contract';
import { createSqliteStore } from '../store/sqlite';
import { createIngest, type Ingest } from './consumer';

const logger = pino({ level: 'silent' });
const busLogger = { warn() {}, error() {} };
const T0 = Date.UTC(2026, 0, 1);
const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

function batch(i: number, host = 'h1'): MetricBatch {
  return {
    v: 1,
    tenant: 't1',
    host,
    source: 'agent',
    ts: T0 + i * 10_000,
    samples: [
      { m: 'cpu.user', v: i },
      { m: 'disk.used_pct', l: { mount: '/' }, v: 50 },
    ],
  };
}

async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000) {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A real SQLite store that records each write call and refuses batches whose host is `bad`. */
function recordingStore() {
  const dir = mkdtempSync(join(tmpdir(), 'fd-ingest-test-'));
  const real = createSqliteStore({ path: join(dir, 'metrics.db') });
  const calls: number[] = [];
  const store: MetricStore = {
    ...real,
    kind: 'sqlite',
    async write(batches) {
      calls.push(batches.length);
      const bad = batches.findIndex((b) => b.host === 'bad');
      if (bad >= 0) throw new InvalidBatchError(`batches[${bad}].host`, 'refused by the store');
      return real.write(batches);
    },
  };
  cleanup.push(async () => {
    await real.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { store, real, calls };
}

function start(bus: InProcessBus, store: MetricStore, extra: { groupMaxWaitMs?: number } = {}): Ingest {
  const ingest = createIngest({ bus, store, logger, ...extra });
  cleanup.push(() => ingest.stop());
  return ingest;
}

describe('ingest consumer', () => {
  it('writes batches that arrive together in one store call and acknowledges each', async () => {
    const bus = createInProcessBus({ logger: busLogger });
    cleanup.push(() => bus.close());
    const { store, real, calls } = recordingStore();
    const ingest = start(bus, store);
    await ingest.start();
    for (let i = 0; i < 200; i++) await bus.publishMetrics(batch(i));
    await waitFor(async () => (await ingest.health()).batches_written === 200, '200 batches written');
    expect(calls.length).toBeLessThan(20);
    expect(Math.max(...calls)).toBeGreaterThan(1);
    const health = await ingest.health();
    expect(health).toMatchObject({ state: 'ok', samples_written: 400, batches_rejected: 0, dead_letters: 0 });
    const latest = await real.latest({ tenant: 't1', host: 'h1', metric: 'cpu.user' });
    expect(latest[0]).toMatchObject({ value: 199, ts: T0 + 1_990_000 });
  });

  it('keeps the other batches of a group when the store refuses one, and dead-letters that one', async () => {
    const bus = createInProcessBus({ logger: busLogger });
    cleanup.push(() => bus.close());
    const { store, real, calls } = recordingStore();
    const ingest = start(bus, store, { groupMaxWaitMs: 50 });
    await ingest.start();
    for (let i = 0; i < 10; i++) await bus.publishMetrics(batch(i, i === 4 ? 'bad' : 'h1'));
    await waitFor(async () => (await ingest.health()).dead_letters === 1, 'the dead letter');
    const health = await ingest.health();
    expect(health).toMatchObject({
      batches_written: 9,
      batches_rejected: 1,
      dead_letters: 1,
      write_errors: 0,
    });
    expect(calls[0]).toBe(10); // one group first, then one by one
    const letters = await real.deadLetters();
    expect(letters).toHaveLength(1);
    expect(letters[0]!.reason).toBe('invalid metric batch: batches[0].host: refused by the store');
    expect(JSON.parse(letters[0]!.payload)).toEqual(batch(4, 'bad'));
    expect(await real.latest({ tenant: 't1', host: 'h1', metric: 'cpu.user' })).toHaveLength(1);
  });

  it('keeps running after a malformed message, which becomes a dead letter shown in the health', async () => {
    const bus = createInProcessBus({ logger: busLogger });
    cleanup.push(() => bus.close());
    const { store, real } = recordingStore();
    const ingest = start(bus, store);
    await ingest.start();
    bus.injectRawMetrics({ ...batch(1), samples: [{ m: 'cpu.user', v: 'NaN' }] });
    bus.injectRawMetrics('x'.repeat(DEAD_LETTER_PAYLOAD_MAX + 10_000));
    await bus.publishMetrics(batch(2));
    await waitFor(async () => {
      const h = await ingest.health();
      return h.dead_letters === 2 && h.batches_written === 1;
    }, 'two dead letters and the good batch');
    const letters = await real.deadLetters({ limit: 10 });
    expect(letters.map((l) => l.reason)).toEqual([
      expect.stringContaining('expected'),
      'invalid metric batch: samples[0].v: expected a finite number',
    ]);
    expect(Buffer.byteLength(letters[0]!.payload)).toBe(DEAD_LETTER_PAYLOAD_MAX);
    expect(letters[0]!.truncated).toBe(true);
    expect(letters[1]!.truncated).toBe(false);
    const health = await ingest.health();
    expect(health.state).toBe('ok');
    // What /api/health shows of the collector keeps the counter.
    expect(CollectorComponentHealth.parse(health).dead_letters).toBe(2);
  });

  it('sends the group back to the bus when the store fails, and writes it on redelivery', async () => {
    const bus = createInProcessBus({ logger: busLogger, retryBaseMs: 20, retryMaxMs: 50 });
    cleanup.push(() => bus.close());
    const { store: inner, real } = recordingStore();
    let failures = 2;
    const store: MetricStore = {
      ...inner,
      async write(batches) {
        if (failures-- > 0) throw new Error('disk I/O error');
        return inner.write(batches);
      },
    };
    const ingest = start(bus, store);
    await ingest.start();
    for (let i = 0; i < 5; i++) await bus.publishMetrics(batch(i));
    await waitFor(async () => (await ingest.health()).batches_written === 5, 'all batches written');
    const health = await ingest.health();
    expect(health.write_errors).toBeGreaterThan(0);
    expect(health.state).toBe('degraded');
    expect(await real.latest({ tenant: 't1', host: 'h1', metric: 'cpu.user' })).toEqual([
      expect.objectContaining({ value: 4 }),
    ]);
  });
});
