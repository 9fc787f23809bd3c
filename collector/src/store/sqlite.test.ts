import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MetricBatch } from '@flightdeck/schemas';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MetricStore, SeriesQuery } from './contract';
import { createSqliteStore } from './sqlite';
import { decodeSegment } from './sqlite-codec';

const MIN = 60_000;
const FIVE_MIN = 300_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const end = Math.floor(Date.now() / HOUR) * HOUR;
const sel = [{ tenant: 'acme', host: 'db1', metric: 'cpu.user' }];

/** 10-s samples of cpu.user over [from, to), 1,000 per batch, value from `value(ts)`. */
function series10s(
  from: number,
  to: number,
  value: (ts: number) => number = (ts) => (ts / 10_000) % 97,
): MetricBatch[] {
  const out: MetricBatch[] = [];
  for (let t = from; t < to; t += 10_000_000) {
    const samples: MetricBatch['samples'] = [];
    for (let ts = t; ts < Math.min(to, t + 10_000_000); ts += 10_000)
      samples.push({ m: 'cpu.user', v: value(ts), t: ts });
    out.push({ v: 1, tenant: 'acme', host: 'db1', source: 'agent', ts: t, samples });
  }
  return out;
}

const sample = (ts: number, v: number): MetricBatch => ({
  v: 1,
  tenant: 'acme',
  host: 'db1',
  source: 'agent',
  ts,
  samples: [{ m: 'cpu.user', v }],
});

type Row = { bucket: number; min: number; max: number; avg: number; count: number };

/** Every point kept in the file's segments (the log is empty after a close), as [ts, value] by ts. */
function storedPoints(db: Database.Database): [number, number][] {
  const out: [number, number][] = [];
  for (const blob of db.prepare('SELECT data FROM segments').pluck().all() as Buffer[]) {
    const { ts, values } = decodeSegment(blob);
    for (let i = 0; i < ts.length; i++) out.push([ts[i]!, values[i]!]);
  }
  return out.sort((a, b) => a[0] - b[0]);
}

describe('SQLite metric store', () => {
  let dir: string;
  let path: string;
  let store: MetricStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'fd-sqlite-store-'));
    path = join(dir, 'metrics.db');
    store = createSqliteStore({ path });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Reads the file after closing the store (which also checkpoints the log into segments). */
  async function inspect<T>(read: (db: Database.Database) => T): Promise<T> {
    await store.close();
    const db = new Database(path, { readonly: true });
    try {
      return read(db);
    } finally {
      db.close();
      store = createSqliteStore({ path });
    }
  }

  /** Rollup rows next to the same aggregates computed from raw samples, for buckets before the boundary. */
  const rollupVsRaw = (db: Database.Database, table: 'rollup_5m' | 'rollup_1h', width: number) => {
    const boundary = db
      .prepare(`SELECT ${table === 'rollup_5m' ? 'rolled_5m_until' : 'rolled_1h_until'} FROM series`)
      .pluck()
      .get() as number;
    const rollup = db
      .prepare(`SELECT bucket, min, max, avg, count FROM ${table} ORDER BY bucket`)
      .all() as Row[];
    const byBucket = new Map<number, Row>();
    for (const [ts, value] of storedPoints(db)) {
      if (ts >= boundary) continue;
      const bucket = ts - (ts % width);
      const r = byBucket.get(bucket);
      if (!r) byBucket.set(bucket, { bucket, min: value, max: value, avg: value, count: 1 });
      else {
        r.min = Math.min(r.min, value);
        r.max = Math.max(r.max, value);
        r.avg += value;
        r.count++;
      }
    }
    const raw = [...byBucket.values()]
      .sort((a, b) => a.bucket - b.bucket)
      .map((r) => ({ ...r, avg: r.avg / r.count }));
    return { rollup, raw, boundary };
  };

  const expectSameRows = (a: Row[], b: Row[]) => {
    expect(a.map((r) => [r.bucket, r.min, r.max, r.count])).toEqual(
      b.map((r) => [r.bucket, r.min, r.max, r.count]),
    );
    for (const [i, r] of a.entries()) expect(r.avg).toBeCloseTo(b[i]!.avg, 9);
  };

  it('reads raw samples for 1 h of 10-s data, 5-min rollups for 24 h and 1-h rollups for 14 days', async () => {
    await store.write(series10s(end - 14 * DAY, end));
    const step = async (rangeMs: number) =>
      (await store.query({ series: sel, start: (end - rangeMs) / 1000, end: end / 1000 })).configs.step;
    expect(await step(HOUR)).toBe(10);
    expect(await step(DAY)).toBe(300);
    expect(await step(14 * DAY)).toBe(3600);

    // Tampered rollups show through, so those ranges really are read from the rollup tables.
    const bucket5m = end - DAY + 10 * FIVE_MIN;
    const bucket1h = end - 10 * DAY;
    await inspect(() => undefined);
    const db = new Database(path);
    db.prepare('UPDATE rollup_5m SET avg = -1 WHERE bucket = ?').run(bucket5m);
    db.prepare('UPDATE rollup_1h SET avg = -2 WHERE bucket = ?').run(bucket1h);
    db.close();
    const day = await store.query({ series: sel, start: (end - DAY) / 1000, end: end / 1000 });
    expect(day.y_values['cpu.user']![10]).toBe(-1);
    const fortnight = await store.query({ series: sel, start: (end - 14 * DAY) / 1000, end: end / 1000 });
    expect(fortnight.y_values['cpu.user']![4 * 24]).toBe(-2);
  });

  it('fills the 5-min and 1-h rollups with the aggregates of the raw samples', async () => {
    await store.write(series10s(end - 5 * HOUR, end - 2 * MIN, (ts) => Math.sin(ts / 1e6) * 50));
    const five = await inspect((db) => rollupVsRaw(db, 'rollup_5m', FIVE_MIN));
    expect(five.boundary).toBe(end - FIVE_MIN);
    expect(five.rollup).toHaveLength(59);
    expectSameRows(five.rollup, five.raw);
    const hour = await inspect((db) => rollupVsRaw(db, 'rollup_1h', HOUR));
    expect(hour.boundary).toBe(end - HOUR);
    expect(hour.rollup).toHaveLength(4);
    expectSameRows(hour.rollup, hour.raw);
  });

  it('serves the open 5-min bucket from raw samples', async () => {
    await store.write(series10s(end - DAY, end - 2 * MIN, () => 1));
    await store.write(series10s(end - 2 * MIN, end, () => 4));
    const q: SeriesQuery = { series: sel, start: (end - DAY) / 1000, end: end / 1000 };
    const values = (await store.query(q)).y_values['cpu.user']!;
    expect(values).toHaveLength(288);
    expect(values[286]).toBe(1);
    // The last bucket holds 18 samples of 1 and 12 of 4 and is not rolled up yet.
    expect(values[287]).toBeCloseTo((18 * 1 + 12 * 4) / 30, 9);
    const rolled = await inspect((db) =>
      db
        .prepare('SELECT count(*) FROM rollup_5m WHERE bucket = ?')
        .pluck()
        .get(end - FIVE_MIN),
    );
    expect(rolled).toBe(0);
  });

  it('aggregates a rolled bucket again when a late or rewritten sample arrives', async () => {
    await store.write(series10s(end - 2 * HOUR, end - 30 * MIN, () => 10));
    const first = end - 2 * HOUR;
    await store.write([sample(first + 5_000, 1_000)]); // late: a new ts in a rolled bucket
    await store.write([sample(first + FIVE_MIN, -50)]); // rewrite of a sample in a rolled bucket
    const lastOpen = end - 30 * MIN - 10_000;
    await store.write([sample(lastOpen, 70)]); // rewrite in the open bucket, then the bucket closes
    await store.write([sample(end - 10 * MIN, 10)]);

    const { five, hour } = await inspect((db) => ({
      five: rollupVsRaw(db, 'rollup_5m', FIVE_MIN),
      hour: rollupVsRaw(db, 'rollup_1h', HOUR),
    }));
    expectSameRows(five.rollup, five.raw);
    expectSameRows(hour.rollup, hour.raw);
    expect(five.rollup[0]).toMatchObject({ bucket: first, max: 1_000, count: 31 });
    expect(five.rollup[1]).toMatchObject({ bucket: first + FIVE_MIN, min: -50, count: 30 });
    const day = await store.query({ series: sel, start: (end - DAY) / 1000, end: end / 1000, agg: 'max' });
    expect(day.y_values['cpu.user']![264]).toBe(1_000);
  });

  it('tells series apart when a host changes the order and the labels of its samples', async () => {
    const at = (ts: number, samples: MetricBatch['samples']): MetricBatch => ({
      v: 1,
      tenant: 'acme',
      host: 'db1',
      source: 'agent',
      ts,
      samples,
    });
    const t0 = end - HOUR;
    await store.write([
      at(t0, [
        { m: 'disk.used_pct', l: { mount: '/' }, v: 1 },
        { m: 'disk.used_pct', l: { mount: '/var' }, v: 2 },
        { m: 'net.rx', l: { dev: 'eth0', dir: 'in' }, v: 3 },
        { m: 'disk.used_pct', v: 4 },
      ]),
    ]);
    // Same places, other series: swapped values, another label name, one label fewer, no labels.
    await store.write([
      at(t0 + 10_000, [
        { m: 'disk.used_pct', l: { mount: '/var' }, v: 12 },
        { m: 'disk.used_pct', l: { mount: '/' }, v: 11 },
        { m: 'disk.used_pct', l: { dev: '/' }, v: 15 },
        { m: 'net.rx', l: { dev: 'eth0' }, v: 17 },
        { m: 'disk.used_pct', l: {}, v: 14 },
      ]),
      // Where net.rx{dev=eth0} was: the same metric and first label, and one label more.
      at(t0 + 20_000, [
        { m: 'disk.used_pct', l: { mount: '/' }, v: 21 },
        { m: 'disk.used_pct', l: { mount: '/var' }, v: 22 },
        { m: 'disk.used_pct', l: { dev: '/' }, v: 25 },
        { m: 'net.rx', l: { dev: 'eth0', dir: 'in' }, v: 13 },
      ]),
    ]);
    const q = { start: t0 / 1000, end: (t0 + 30_000) / 1000, step: 10 };
    const disk = await store.query({
      ...q,
      series: [{ tenant: 'acme', host: 'db1', metric: 'disk.used_pct' }],
    });
    expect(disk.y_values).toEqual({
      'disk.used_pct': [4, 14, null],
      'disk.used_pct{dev=/}': [null, 15, 25],
      'disk.used_pct{mount=/}': [1, 11, 21],
      'disk.used_pct{mount=/var}': [2, 12, 22],
    });
    // net.rx{dev=eth0,dir=in} comes every 20 s, so one bucket of sums tells the two apart.
    const net = await store.query({
      ...q,
      step: 60,
      agg: 'sum',
      series: [{ tenant: 'acme', host: 'db1', metric: 'net.rx' }],
    });
    expect(net.y_values).toEqual({ 'net.rx{dev=eth0}': [17], 'net.rx{dev=eth0,dir=in}': [16] });
  });

  it('keeps the rollup boundaries and state across close and reopen', async () => {
    await store.write(series10s(end - HOUR, end - 40 * MIN));
    const before = await inspect((db) =>
      db.prepare('SELECT step_ms, rolled_5m_until, rolled_1h_until FROM series').get(),
    );
    expect(before).toEqual({ step_ms: 10_000, rolled_5m_until: end - 45 * MIN, rolled_1h_until: end - HOUR });
    // The bucket left open at close is completed and rolled up after the reopen.
    await store.write(series10s(end - 40 * MIN, end - 3 * MIN));
    await store.close();
    store = createSqliteStore({ path });
    await store.write(series10s(end - 3 * MIN, end + 2 * MIN));
    const { five, hour } = await inspect((db) => ({
      five: rollupVsRaw(db, 'rollup_5m', FIVE_MIN),
      hour: rollupVsRaw(db, 'rollup_1h', HOUR),
    }));
    expect(five.boundary).toBe(end);
    expect(five.rollup).toHaveLength(12);
    expectSameRows(five.rollup, five.raw);
    expect(hour.boundary).toBe(end);
    expectSameRows(hour.rollup, hour.raw);
    expect(hour.rollup).toHaveLength(1);
  });
});
