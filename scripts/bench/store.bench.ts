import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteStore } from '@flightdeck/collector/store';
import type { MetricBatch } from '@flightdeck/schemas';
import { type Benchmark, type Figure, percentile, round } from './harness';

const WRITE_BATCHES = 1_000;
/** The write figure is the median of this many runs, each on a new file: one run is at the mercy of the machine. */
const WRITE_RUNS = 3;
const SERIES_PER_BATCH = 1_000;
const QUERY_SERIES = 50;
const QUERY_STEP_MS = 10_000;
const QUERY_WARMUP = 20;
const QUERY_RUNS = 100;

/** An agent batch: 1,000 series (100 metrics x 10 devices) sampled at one ts. */
function agentBatch(ts: number): MetricBatch {
  const samples: MetricBatch['samples'] = [];
  for (let i = 0; i < SERIES_PER_BATCH; i++) {
    samples.push({
      m: `bench.metric_${i % 100}`,
      l: { dev: `d${Math.floor(i / 100)}` },
      v: Math.random() * 100,
    });
  }
  return { v: 1, tenant: 'bench', host: 'host-1', source: 'agent', ts, samples };
}

/** Batches of 1,000 samples for the write figure, taken 10 s apart; built before the clock starts. */
async function writeFigure(dir: string): Promise<Figure> {
  const rates: number[] = [];
  for (let run = 0; run < WRITE_RUNS; run++) rates.push(await writeRate(join(dir, `write-${run}.db`)));
  rates.sort((a, b) => a - b);
  return { name: 'store.sqlite.write', value: Math.round(percentile(rates, 50)), unit: 'samples/s' };
}

/** Samples per second over WRITE_BATCHES batches into a new file (moves into samples included). */
async function writeRate(path: string): Promise<number> {
  const store = createSqliteStore({ path });
  const t0 = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 2 * 3_600_000;
  const batches = Array.from({ length: WRITE_BATCHES }, (_, i) => agentBatch(t0 + i * 10_000));
  // One warm-up batch creates the 1,000 series, as a running collector would already have them.
  await store.write([agentBatch(t0 - 10_000)]);
  const started = process.hrtime.bigint();
  for (const batch of batches) await store.write([batch]);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await store.close();
  return (WRITE_BATCHES * SERIES_PER_BATCH) / seconds;
}

/** 24 h x 50 series of 10 s data, then the chart query of a day with 300 points. */
async function queryFigures(dir: string): Promise<Figure[]> {
  const store = createSqliteStore({ path: join(dir, 'query.db') });
  const end = Math.floor(Date.now() / 300_000) * 300_000;
  const start = end - 86_400_000;
  const perBatch = SERIES_PER_BATCH / QUERY_SERIES;
  for (let t = start; t < end; t += perBatch * QUERY_STEP_MS) {
    const samples: MetricBatch['samples'] = [];
    for (let k = 0; k < perBatch; k++) {
      const ts = t + k * QUERY_STEP_MS;
      for (let i = 0; i < QUERY_SERIES; i++) {
        samples.push({
          m: `bench.q_${i % 5}`,
          l: { dev: `d${Math.floor(i / 5)}` },
          v: Math.sin(ts / 1e6 + i),
          t: ts,
        });
      }
    }
    await store.write([{ v: 1, tenant: 'bench', host: 'host-1', source: 'agent', ts: t, samples }]);
  }
  const query = {
    series: [
      {
        tenant: 'bench',
        host: 'host-1',
        metric: ['bench.q_0', 'bench.q_1', 'bench.q_2', 'bench.q_3', 'bench.q_4'],
      },
    ],
    start: start / 1000,
    end: end / 1000,
    maxPoints: 300,
  };
  const first = await store.query(query);
  if (first.y_axis.length !== QUERY_SERIES || first.x_values.length < 280 || first.x_values.length > 300) {
    throw new Error(`unexpected chart: ${first.y_axis.length} series x ${first.x_values.length} points`);
  }
  for (let i = 0; i < QUERY_WARMUP; i++) await store.query(query);
  const times: number[] = [];
  for (let i = 0; i < QUERY_RUNS; i++) {
    const started = process.hrtime.bigint();
    await store.query(query);
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  await store.close();
  times.sort((a, b) => a - b);
  return [
    { name: 'store.sqlite.query_24h_50s.p50', value: round(percentile(times, 50)), unit: 'ms' },
    { name: 'store.sqlite.query_24h_50s.p95', value: round(percentile(times, 95)), unit: 'ms' },
  ];
}

/** Metric store figures (DESIGN section 7): SQLite write rate and the 24 h chart query. */
export const benchmark: Benchmark = {
  figures: ['store.sqlite.write', 'store.sqlite.query_24h_50s.p50', 'store.sqlite.query_24h_50s.p95'],
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'fd-store-bench-'));
    try {
      return [await writeFigure(dir), ...(await queryFigures(dir))];
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
