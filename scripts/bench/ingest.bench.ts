import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createIngest } from '@flightdeck/collector';
import { createInProcessBus } from '@flightdeck/collector/bus';
import { createSqliteStore } from '@flightdeck/collector/store';
import type { MetricBatch } from '@flightdeck/schemas';
import pino from 'pino';
import { type Benchmark, percentile } from './harness';

/** Samples per batch, as an agent sends: 50 metrics x 10 devices, one sample of each series. */
const SAMPLES_PER_BATCH = 500;
const HOSTS = 20;
const BATCHES = 2_000;
/** The figure is the median of this many runs, each on a new file. */
const RUNS = 3;

function agentBatch(host: number, ts: number): MetricBatch {
  const samples: MetricBatch['samples'] = [];
  for (let i = 0; i < SAMPLES_PER_BATCH; i++) {
    samples.push({
      m: `bench.metric_${i % 50}`,
      l: { dev: `d${Math.floor(i / 50)}` },
      v: Math.random() * 100,
    });
  }
  return { v: 1, tenant: 'bench', host: `host-${host}`, source: 'agent', ts, samples };
}

/**
 * Samples per second from the in-process bus into SQLite through the real consumer (grouping,
 * validation at publish and at write, the copy the bus makes, acks): BATCHES batches from HOSTS
 * agents, 10 s apart per host. The clock runs from the first publish to the last batch written.
 */
async function ingestRate(path: string): Promise<number> {
  const store = createSqliteStore({ path });
  const bus = createInProcessBus({ logger: { warn() {}, error() {} } });
  const ingest = createIngest({ bus, store, logger: pino({ level: 'silent' }) });
  const t0 = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 2 * 3_600_000;
  const batches = Array.from({ length: BATCHES }, (_, i) =>
    agentBatch(i % HOSTS, t0 + Math.floor(i / HOSTS) * 10_000),
  );
  await ingest.start();
  // Warm-up: the series exist already, as in a running collector.
  for (let h = 0; h < HOSTS; h++) await bus.publishMetrics(agentBatch(h, t0 - 10_000));
  while ((await ingest.health()).batches_written < HOSTS) await new Promise((r) => setImmediate(r));

  const started = process.hrtime.bigint();
  for (const b of batches) await bus.publishMetrics(b);
  let health = await ingest.health();
  while (health.batches_written < HOSTS + BATCHES) {
    await new Promise((r) => setImmediate(r));
    health = await ingest.health();
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (health.samples_written !== (HOSTS + BATCHES) * SAMPLES_PER_BATCH || health.batches_rejected > 0) {
    throw new Error(`unexpected ingest counters: ${JSON.stringify(health)}`);
  }
  await ingest.stop();
  await bus.close();
  await store.close();
  return (BATCHES * SAMPLES_PER_BATCH) / seconds;
}

/** Collector ingest figure (DESIGN section 7): target at least 500,000 samples/s on one core. */
export const benchmark: Benchmark = {
  figures: ['collector.ingest'],
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'fd-ingest-bench-'));
    try {
      const rates: number[] = [];
      for (let run = 0; run < RUNS; run++) rates.push(await ingestRate(join(dir, `ingest-${run}.db`)));
      rates.sort((a, b) => a - b);
      return [{ name: 'collector.ingest', value: Math.round(percentile(rates, 50)), unit: 'samples/s' }];
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
