import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
const cpu = [{ tenant: 'acme', host: 'db1', metric: 'cpu.user' }];
const value = (ts: number) => (ts / 10_000) % 97;

/** 10-s samples of cpu.user (and of disk.used_pct{mount=/} at twice the value) over [from, to). */
function series10s(from: number, to: number, v: (ts: number) => number = value): MetricBatch[] {
  const out: MetricBatch[] = [];
  for (let t = from; t < to; t += 600_000) {
    const samples: MetricBatch['samples'] = [];
    for (let ts = t; ts < Math.min(to, t + 600_000); ts += 10_000) {
      samples.push({ m: 'cpu.user', v: v(ts), t: ts });
      samples.push({ m: 'disk.used_pct', l: { mount: '/' }, v: 2 * v(ts), t: ts });
    }
    out.push({ v: 1, tenant: 'acme', host: 'db1', source: 'agent', ts: t, samples });
  }
  return out;
}

const one = (ts: number, v: number): MetricBatch => ({
  v: 1,
  tenant: 'acme',
  host: 'db1',
  source: 'agent',
  ts,
  samples: [{ m: 'cpu.user', v }],
});

/** Expected per-minute averages of `value` over [from, to), null where a minute has no sample. */
function minuteAverages(
  from: number,
  to: number,
  has: (ts: number) => boolean,
  v = value,
): (number | null)[] {
  const out: (number | null)[] = [];
  for (let m = from; m < to; m += MIN) {
    let sum = 0;
    let n = 0;
    for (let ts = m; ts < m + MIN; ts += 10_000)
      if (has(ts)) {
        sum += v(ts);
        n++;
      }
    out.push(n ? sum / n : null);
  }
  return out;
}

function closeTo(actual: (number | null)[] | undefined, expected: (number | null)[]) {
  expect(actual).toHaveLength(expected.length);
  actual!.forEach((a, i) => {
    if (expected[i] === null) expect(a).toBeNull();
    else expect(a).toBeCloseTo(expected[i]!, 9);
  });
}

/** Every point of the file's segments as [series_id, ts, value]. */
function storedPoints(path: string): [number, number, number][] {
  const db = new Database(path, { readonly: true });
  try {
    const out: [number, number, number][] = [];
    for (const row of db.prepare('SELECT series_id, data FROM segments').all() as {
      series_id: number;
      data: Buffer;
    }[]) {
      const { ts, values } = decodeSegment(row.data);
      for (let i = 0; i < ts.length; i++) out.push([row.series_id, ts[i]!, values[i]!]);
    }
    return out.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  } finally {
    db.close();
  }
}

function fileRows<T>(path: string, sql: string): T[] {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

describe('SQLite metric store: log, segments and runs', () => {
  let dir: string;
  let path: string;
  const open: MetricStore[] = [];
  const openStore = () => {
    const store = createSqliteStore({ path });
    open.push(store);
    return store;
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'fd-sqlite-segments-'));
    path = join(dir, 'metrics.db');
  });
  afterEach(async () => {
    for (const s of open.splice(0)) await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps a resolved write when the process is killed before any checkpoint', () => {
    const script = join(dir, 'write-and-die.mts');
    const storeModule = fileURLToPath(new URL('./sqlite.ts', import.meta.url));
    writeFileSync(
      script,
      `import { createSqliteStore } from ${JSON.stringify(storeModule)};
       const store = createSqliteStore({ path: process.argv[2] });
       const batches = JSON.parse(process.argv[3]);
       await store.write(batches);
       process.kill(process.pid, 'SIGKILL');`,
    );
    const batches = series10s(end - 30 * MIN, end - 10 * MIN);
    const child = spawnSync(process.execPath, ['--import', 'tsx', script, path, JSON.stringify(batches)], {
      encoding: 'utf8',
    });
    expect(child.stderr).toBe('');
    expect(child.signal).toBe('SIGKILL');
    expect(fileRows<{ n: number }>(path, 'SELECT count(*) AS n FROM segments')[0]!.n).toBe(0);

    return (async () => {
      const store = openStore();
      const q: SeriesQuery = {
        series: cpu,
        start: (end - 30 * MIN) / 1000,
        end: (end - 10 * MIN) / 1000,
        step: 60,
      };
      closeTo(
        (await store.query(q)).y_values['cpu.user'],
        minuteAverages(end - 30 * MIN, end - 10 * MIN, () => true),
      );
      // Written on after the restart, the series goes on where it was.
      await store.write(series10s(end - 10 * MIN, end));
      const all = await store.query({ ...q, end: end / 1000 });
      closeTo(
        all.y_values['cpu.user'],
        minuteAverages(end - 30 * MIN, end, () => true),
      );
    })();
  });

  it('shows a second store on the file every committed write, across the writer checkpointing', async () => {
    const writer = openStore();
    const reader = openStore();
    const q: SeriesQuery = { series: cpu, start: (end - HOUR) / 1000, end: end / 1000, step: 60 };
    await writer.write(series10s(end - HOUR, end - 40 * MIN));
    const has = (until: number) => (ts: number) => ts < until;
    closeTo(
      (await reader.query(q)).y_values['cpu.user'],
      minuteAverages(end - HOUR, end, has(end - 40 * MIN)),
    );
    await writer.write(series10s(end - 40 * MIN, end - 20 * MIN));
    closeTo(
      (await reader.query(q)).y_values['cpu.user'],
      minuteAverages(end - HOUR, end, has(end - 20 * MIN)),
    );
    expect(await reader.latest({ tenant: 'acme', host: 'db1', metric: 'cpu.user' })).toEqual([
      {
        host: 'db1',
        metric: 'cpu.user',
        labels: {},
        ts: end - 20 * MIN - 10_000,
        value: value(end - 20 * MIN - 10_000),
      },
    ]);

    // The writer's close checkpoints: the log empties into segments, the reader reads those now.
    await writer.close();
    expect(fileRows<{ n: number }>(path, 'SELECT count(*) AS n FROM samples_log')[0]!.n).toBe(0);
    closeTo(
      (await reader.query(q)).y_values['cpu.user'],
      minuteAverages(end - HOUR, end, has(end - 20 * MIN)),
    );
    const writer2 = openStore();
    await writer2.write(series10s(end - 20 * MIN, end));
    closeTo(
      (await reader.query(q)).y_values['cpu.user'],
      minuteAverages(end - HOUR, end, () => true),
    );

    // Points the writer's retention deletes are gone for the reader as well, tails included.
    const old = Math.floor((Date.now() - 10 * DAY) / HOUR) * HOUR;
    await writer2.write(series10s(old, old + 10 * MIN));
    const oldQuery: SeriesQuery = { series: cpu, start: old / 1000, end: (old + 10 * MIN) / 1000, step: 60 };
    closeTo(
      (await reader.query(oldQuery)).y_values['cpu.user'],
      minuteAverages(old, old + 10 * MIN, () => true),
    );
    expect(await writer2.retention(7)).toEqual({ deleted: 2 * 60 });
    expect((await reader.query(oldQuery)).y_values['cpu.user']).toEqual(new Array(10).fill(null));
    closeTo(
      (await reader.query(q)).y_values['cpu.user'],
      minuteAverages(end - HOUR, end, () => true),
    );
    await writer2.write(series10s(end, end + 10 * MIN));

    // A store that only read leaves the log to the writer.
    await reader.close();
    expect(fileRows<{ n: number }>(path, 'SELECT count(*) AS n FROM samples_log')[0]!.n).toBeGreaterThan(0);
  });

  it('answers a range that spans segments, the log and the rollups', async () => {
    let store = openStore();
    await store.write(series10s(end - 3 * HOUR, end - HOUR));
    await store.close();
    store = openStore();
    await store.write(series10s(end - HOUR, end));
    expect(fileRows<{ n: number }>(path, 'SELECT count(*) AS n FROM samples_log')[0]!.n).toBeGreaterThan(0);

    const raw = await store.query({ series: cpu, start: (end - 2 * HOUR) / 1000, end: end / 1000, step: 60 });
    closeTo(
      raw.y_values['cpu.user'],
      minuteAverages(end - 2 * HOUR, end, () => true),
    );
    const day = await store.query({ series: cpu, start: (end - DAY) / 1000, end: end / 1000 });
    expect(day.configs.step).toBe(300);
    const fiveMin = (from: number, to: number) =>
      minuteAverages(from, to, () => true).reduce<(number | null)[]>((acc, v, i) => {
        if (i % 5 === 0) acc.push(0);
        acc[acc.length - 1]! += v! / 5;
        return acc;
      }, []);
    closeTo(day.y_values['cpu.user']!.slice(-36), fiveMin(end - 3 * HOUR, end));
    expect(day.y_values['cpu.user']!.slice(0, -36).every((v) => v === null)).toBe(true);
    const disk = await store.latest({ tenant: 'acme', host: 'db1', metric: 'disk.used_pct' });
    expect(disk[0]).toMatchObject({
      labels: { mount: '/' },
      ts: end - 10_000,
      value: 2 * value(end - 10_000),
    });
  });

  it('rewrites a sample already in a segment, in reads, in the rollups and in the file', async () => {
    let store = openStore();
    await store.write(series10s(end - 2 * HOUR, end - HOUR, () => 10));
    await store.close();
    store = openStore();
    const old = end - 2 * HOUR + FIVE_MIN;
    await store.write([one(old, 1_000), one(old + 5_000, -500)]); // a rewrite and a late sample
    await store.write([one(end - 50 * MIN, 10)]);
    const q: SeriesQuery = {
      series: cpu,
      start: (end - 2 * HOUR) / 1000,
      end: (end - HOUR) / 1000,
      step: 300,
    };
    expect((await store.query({ ...q, agg: 'count' })).y_values['cpu.user']!.slice(0, 3)).toEqual([
      30, 31, 30,
    ]);
    expect((await store.query({ ...q, agg: 'max' })).y_values['cpu.user']![1]).toBe(1_000);
    expect((await store.query({ ...q, agg: 'min' })).y_values['cpu.user']![1]).toBe(-500);
    const day = await store.query({ series: cpu, start: (end - DAY) / 1000, end: end / 1000, agg: 'max' });
    expect(day.y_values['cpu.user']![288 - 23]).toBe(1_000);

    await store.close();
    const points = storedPoints(path).filter(([, ts]) => ts >= old && ts < old + FIVE_MIN);
    expect(points.map(([, ts, v]) => [ts - old, v]).slice(0, 3)).toEqual([
      [0, 1_000],
      [5_000, -500],
      [10_000, 10],
    ]);
    const stored = storedPoints(path);
    expect(new Set(stored.map(([id, ts]) => `${id}:${ts}`)).size).toBe(stored.length);
    const [bucket] = fileRows<{ max: number; min: number; count: number }>(
      path,
      `SELECT max, min, count FROM rollup_5m WHERE bucket = ${old} AND series_id = (SELECT id FROM series WHERE metric = 'cpu.user')`,
    );
    expect(bucket).toEqual({ max: 1_000, min: -500, count: 31 });
  });

  it('cuts a segment across the retention cutoff and counts the points that went', async () => {
    const store = openStore();
    const cutoff = Date.now() - DAY;
    // Samples 5 s off the cutoff, so the cutoff retention takes a moment later splits them the same way.
    const from = cutoff - 30 * MIN + 5_000;
    await store.write(series10s(from, from + HOUR));
    await store.write(series10s(end - 10 * MIN, end));
    const before = (ts: number) => ts < cutoff;
    let old = 0;
    for (let ts = from; ts < from + HOUR; ts += 10_000) if (before(ts)) old += 2;
    expect(await store.retention(1)).toEqual({ deleted: old });
    const kept = storedPoints(path).filter(([, ts]) => ts < end - HOUR);
    expect(kept.length).toBe(2 * 360 - old);
    expect(Math.min(...kept.map(([, ts]) => ts))).toBeGreaterThanOrEqual(cutoff);
    const q: SeriesQuery = {
      series: cpu,
      start: (from - (from % MIN)) / 1000,
      end: (from + HOUR) / 1000,
      step: 60,
    };
    const chart = await store.query(q);
    expect(chart.y_values['cpu.user']!.filter((v) => v !== null).length).toBeLessThan(chart.x_values.length);
    expect(await store.retention(1)).toEqual({ deleted: 0 });
    expect(
      (
        await store.query({
          series: cpu,
          start: (end - 10 * MIN) / 1000,
          end: end / 1000,
          step: 60,
          agg: 'count',
        })
      ).y_values['cpu.user'],
    ).toEqual(new Array(10).fill(6));
  });

  it('merges every eight checkpoint runs into one, keeping every point once', async () => {
    const from = end - 9 * 20 * MIN;
    for (let i = 0; i < 9; i++) {
      const store = openStore();
      await store.write(series10s(from + i * 20 * MIN, from + (i + 1) * 20 * MIN));
      await store.close();
      open.pop();
    }
    const runs = fileRows<{ level: number; samples: number }>(
      path,
      'SELECT level, samples FROM runs ORDER BY id',
    );
    expect(runs).toEqual([
      { level: 1, samples: 8 * 2 * 120 },
      { level: 0, samples: 2 * 120 },
    ]);
    const stored = storedPoints(path);
    expect(stored).toHaveLength(9 * 2 * 120);
    const store = openStore();
    const q: SeriesQuery = { series: cpu, start: from / 1000, end: end / 1000, step: 60 };
    closeTo(
      (await store.query(q)).y_values['cpu.user'],
      minuteAverages(from, end, () => true),
    );
  });

  it('converts a file of the first layout on open, once', async () => {
    const db = new Database(path);
    db.exec(`
      CREATE TABLE series (id INTEGER PRIMARY KEY, tenant TEXT NOT NULL, host TEXT NOT NULL,
        service TEXT NOT NULL DEFAULT '', metric TEXT NOT NULL, labels TEXT NOT NULL DEFAULT '',
        step_ms INTEGER, rolled_5m_until INTEGER, rolled_1h_until INTEGER,
        UNIQUE (tenant, host, service, metric, labels));
      CREATE TABLE samples (series_id INTEGER NOT NULL, ts INTEGER NOT NULL, value REAL NOT NULL,
        PRIMARY KEY (series_id, ts)) WITHOUT ROWID;
      CREATE TABLE samples_recent (ts INTEGER NOT NULL, series_id INTEGER NOT NULL, value REAL NOT NULL,
        PRIMARY KEY (ts, series_id)) WITHOUT ROWID;
      CREATE TABLE rollup_5m (series_id INTEGER NOT NULL, bucket INTEGER NOT NULL, min REAL NOT NULL,
        max REAL NOT NULL, avg REAL NOT NULL, count INTEGER NOT NULL, PRIMARY KEY (series_id, bucket)) WITHOUT ROWID;
      CREATE TABLE rollup_1h (series_id INTEGER NOT NULL, bucket INTEGER NOT NULL, min REAL NOT NULL,
        max REAL NOT NULL, avg REAL NOT NULL, count INTEGER NOT NULL, PRIMARY KEY (series_id, bucket)) WITHOUT ROWID;
      CREATE TABLE dead_letters (id INTEGER PRIMARY KEY, at INTEGER NOT NULL, reason TEXT NOT NULL,
        payload TEXT NOT NULL, truncated INTEGER NOT NULL DEFAULT 0);
    `);
    db.prepare(
      `INSERT INTO series (id, tenant, host, metric, step_ms, rolled_5m_until, rolled_1h_until)
       VALUES (1, 'acme', 'db1', 'cpu.user', 10000, ?, ?)`,
    ).run(end - 10 * MIN, end - HOUR);
    const inSamples = db.prepare('INSERT INTO samples (series_id, ts, value) VALUES (1, ?, ?)');
    const inRecent = db.prepare('INSERT INTO samples_recent (series_id, ts, value) VALUES (1, ?, ?)');
    const inRollup = db.prepare('INSERT INTO rollup_5m VALUES (1, ?, ?, ?, ?, ?)');
    db.transaction(() => {
      for (let ts = end - 2 * HOUR; ts < end; ts += 10_000)
        (ts < end - 30 * MIN ? inSamples : inRecent).run(ts, value(ts));
      for (let b = end - 2 * HOUR; b < end - 10 * MIN; b += FIVE_MIN) inRollup.run(b, 0, 0, -7, 30);
    })();
    db.close();

    let store = openStore();
    const raw = await store.query({ series: cpu, start: (end - 2 * HOUR) / 1000, end: end / 1000, step: 60 });
    closeTo(
      raw.y_values['cpu.user'],
      minuteAverages(end - 2 * HOUR, end, () => true),
    );
    // The old rollups are kept as they were (the -7 shows they are read, not recomputed).
    const day = await store.query({ series: cpu, start: (end - DAY) / 1000, end: end / 1000 });
    expect(day.y_values['cpu.user']![288 - 3]).toBe(-7);
    await store.write(series10s(end, end + 10 * MIN));
    await store.close();
    open.pop();

    expect(fileRows<{ user_version: number }>(path, 'PRAGMA user_version')[0]!.user_version).toBe(1);
    expect(
      fileRows(path, "SELECT name FROM sqlite_master WHERE name LIKE 'samples%' AND name != 'samples_log'"),
    ).toEqual([]);
    expect(storedPoints(path).filter(([, , v]) => v >= 0)).toHaveLength(720 + 60 + 60);
    store = openStore();
    const after = await store.query({
      series: cpu,
      start: (end - 2 * HOUR) / 1000,
      end: (end + 10 * MIN) / 1000,
      step: 60,
    });
    closeTo(
      after.y_values['cpu.user'],
      minuteAverages(end - 2 * HOUR, end + 10 * MIN, () => true),
    );
  });
});
