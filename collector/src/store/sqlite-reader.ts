import type { ChartData } from '@flightdeck/schemas';
import type Database from 'better-sqlite3';
import type { Aggregate, LatestSample, SeriesQuery, SeriesSelector } from './contract';
import type { RawSamples } from './sqlite-segments';
import {
  chartData,
  FIVE_MIN,
  fieldNamer,
  type Grid,
  HOUR,
  labelsMatch,
  metricsOf,
  parseCanonicalLabels,
  planGrid,
  SERIES_COLUMNS,
  type SeriesRow,
} from './sqlite-shared';

/** A query reads the finest table that keeps about this many points per series or fewer. */
const POINTS_PER_TABLE = 1_000;

type Table = 'raw' | '5m' | '1h';
const RESOLUTION = { '5m': FIVE_MIN, '1h': HOUR } as const;

/** Per aggregate: the value column of rollup rows, and of rollup rows grouped. */
const AGG_SQL: Record<Aggregate, { rollup: string; grouped: string }> = {
  avg: { rollup: 'avg * count', grouped: 'sum(avg * count)' },
  sum: { rollup: 'avg * count', grouped: 'sum(avg * count)' },
  count: { rollup: 'avg * count', grouped: 'sum(avg * count)' },
  min: { rollup: 'min', grouped: 'min(min)' },
  max: { rollup: 'max', grouped: 'max(max)' },
};

/** Buckets of one series: a value (min, max or sum by aggregate) and a sample count each. */
class Buckets {
  readonly value: Float64Array;
  readonly count: Float64Array;
  constructor(
    readonly grid: Grid,
    readonly agg: Aggregate,
  ) {
    this.value = new Float64Array(grid.count);
    if (agg === 'min') this.value.fill(Number.POSITIVE_INFINITY);
    if (agg === 'max') this.value.fill(Number.NEGATIVE_INFINITY);
    this.count = new Float64Array(grid.count);
  }
  add(bucketMs: number, value: number, count: number): void {
    const i = Math.floor((bucketMs - this.grid.firstMs) / this.grid.widthMs);
    if (i < 0 || i >= this.grid.count || !(count > 0)) return;
    if (this.agg === 'min') {
      if (value < this.value[i]!) this.value[i] = value;
    } else if (this.agg === 'max') {
      if (value > this.value[i]!) this.value[i] = value;
    } else this.value[i]! += value;
    this.count[i]! += count;
  }
  values(): (number | null)[] {
    const out: (number | null)[] = new Array(this.grid.count);
    for (let i = 0; i < this.grid.count; i++) {
      const n = this.count[i]!;
      out[i] =
        n === 0 ? null : this.agg === 'avg' ? this.value[i]! / n : this.agg === 'count' ? n : this.value[i]!;
    }
    return out;
  }
}

/** The reading side of the SQLite store: see {@link createSqliteReader}. */
export interface SqliteReader {
  query(q: SeriesQuery): ChartData;
  latest(selector: SeriesSelector): LatestSample[];
}

/**
 * Answers queries from the rollups before each series' boundaries and from the raw samples (the
 * log as tails, and segments) after them, all in one read transaction. A selector without
 * `service` matches the series of every service (and of none).
 */
export function createSqliteReader(db: Database.Database, raw: RawSamples): SqliteReader {
  const stmt = {
    seriesOf: db.prepare(
      `SELECT ${SERIES_COLUMNS} FROM series WHERE tenant = ? AND host = ? AND metric = ? ORDER BY service, labels`,
    ),
    seriesOfService: db.prepare(
      `SELECT ${SERIES_COLUMNS} FROM series WHERE tenant = ? AND host = ? AND service = ? AND metric = ? ORDER BY labels`,
    ),
  };

  // Rollup read statements per table and aggregate, prepared on first use; each row is [bucket, value, count].
  const readStmts = new Map<string, Database.Statement>();
  function readStmt(table: '5m' | '1h', agg: Aggregate, grouped: boolean): Database.Statement {
    const key = `${table}:${agg}:${grouped}`;
    let s = readStmts.get(key);
    if (s) return s;
    const a = AGG_SQL[agg];
    const name = `rollup_${table}`;
    const sql = grouped
      ? `SELECT bucket - bucket % ? AS b, ${a.grouped}, sum(count) FROM ${name}
         WHERE series_id = ? AND bucket >= ? AND bucket < ? GROUP BY b`
      : `SELECT bucket, ${a.rollup}, count FROM ${name} WHERE series_id = ? AND bucket >= ? AND bucket < ?`;
    s = db.prepare(sql).raw();
    readStmts.set(key, s);
    return s;
  }

  function matchSeries(sel: SeriesSelector): SeriesRow[] {
    const out: SeriesRow[] = [];
    for (const metric of metricsOf(sel)) {
      const rows = (
        sel.service === undefined
          ? stmt.seriesOf.all(sel.tenant, sel.host, metric)
          : stmt.seriesOfService.all(sel.tenant, sel.host, sel.service, metric)
      ) as SeriesRow[];
      for (const row of rows) if (labelsMatch(parseCanonicalLabels(row.labels), sel.labels)) out.push(row);
    }
    return out;
  }

  /** Finest table keeping about POINTS_PER_TABLE points or fewer; a finer one for an explicit finer step. */
  function pickTable(q: SeriesQuery, rows: readonly SeriesRow[]): { table: Table; resolution: number } {
    const rangeMs = Math.max(0, (q.end - q.start) * 1000);
    let minStep = Number.POSITIVE_INFINITY;
    for (const r of rows) if (r.step_ms && r.step_ms < minStep) minStep = r.step_ms;
    let table: Table =
      rangeMs / minStep <= POINTS_PER_TABLE ? 'raw' : rangeMs / FIVE_MIN <= POINTS_PER_TABLE ? '5m' : '1h';
    const stepMs = q.step !== undefined && q.step > 0 ? q.step * 1000 : undefined;
    if (stepMs !== undefined && table === '1h' && stepMs < HOUR) table = '5m';
    if (stepMs !== undefined && table === '5m' && stepMs < FIVE_MIN) table = 'raw';
    if (table !== 'raw') return { table, resolution: RESOLUTION[table] };
    // Raw buckets are whole multiples of the sampling step, so a bucket is never empty by construction.
    return {
      table,
      resolution: Number.isFinite(minStep) ? Math.max(1000, Math.ceil(minStep / 1000) * 1000) : 1000,
    };
  }

  // A rollup read at its own resolution is one row per bucket: two plucked columns (no row arrays)
  // read in one transaction cost about half of the rows read as arrays.
  const bucketStmts = {
    '5m': db
      .prepare('SELECT bucket FROM rollup_5m WHERE series_id = ? AND bucket >= ? AND bucket < ?')
      .pluck(),
    '1h': db
      .prepare('SELECT bucket FROM rollup_1h WHERE series_id = ? AND bucket >= ? AND bucket < ?')
      .pluck(),
  };
  const valueStmts = new Map<string, Database.Statement>();
  function valueStmt(table: '5m' | '1h', agg: Aggregate) {
    const key = `${table}:${agg}`;
    let s = valueStmts.get(key);
    if (!s) {
      const column = agg === 'sum' ? 'avg * count' : agg;
      s = db
        .prepare(`SELECT ${column} FROM rollup_${table} WHERE series_id = ? AND bucket >= ? AND bucket < ?`)
        .pluck();
      valueStmts.set(key, s);
    }
    return s;
  }

  /** Adds the buckets of one series read from a table over [from, to). */
  function read(acc: Buckets, table: Table, id: number, from: number, to: number) {
    if (from >= to) return;
    if (table === 'raw') {
      raw.read(id, from, to, (ts, v) => acc.add(ts, v, 1));
      return;
    }
    const width = acc.grid.widthMs;
    if (width === RESOLUTION[table]) {
      const bucketsOf = bucketStmts[table].all(id, from, to) as number[];
      const values = valueStmt(table, acc.agg).all(id, from, to) as number[];
      for (let i = 0; i < bucketsOf.length; i++) {
        if (acc.agg === 'count') acc.add(bucketsOf[i]!, 0, values[i]!);
        else acc.add(bucketsOf[i]!, values[i]!, 1);
      }
      return;
    }
    const grouped = width >= 4 * RESOLUTION[table];
    const s = readStmt(table, acc.agg, grouped);
    const rows = (grouped ? s.all(width, id, from, to) : s.all(id, from, to)) as number[][];
    for (const r of rows) acc.add(r[0]!, r[1]!, r[2]!);
  }

  function runQuery(q: SeriesQuery): ChartData {
    raw.sync();
    const seen = new Set<number>();
    const rows: SeriesRow[] = [];
    for (const sel of q.series) {
      for (const row of matchSeries(sel)) {
        if (!seen.has(row.id)) rows.push(row);
        seen.add(row.id);
      }
    }
    const { table, resolution } = pickTable(q, rows);
    const grid = planGrid(q, resolution);
    const agg = q.agg ?? 'avg';
    const from = grid.firstMs;
    const to = grid.firstMs + grid.count * grid.widthMs;
    const name = fieldNamer(q.series);
    const fields = rows.map((r) => {
      const acc = new Buckets(grid, agg);
      if (grid.count > 0) {
        // Rollups before the series' boundaries, raw samples after them (so the open bucket is never missed).
        const b5 = Math.max(from, r.rolled_5m_until ?? from);
        const b1 = Math.max(from, Math.min(r.rolled_1h_until ?? from, b5));
        if (table === 'raw') read(acc, 'raw', r.id, from, to);
        else if (table === '5m') {
          read(acc, '5m', r.id, from, Math.min(to, b5));
          read(acc, 'raw', r.id, b5, to);
        } else {
          read(acc, '1h', r.id, from, Math.min(to, b1));
          read(acc, '5m', r.id, b1, Math.min(to, b5));
          read(acc, 'raw', r.id, b5, to);
        }
      }
      const labels = parseCanonicalLabels(r.labels);
      const field = name({ host: r.host, service: r.service, metric: r.metric, labels });
      return [field, acc.values()] as const;
    });
    return chartData(grid, fields);
  }

  function runLatest(selector: SeriesSelector): LatestSample[] {
    raw.sync();
    const out: LatestSample[] = [];
    for (const r of matchSeries(selector)) {
      const last = raw.latest(r.id);
      if (!last) continue;
      out.push({
        host: r.host,
        ...(r.service ? { service: r.service } : {}),
        metric: r.metric,
        labels: parseCanonicalLabels(r.labels),
        ts: last[0],
        value: last[1],
      });
    }
    return out;
  }

  // Reads run in one transaction: boundaries, rollups, log and segments from one snapshot of the file.
  const queryTx = db.transaction(runQuery);
  const latestTx = db.transaction(runLatest);
  return { query: (q) => queryTx(q), latest: (selector) => latestTx(selector) };
}
