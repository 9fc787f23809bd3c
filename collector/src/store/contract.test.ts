import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidBatchError, type MetricBatch } from '@flightdeck/schemas';
import { GenericContainer, type StartedTestContainer, Wait } from 'testcontainers';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { noDockerEngine } from '../testing/docker';
import type { MetricStore } from './contract';
import { createQuestdbStore } from './questdb';
import { createSqliteStore } from './sqlite';

/** A fresh, empty store for one test, and how to dispose of it. */
type StoreFactory = () => Promise<{ store: MetricStore; dispose: () => Promise<void> }>;

const MIN = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
/** A recent, hour-aligned start, so data sits well inside any retention and in closed buckets. */
const base = Math.floor(Date.now() / HOUR) * HOUR - 3 * HOUR;
const s = (ms: number) => ms / 1000;

function batch(ts: number, samples: MetricBatch['samples'], extra: Partial<MetricBatch> = {}): MetricBatch {
  return { v: 1, tenant: 'acme', host: 'db1', source: 'agent', ts, samples, ...extra };
}

/** `minutes` of 10-s samples of cpu.user from `from`: value = minute index, so each minute averages to it. */
function cpuMinutes(from: number, minutes: number, extra: Partial<MetricBatch> = {}): MetricBatch[] {
  const out: MetricBatch[] = [];
  for (let i = 0; i < minutes * 6; i++)
    out.push(batch(from + i * 10_000, [{ m: 'cpu.user', v: Math.floor(i / 6) }], extra));
  return out;
}

/** The contract every metric store passes (DESIGN section 4), run against each implementation. */
function metricStoreContract(name: string, factory: StoreFactory) {
  describe(`${name} metric store contract`, () => {
    let store: MetricStore;
    let dispose: () => Promise<void>;
    beforeEach(async () => {
      ({ store, dispose } = await factory());
    });
    afterEach(async () => {
      await dispose();
    });

    it('answers a written series in the chart contract', async () => {
      const written = await store.write(cpuMinutes(base, 30));
      expect(written).toEqual({ batches: 180, samples: 180 });
      const chart = await store.query({
        series: [{ tenant: 'acme', host: 'db1', metric: 'cpu.user' }],
        start: s(base),
        end: s(base + 30 * MIN),
        step: 60,
      });
      expect(chart.configs).toMatchObject({ step: 60, timer_task: 60 });
      expect(chart.x_values).toEqual(Array.from({ length: 30 }, (_, i) => s(base) + i * 60));
      expect(chart.y_axis).toEqual(['cpu.user']);
      expect(chart.y_values['cpu.user']).toEqual(Array.from({ length: 30 }, (_, i) => i));
    });

    it('keeps series apart by labels, filters by labels and names fields by host when several hosts', async () => {
      await store.write([
        batch(base, [
          { m: 'disk.used_pct', l: { mount: '/' }, v: 40 },
          { m: 'disk.used_pct', l: { mount: '/var' }, v: 70 },
          { m: 'cpu.user', v: 5 },
        ]),
        batch(base, [{ m: 'cpu.user', v: 9 }], { host: 'db2' }),
      ]);
      const range = { start: s(base), end: s(base + 5 * MIN), step: 300 };
      const both = await store.query({
        series: [{ tenant: 'acme', host: 'db1', metric: ['disk.used_pct', 'cpu.user'] }],
        ...range,
      });
      expect(both.y_axis).toEqual(['disk.used_pct{mount=/}', 'disk.used_pct{mount=/var}', 'cpu.user']);
      expect(both.y_values).toEqual({
        'disk.used_pct{mount=/}': [40],
        'disk.used_pct{mount=/var}': [70],
        'cpu.user': [5],
      });

      const one = await store.query({
        series: [{ tenant: 'acme', host: 'db1', metric: 'disk.used_pct', labels: { mount: '/var' } }],
        ...range,
      });
      expect(one.y_axis).toEqual(['disk.used_pct{mount=/var}']);

      const hosts = await store.query({
        series: [
          { tenant: 'acme', host: 'db1', metric: 'cpu.user' },
          { tenant: 'acme', host: 'db2', metric: 'cpu.user' },
        ],
        ...range,
      });
      expect(hosts.y_values).toEqual({ 'db1:cpu.user': [5], 'db2:cpu.user': [9] });

      const otherTenant = await store.query({
        series: [{ tenant: 'other', host: 'db1', metric: 'cpu.user' }],
        ...range,
      });
      expect(otherTenant.y_axis).toEqual([]);
    });

    it('replaces the value when the same series and ts is written again', async () => {
      await store.write([
        batch(base, [{ m: 'cpu.user', v: 1 }]),
        batch(base + 10_000, [{ m: 'cpu.user', v: 2 }]),
      ]);
      await store.write([batch(base, [{ m: 'cpu.user', v: 7 }])]);
      const q = {
        series: [{ tenant: 'acme', host: 'db1', metric: 'cpu.user' }],
        start: s(base),
        end: s(base + MIN),
        step: 60,
      };
      expect((await store.query({ ...q, agg: 'count' })).y_values['cpu.user']).toEqual([2]);
      expect((await store.query({ ...q, agg: 'sum' })).y_values['cpu.user']).toEqual([9]);
    });

    it('rejects a malformed batch naming the field, writes nothing of that call, and keeps working', async () => {
      await store.write([batch(base, [{ m: 'cpu.user', v: 1 }])]);
      const bad = [
        batch(base + 10_000, [{ m: 'cpu.user', v: 2 }]),
        batch(base + 20_000, [
          { m: 'cpu.user', v: 3 },
          { m: 'cpu.system', v: 'high' as unknown as number },
        ]),
      ];
      const err = await store.write(bad).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(InvalidBatchError);
      expect((err as InvalidBatchError).path).toBe('batches[1].samples[1].v');
      await expect(
        store.write([{ ...batch(base, [{ m: 'cpu.user', v: 1 }]), tenant: 'a.b' }]),
      ).rejects.toMatchObject({
        path: 'batches[0].tenant',
      });

      const q = {
        series: [{ tenant: 'acme', host: 'db1', metric: 'cpu.user' }],
        start: s(base),
        end: s(base + MIN),
        step: 30,
      };
      expect((await store.query(q)).y_values['cpu.user']).toEqual([1, null]);
      await store.write([batch(base + 30_000, [{ m: 'cpu.user', v: 4 }])]);
      expect((await store.query(q)).y_values['cpu.user']).toEqual([1, 4]);
      expect(await store.health()).toEqual({ state: 'ok' });
    });

    it('answers the newest sample of every matching series', async () => {
      await store.write([
        batch(base, [
          { m: 'disk.used_pct', l: { mount: '/' }, v: 40 },
          { m: 'disk.used_pct', l: { mount: '/var' }, v: 70 },
        ]),
        batch(base + MIN, [{ m: 'disk.used_pct', l: { mount: '/' }, v: 41 }]),
        batch(base + 2 * MIN, [{ m: 'mysql.threads_running', v: 12 }], { service: 'mysql-3306' }),
      ]);
      const disks = await store.latest({ tenant: 'acme', host: 'db1', metric: 'disk.used_pct' });
      expect(disks.sort((a, b) => a.value - b.value)).toEqual([
        { host: 'db1', metric: 'disk.used_pct', labels: { mount: '/' }, ts: base + MIN, value: 41 },
        { host: 'db1', metric: 'disk.used_pct', labels: { mount: '/var' }, ts: base, value: 70 },
      ]);
      expect(
        await store.latest({
          tenant: 'acme',
          host: 'db1',
          metric: 'disk.used_pct',
          labels: { mount: '/var' },
        }),
      ).toHaveLength(1);
      expect(
        await store.latest({
          tenant: 'acme',
          host: 'db1',
          service: 'mysql-3306',
          metric: ['mysql.threads_running'],
        }),
      ).toEqual([
        {
          host: 'db1',
          service: 'mysql-3306',
          metric: 'mysql.threads_running',
          labels: {},
          ts: base + 2 * MIN,
          value: 12,
        },
      ]);
      expect(await store.latest({ tenant: 'acme', host: 'nope', metric: 'cpu.user' })).toEqual([]);
    });

    it('deletes samples older than the retention and keeps the rest', async () => {
      const old = Math.floor((Date.now() - 10 * DAY) / HOUR) * HOUR;
      await store.write(cpuMinutes(old, 10));
      await store.write(cpuMinutes(base, 10));
      expect(await store.retention(7)).toEqual({ deleted: 60 });
      const sel = [{ tenant: 'acme', host: 'db1', metric: 'cpu.user' }];
      const gone = await store.query({ series: sel, start: s(old), end: s(old + 10 * MIN), step: 60 });
      expect(gone.y_values['cpu.user']).toEqual(new Array(10).fill(null));
      const kept = await store.query({ series: sel, start: s(base), end: s(base + 10 * MIN), step: 60 });
      expect(kept.y_values['cpu.user']).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    });

    it('answers a full grid of nulls for a range without data, and no fields for unknown series', async () => {
      await store.write(cpuMinutes(base, 5));
      const empty = await store.query({
        series: [{ tenant: 'acme', host: 'db1', metric: 'cpu.user' }],
        start: s(base + HOUR),
        end: s(base + HOUR + 10 * MIN),
        step: 120,
      });
      expect(empty.x_values).toHaveLength(5);
      expect(empty.y_values['cpu.user']).toEqual([null, null, null, null, null]);
      const unknown = await store.query({
        series: [{ tenant: 'acme', host: 'db9', metric: 'cpu.user' }],
        start: s(base),
        end: s(base + 10 * MIN),
        step: 60,
      });
      expect(unknown.x_values).toHaveLength(10);
      expect(unknown.y_axis).toEqual([]);
      expect(unknown.y_values).toEqual({});
    });

    it('aggregates avg, min, max, sum and count per bucket', async () => {
      const values = [3, 9, 1, 7, 5, 5];
      await store.write(values.map((v, i) => batch(base + i * 10_000, [{ m: 'cpu.user', v }])));
      const q = {
        series: [{ tenant: 'acme', host: 'db1', metric: 'cpu.user' }],
        start: s(base),
        end: s(base + 2 * MIN),
        step: 60,
      };
      const value = async (agg: 'avg' | 'min' | 'max' | 'sum' | 'count') =>
        (await store.query({ ...q, agg })).y_values['cpu.user'];
      expect(await value('avg')).toEqual([5, null]);
      expect(await value('min')).toEqual([1, null]);
      expect(await value('max')).toEqual([9, null]);
      expect(await value('sum')).toEqual([30, null]);
      expect(await value('count')).toEqual([6, null]);
      // Without a step the bucket comes from maxPoints: 2 min over 4 points is 30 s.
      const derived = await store.query({ series: q.series, start: q.start, end: q.end, maxPoints: 4 });
      expect(derived.configs.step).toBe(30);
      expect(derived.y_values['cpu.user']).toEqual([13 / 3, 17 / 3, null, null]);
    });
  });
}

metricStoreContract('SQLite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fd-store-contract-'));
  const store = createSqliteStore({ path: join(dir, 'metrics.db') });
  return {
    store,
    dispose: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

// QuestDB runs where a Docker engine answers; elsewhere the suite is reported as skipped.
const noDocker = await noDockerEngine('QuestDB contract suite');

(noDocker ? describe.skip : describe)('QuestDB through testcontainers', () => {
  let container: StartedTestContainer;
  let tables = 0;
  beforeAll(async () => {
    container = await new GenericContainer('questdb/questdb:9.3.2')
      .withExposedPorts(9000, 8812)
      .withWaitStrategy(Wait.forHttp('/', 9000).forStatusCode(200))
      .withStartupTimeout(120_000)
      .start();
  }, 180_000);
  afterAll(async () => {
    await container?.stop();
  });

  metricStoreContract('QuestDB', async () => {
    const store = await createQuestdbStore({
      httpUrl: `http://${container.getHost()}:${container.getMappedPort(9000)}`,
      pg: { host: container.getHost(), port: container.getMappedPort(8812) },
      table: `metrics_${++tables}`,
      waitVisible: true,
    });
    return { store, dispose: () => store.close() };
  });
});
