import {
  type ChartData,
  InvalidBatchError,
  type Labels,
  type MetricBatch,
  parseMetricBatch,
} from '@flightdeck/schemas';
import Database from 'better-sqlite3';
import {
  type Aggregate,
  type ComponentHealth,
  canonicalLabels,
  deadLetterRow,
  type LatestSample,
  type MetricStore,
  type SeriesQuery,
  type SeriesSelector,
  seriesField,
} from './contract';

// ---------------------------------------------------------------------------------------------------
// Pieces both stores share (questdb.ts imports them from here): validation, the x grid, field names.
// ---------------------------------------------------------------------------------------------------

/** Validates every batch of a write call; the error path names the batch: `batches[2].samples[7].v`. */
export function validateBatches(batches: unknown): readonly MetricBatch[] {
  if (!Array.isArray(batches)) throw new InvalidBatchError('batches', 'expected an array of metric batches');
  for (let i = 0; i < batches.length; i++) {
    try {
      parseMetricBatch(batches[i]);
    } catch (err) {
      if (!(err instanceof InvalidBatchError)) throw err;
      throw new InvalidBatchError(err.path ? `batches[${i}].${err.path}` : `batches[${i}]`, err.reason);
    }
  }
  return batches as readonly MetricBatch[];
}

export const DEFAULT_MAX_POINTS = 1_000;
/** No chart needs more buckets than this; a tiny `step` over a long range is widened to fit. */
export const MAX_BUCKETS = 20_000;

/** Buckets of a query: bucket i starts at `firstMs + i * widthMs`; together they cover [start, end). */
export interface Grid {
  widthMs: number;
  firstMs: number;
  count: number;
}

/**
 * Bucket width: `q.step`, else the range over maxPoints; at least `resolutionMs` and rounded up to a
 * whole multiple of it. Buckets are aligned to the epoch, so one step always gives the same grid.
 */
export function planGrid(q: SeriesQuery, resolutionMs: number): Grid {
  const rangeS = Math.max(0, q.end - q.start);
  const maxPoints = Math.min(MAX_BUCKETS, Math.max(1, Math.floor(q.maxPoints ?? DEFAULT_MAX_POINTS)));
  const wantedS = q.step !== undefined && q.step > 0 ? Math.ceil(q.step) : Math.ceil(rangeS / maxPoints);
  const w = Math.max(resolutionMs, wantedS * 1000, Math.ceil(rangeS / MAX_BUCKETS) * 1000);
  const widthMs = Math.ceil(w / resolutionMs) * resolutionMs;
  const startMs = q.start * 1000;
  const endMs = q.end * 1000;
  const firstMs = Math.floor(startMs / widthMs) * widthMs;
  const count = endMs > startMs ? Math.ceil((endMs - firstMs) / widthMs) : 0;
  return { widthMs, firstMs, count };
}

/** The chart contract around a grid; `fields` in y_axis order, each aligned with the grid. */
export function chartData(grid: Grid, fields: readonly (readonly [string, (number | null)[]])[]): ChartData {
  const x: number[] = new Array(grid.count);
  for (let i = 0; i < grid.count; i++) x[i] = (grid.firstMs + i * grid.widthMs) / 1000;
  const y: Record<string, (number | null)[]> = {};
  for (const [field, values] of fields) y[field] = values;
  return {
    configs: { is_dynamic: false, timer_task: 60, precision: 2, step: grid.widthMs / 1000 },
    x_values: x,
    y_axis: fields.map(([f]) => f),
    y_values: y,
  };
}

/** Inverse of {@link canonicalLabels}; a comma only splits where a label name and `=` follow. */
export function parseCanonicalLabels(s: string | null | undefined): Labels {
  const out: Labels = {};
  if (!s) return out;
  for (const pair of s.split(/,(?=[a-z_][a-z0-9_]*=)/)) {
    const eq = pair.indexOf('=');
    if (eq > 0) out[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return out;
}

/** True when `labels` holds every pair of `wanted`. */
export function labelsMatch(labels: Labels, wanted: Labels | undefined): boolean {
  if (!wanted) return true;
  for (const k in wanted) if (labels[k] !== wanted[k]) return false;
  return true;
}

export const metricsOf = (sel: SeriesSelector): readonly string[] =>
  typeof sel.metric === 'string' ? [sel.metric] : sel.metric;

export interface SeriesIdentity {
  host: string;
  /** '' when the series has no service. */
  service: string;
  metric: string;
  labels: Labels;
}

/**
 * Field namer for one query: the host leads when the selectors span several hosts (the contract's
 * rule); the service leads when the same field would otherwise come twice from different services.
 */
export function fieldNamer(series: readonly SeriesSelector[]): (s: SeriesIdentity) => string {
  const multiHost = new Set(series.map((s) => s.host)).size > 1;
  const seen = new Set<string>();
  return ({ host, service, metric, labels }) => {
    let field = seriesField(metric, labels, multiHost ? host : undefined);
    if (seen.has(field) && service) field = `${service}:${field}`;
    seen.add(field);
    return field;
  };
}

// ---------------------------------------------------------------------------------------------------
// The SQLite store.
// ---------------------------------------------------------------------------------------------------

const FIVE_MIN = 300_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
/** A query reads the finest table that keeps about this many points per series or fewer. */
const POINTS_PER_TABLE = 1_000;
/**
 * samples_recent moves into samples once it holds this many rows (and on close, and on a rewrite).
 * Larger moves cost less per row (measured: 2.0 µs at 100k rows, 1.5 µs at 250k, 1.1 µs at 1M);
 * queries scan the recent rows of their time range, so the table is kept well below a million.
 */
const RECENT_CAP = 250_000;
/** Rows per multi-row INSERT: one call for 64 samples costs about a third of 64 calls. */
const CHUNK = 64;

export interface SqliteStoreOptions {
  /** Database file; created with its tables when absent. One writing process per file. */
  path: string;
  /** When set, `retention(retentionDays)` runs at open and every hour until close. */
  retentionDays?: number;
}

/*
 * samples_recent is an append-only table (keyed by time) in front of samples. An agent batch holds one sample of
 * each of many series; inserted straight into samples (clustered by series) every commit rewrites
 * a page per series, which caps writes near 80k samples/s. Appended here a commit touches a few
 * pages, and the rows move to samples sorted, many per page, in one statement (RECENT_CAP).
 * Invariant: per series, every row here is newer than every row in samples; readers add the two.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS series (
  id INTEGER PRIMARY KEY,
  tenant TEXT NOT NULL,
  host TEXT NOT NULL,
  service TEXT NOT NULL DEFAULT '',
  metric TEXT NOT NULL,
  labels TEXT NOT NULL DEFAULT '',
  step_ms INTEGER,
  rolled_5m_until INTEGER,
  rolled_1h_until INTEGER,
  UNIQUE (tenant, host, service, metric, labels)
);
CREATE TABLE IF NOT EXISTS samples (
  series_id INTEGER NOT NULL, ts INTEGER NOT NULL, value REAL NOT NULL,
  PRIMARY KEY (series_id, ts)
) WITHOUT ROWID;
-- Keyed by time: appends land at the end of the b-tree and time-range reads need no second index.
CREATE TABLE IF NOT EXISTS samples_recent (
  ts INTEGER NOT NULL, series_id INTEGER NOT NULL, value REAL NOT NULL,
  PRIMARY KEY (ts, series_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS rollup_5m (
  series_id INTEGER NOT NULL, bucket INTEGER NOT NULL,
  min REAL NOT NULL, max REAL NOT NULL, avg REAL NOT NULL, count INTEGER NOT NULL,
  PRIMARY KEY (series_id, bucket)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS rollup_1h (
  series_id INTEGER NOT NULL, bucket INTEGER NOT NULL,
  min REAL NOT NULL, max REAL NOT NULL, avg REAL NOT NULL, count INTEGER NOT NULL,
  PRIMARY KEY (series_id, bucket)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS dead_letters (
  id INTEGER PRIMARY KEY,
  at INTEGER NOT NULL,
  reason TEXT NOT NULL,
  payload TEXT NOT NULL,
  truncated INTEGER NOT NULL DEFAULT 0
);
`;

/** Per-series state kept in memory so the write path never reads. */
interface SeriesState {
  id: number;
  stepMs: number | null;
  /** Start of the first 5-min bucket not yet in rollup_5m (null before the first sample). */
  rolled5m: number | null;
  /** Start of the first hour not yet in rollup_1h. */
  rolled1h: number | null;
  /** Newest ts stored for the series; undefined until looked up once after open. */
  lastTs: number | undefined;
  prevTs: number | null;
  /**
   * Running aggregate of the open 5-min bucket `openBucket`, written to rollup_5m when the bucket
   * closes. Not `exact` when it may miss samples (written before open, or replaced in place); the
   * bucket is then aggregated from samples instead.
   */
  openBucket: number | null;
  exact: boolean;
  min: number;
  max: number;
  sum: number;
  count: number;
  /** Earliest 5-min bucket to aggregate from samples at the end of the write call. */
  sqlFrom: number;
  /** Write call that last queued the series for the end-of-call work. */
  epoch: number;
  dirty: boolean;
}

interface SeriesRow {
  id: number;
  host: string;
  service: string;
  metric: string;
  labels: string;
  step_ms: number | null;
  rolled_5m_until: number | null;
  rolled_1h_until: number | null;
}

type Table = 'raw' | '5m' | '1h';
const RESOLUTION = { '5m': FIVE_MIN, '1h': HOUR } as const;
const SERIES_COLUMNS = 'id, host, service, metric, labels, step_ms, rolled_5m_until, rolled_1h_until';
const IN_IDS = 'series_id IN (SELECT value FROM json_each(?))';

/** Per aggregate: the value column of raw rows, of rollup rows, and of rollup rows grouped. */
const AGG_SQL: Record<Aggregate, { raw: string; rollup: string; grouped: string }> = {
  avg: { raw: 'sum(value)', rollup: 'avg * count', grouped: 'sum(avg * count)' },
  sum: { raw: 'sum(value)', rollup: 'avg * count', grouped: 'sum(avg * count)' },
  count: { raw: 'sum(value)', rollup: 'avg * count', grouped: 'sum(avg * count)' },
  min: { raw: 'min(value)', rollup: 'min', grouped: 'min(min)' },
  max: { raw: 'max(value)', rollup: 'max', grouped: 'max(max)' },
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

/**
 * The embedded metric store (DESIGN section 4): raw samples plus 5-min and 1-h rollups filled as
 * buckets close, from running aggregates kept in memory, so a write costs one append per sample.
 *
 * A selector without `service` matches the series of every service (and of none).
 */
export function createSqliteStore(options: SqliteStoreOptions): MetricStore {
  const db = new Database(options.path);
  // 8 KiB pages: the sorted moves from samples_recent into samples split fewer pages (measured
  // ~25% faster than 4 KiB). Takes effect only when the file is created.
  db.pragma('page_size = 8192');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('temp_store = MEMORY');
  db.pragma('cache_size = -65536');
  // Checkpoint (and fsync) every ~40 MB of WAL rather than every 4 MB.
  db.pragma('wal_autocheckpoint = 10000');
  db.exec(SCHEMA);

  const stmt = {
    insertDeadLetter: db.prepare(
      'INSERT INTO dead_letters (at, reason, payload, truncated) VALUES (?, ?, ?, ?)',
    ),
    deleteDeadLetters: db.prepare('DELETE FROM dead_letters WHERE at < ?'),
    deadLetters: db.prepare(
      'SELECT at, reason, payload, truncated FROM dead_letters ORDER BY id DESC LIMIT ?',
    ),
    insertSample: db.prepare('INSERT OR REPLACE INTO samples (series_id, ts, value) VALUES (?, ?, ?)'),
    // Sorted by one integer key (series_id below 2^21, ts below 2^42) so rows land in b-tree order;
    // the order only matters for speed, since a series' rows here never collide.
    moveRecent: db.prepare(
      `INSERT OR REPLACE INTO samples (series_id, ts, value)
       SELECT series_id, ts, value FROM samples_recent ORDER BY (series_id << 42) + ts`,
    ),
    clearRecent: db.prepare('DELETE FROM samples_recent'),
    countRecent: db.prepare('SELECT count(*) FROM samples_recent').pluck(),
    lastTs: db.prepare('SELECT max(ts) FROM samples WHERE series_id = ?').pluck(),
    insertSeries: db.prepare(
      `INSERT INTO series (tenant, host, service, metric, labels) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (tenant, host, service, metric, labels) DO UPDATE SET metric = excluded.metric
       RETURNING ${SERIES_COLUMNS}`,
    ),
    updateSeries: db.prepare(
      'UPDATE series SET step_ms = ?, rolled_5m_until = ?, rolled_1h_until = ? WHERE id = ?',
    ),
    insertRollup5m: db.prepare(
      'INSERT OR REPLACE INTO rollup_5m (series_id, bucket, min, max, avg, count) VALUES (?, ?, ?, ?, ?, ?)',
    ),
    roll5m: db.prepare(
      `INSERT OR REPLACE INTO rollup_5m (series_id, bucket, min, max, avg, count)
       SELECT series_id, ts - ts % ${FIVE_MIN}, min(value), max(value), avg(value), count(*) FROM samples
       WHERE series_id = ? AND ts >= ? AND ts < ? GROUP BY 1, 2`,
    ),
    roll1h: db.prepare(
      `INSERT OR REPLACE INTO rollup_1h (series_id, bucket, min, max, avg, count)
       SELECT series_id, bucket - bucket % ${HOUR}, min(min), max(max), sum(avg * count) / sum(count), sum(count)
       FROM rollup_5m WHERE series_id = ? AND bucket >= ? AND bucket < ? GROUP BY 1, 2`,
    ),
    allSeries: db.prepare(`SELECT tenant, ${SERIES_COLUMNS} FROM series`),
    seriesOf: db.prepare(
      `SELECT ${SERIES_COLUMNS} FROM series WHERE tenant = ? AND host = ? AND metric = ? ORDER BY service, labels`,
    ),
    seriesOfService: db.prepare(
      `SELECT ${SERIES_COLUMNS} FROM series WHERE tenant = ? AND host = ? AND service = ? AND metric = ? ORDER BY labels`,
    ),
    latest: db.prepare('SELECT ts, value FROM samples WHERE series_id = ? ORDER BY ts DESC LIMIT 1').raw(),
    latestRecent: db
      .prepare(`SELECT series_id, max(ts), value FROM samples_recent WHERE ${IN_IDS} GROUP BY series_id`)
      .raw(),
    seriesIds: db.prepare('SELECT id FROM series').pluck(),
    deleteSamples: db.prepare('DELETE FROM samples WHERE series_id = ? AND ts < ?'),
    deleteRecent: db.prepare('DELETE FROM samples_recent WHERE ts < ?'),
    delete5m: db.prepare('DELETE FROM rollup_5m WHERE series_id = ? AND bucket <= ?'),
    delete1h: db.prepare('DELETE FROM rollup_1h WHERE series_id = ? AND bucket <= ?'),
    ping: db.prepare('SELECT 1'),
  };

  // Read statements per table and aggregate, prepared on first use; each row is [bucket, value, count].
  const readStmts = new Map<string, Database.Statement>();
  function readStmt(kind: Table | 'recent', agg: Aggregate, grouped: boolean): Database.Statement {
    const key = `${kind}:${agg}:${grouped}`;
    let s = readStmts.get(key);
    if (s) return s;
    const a = AGG_SQL[agg];
    const table = kind === '5m' ? 'rollup_5m' : 'rollup_1h';
    const sql =
      kind === 'raw'
        ? `SELECT ts - ts % ? AS b, ${a.raw}, count(*) FROM samples WHERE series_id = ? AND ts >= ? AND ts < ? GROUP BY b`
        : kind === 'recent'
          ? `SELECT series_id, ts - ts % ? AS b, ${a.raw}, count(*) FROM samples_recent
             WHERE ts >= ? AND ts < ? AND ${IN_IDS} GROUP BY series_id, b`
          : grouped
            ? `SELECT bucket - bucket % ? AS b, ${a.grouped}, sum(count) FROM ${table}
               WHERE series_id = ? AND bucket >= ? AND bucket < ? GROUP BY b`
            : `SELECT bucket, ${a.rollup}, count FROM ${table} WHERE series_id = ? AND bucket >= ? AND bucket < ?`;
    s = db.prepare(sql).raw();
    readStmts.set(key, s);
    return s;
  }

  /** `tenant\0host\0service` -> (`metric` or `metric{labels}`) -> state. */
  let cache = new Map<string, Map<string, SeriesState>>();
  /** Rows in samples_recent, counting those still in `pending`. */
  let recentRows = 0;

  // Appends to samples_recent go out CHUNK rows per statement; `pending` holds the rest.
  const appendStmts: Database.Statement[] = [];
  const appendOf = (n: number) => {
    let s = appendStmts[n];
    if (!s) {
      s = db.prepare(
        `INSERT INTO samples_recent (series_id, ts, value) VALUES ${Array(n).fill('(?, ?, ?)').join(', ')}`,
      );
      appendStmts[n] = s;
    }
    return s;
  };
  const appendChunk = appendOf(CHUNK);
  const pending: number[] = new Array(CHUNK * 3);
  let pendingLength = 0;
  const flushPending = () => {
    if (pendingLength === 0) return;
    appendOf(pendingLength / 3).run(pending.slice(0, pendingLength));
    pendingLength = 0;
  };
  const moveRecent = () => {
    if (recentRows === 0) return;
    flushPending();
    stmt.moveRecent.run();
    stmt.clearRecent.run();
    recentRows = 0;
  };

  const stateOf = (row: SeriesRow, lastTs?: number): SeriesState => ({
    id: row.id,
    stepMs: row.step_ms,
    rolled5m: row.rolled_5m_until,
    rolled1h: row.rolled_1h_until,
    lastTs,
    prevTs: null,
    openBucket: null,
    exact: false,
    min: 0,
    max: 0,
    sum: 0,
    count: 0,
    sqlFrom: Number.POSITIVE_INFINITY,
    epoch: 0,
    dirty: false,
  });

  /** (Re)builds the in-memory state from the file, with samples_recent moved into samples. */
  function reset() {
    pendingLength = 0;
    recentRows = stmt.countRecent.get() as number;
    db.transaction(moveRecent)();
    cache = new Map();
    for (const row of stmt.allSeries.all() as (SeriesRow & { tenant: string })[]) {
      const prefix = `${row.tenant}\0${row.host}\0${row.service}`;
      let inner = cache.get(prefix);
      if (!inner) {
        inner = new Map();
        cache.set(prefix, inner);
      }
      inner.set(row.labels ? `${row.metric}{${row.labels}}` : row.metric, stateOf(row));
    }
  }
  reset();

  let epoch = 0;
  let queued: SeriesState[] = [];
  const queue = (st: SeriesState) => {
    if (st.epoch === epoch) return;
    st.epoch = epoch;
    queued.push(st);
  };

  /**
   * A sample newer than any of its series: appended to samples_recent and to the running aggregate
   * of its 5-min bucket. Reaching a later bucket closes the open one: its aggregate goes straight to
   * rollup_5m (no read), or, when not exact, the bucket is queued for aggregation from samples.
   */
  function appendSample(st: SeriesState, lastTs: number, ts: number, v: number) {
    pending[pendingLength++] = st.id;
    pending[pendingLength++] = ts;
    pending[pendingLength++] = v;
    if (pendingLength === CHUNK * 3) {
      appendChunk.run(pending);
      pendingLength = 0;
    }
    recentRows++;
    const bucket = ts - (ts % FIVE_MIN);
    if (bucket === st.openBucket) {
      if (v < st.min) st.min = v;
      if (v > st.max) st.max = v;
      st.sum += v;
      st.count++;
      return;
    }
    if (st.openBucket !== null) {
      if (st.exact)
        stmt.insertRollup5m.run(st.id, st.openBucket, st.min, st.max, st.sum / st.count, st.count);
      else if (st.openBucket < st.sqlFrom) st.sqlFrom = st.openBucket;
    } else if (st.rolled5m !== null && st.rolled5m < bucket && st.rolled5m < st.sqlFrom) {
      // The bucket an earlier run of the store left open.
      st.sqlFrom = st.rolled5m;
    }
    st.openBucket = bucket;
    st.exact = lastTs < bucket;
    st.min = v;
    st.max = v;
    st.sum = v;
    st.count = 1;
    if (st.rolled1h === null) st.rolled1h = bucket - (bucket % HOUR);
    st.rolled5m = bucket;
    st.dirty = true;
    queue(st);
  }

  /** A rewrite or an out-of-order sample: replaced in place in samples, its bucket aggregated again. */
  function replaceSample(st: SeriesState, ts: number, v: number) {
    // samples_recent must never hold a row older than one of the same series in samples.
    moveRecent();
    stmt.insertSample.run(st.id, ts, v);
    const bucket = ts - (ts % FIVE_MIN);
    if (bucket === st.openBucket) st.exact = false;
    else if (st.rolled5m !== null && bucket < st.rolled5m) {
      if (bucket < st.sqlFrom) st.sqlFrom = bucket;
      queue(st);
    }
  }

  /**
   * End-of-call work of one series: closed buckets that need it are aggregated from samples, closed
   * hours from rollup_5m, and the boundaries persisted when they moved.
   */
  function finishSeries(st: SeriesState) {
    const rolled5m = st.rolled5m!;
    const old1 = st.rolled1h!;
    let from1 = old1;
    if (st.sqlFrom < rolled5m) {
      moveRecent();
      stmt.roll5m.run(st.id, st.sqlFrom, rolled5m);
      from1 = Math.min(from1, st.sqlFrom - (st.sqlFrom % HOUR));
    }
    st.sqlFrom = Number.POSITIVE_INFINITY;
    const new1 = rolled5m - (rolled5m % HOUR);
    if (from1 < new1) stmt.roll1h.run(st.id, from1, new1);
    if (new1 > old1) {
      st.rolled1h = new1;
      st.dirty = true;
    }
    if (st.dirty) {
      stmt.updateSeries.run(st.stepMs, st.rolled5m, st.rolled1h, st.id);
      st.dirty = false;
    }
  }

  const writeTx = db.transaction((batches: readonly MetricBatch[]): number => {
    epoch++;
    queued = [];
    let samples = 0;
    for (const batch of batches) {
      const service = batch.service ?? '';
      const prefix = `${batch.tenant}\0${batch.host}\0${service}`;
      let inner = cache.get(prefix);
      if (!inner) {
        inner = new Map();
        cache.set(prefix, inner);
      }
      for (const s of batch.samples) {
        const labels = s.l ? canonicalLabels(s.l) : '';
        const key = labels ? `${s.m}{${labels}}` : s.m;
        let st = inner.get(key);
        if (!st) {
          const row = stmt.insertSeries.get(batch.tenant, batch.host, service, s.m, labels) as SeriesRow;
          st = stateOf(row, row.rolled_5m_until === null ? Number.NEGATIVE_INFINITY : undefined);
          inner.set(key, st);
        }
        let lastTs = st.lastTs;
        if (lastTs === undefined) {
          lastTs = (stmt.lastTs.get(st.id) as number | null) ?? Number.NEGATIVE_INFINITY;
          st.lastTs = lastTs;
        }
        const ts = s.t ?? batch.ts;
        if (ts > lastTs) {
          st.lastTs = ts;
          appendSample(st, lastTs, ts, s.v);
        } else replaceSample(st, ts, s.v);
        const prev = st.prevTs;
        if (prev !== null && prev !== ts) {
          const gap = ts > prev ? ts - prev : prev - ts;
          if (st.stepMs === null || gap < st.stepMs) {
            st.stepMs = gap;
            st.dirty = true;
            queue(st);
          }
        }
        st.prevTs = ts;
      }
      samples += batch.samples.length;
    }
    if (recentRows >= RECENT_CAP) moveRecent();
    for (const st of queued) finishSeries(st);
    flushPending();
    return samples;
  });

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
    const width = acc.grid.widthMs;
    if (table !== 'raw' && width === RESOLUTION[table]) {
      const bucketsOf = bucketStmts[table].all(id, from, to) as number[];
      const values = valueStmt(table, acc.agg).all(id, from, to) as number[];
      for (let i = 0; i < bucketsOf.length; i++) {
        if (acc.agg === 'count') acc.add(bucketsOf[i]!, 0, values[i]!);
        else acc.add(bucketsOf[i]!, values[i]!, 1);
      }
      return;
    }
    const grouped = table === 'raw' || width >= 4 * RESOLUTION[table];
    const s = readStmt(table, acc.agg, grouped);
    const rows = (grouped ? s.all(width, id, from, to) : s.all(id, from, to)) as number[][];
    for (const r of rows) acc.add(r[0]!, r[1]!, r[2]!);
  }

  function runQuery(q: SeriesQuery): ChartData {
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
    const buckets = new Map<number, Buckets>();
    // Rollups before each series' boundary, raw samples after it (so the open bucket is never missed).
    let recentFrom = to;
    for (const r of rows) {
      const acc = new Buckets(grid, agg);
      buckets.set(r.id, acc);
      if (grid.count === 0) continue;
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
      recentFrom = Math.min(recentFrom, table === 'raw' ? from : b5);
    }
    if (recentFrom < to) {
      // samples_recent may hold rows of buckets already rolled up: for the rollup tables read it by
      // 5-min bucket and keep only the buckets at or after each series' boundary.
      const boundary = new Map<number, number>();
      for (const r of rows) boundary.set(r.id, table === 'raw' ? from : (r.rolled_5m_until ?? from));
      const width = table === 'raw' ? grid.widthMs : FIVE_MIN;
      const ids = JSON.stringify(rows.map((r) => r.id));
      for (const r of readStmt('recent', agg, true).all(width, recentFrom, to, ids) as number[][]) {
        if (r[1]! >= boundary.get(r[0]!)!) buckets.get(r[0]!)!.add(r[1]!, r[2]!, r[3]!);
      }
    }
    const name = fieldNamer(q.series);
    return chartData(
      grid,
      rows.map((r) => {
        const field = name({
          host: r.host,
          service: r.service,
          metric: r.metric,
          labels: parseCanonicalLabels(r.labels),
        });
        return [field, buckets.get(r.id)!.values()] as const;
      }),
    );
  }

  function runLatest(selector: SeriesSelector): LatestSample[] {
    const rows = matchSeries(selector);
    if (rows.length === 0) return [];
    const recent = new Map<number, number[]>();
    for (const r of stmt.latestRecent.all(JSON.stringify(rows.map((r) => r.id))) as number[][]) {
      recent.set(r[0]!, [r[1]!, r[2]!]);
    }
    const out: LatestSample[] = [];
    for (const r of rows) {
      const last = recent.get(r.id) ?? (stmt.latest.get(r.id) as number[] | undefined);
      if (!last) continue;
      out.push({
        host: r.host,
        ...(r.service ? { service: r.service } : {}),
        metric: r.metric,
        labels: parseCanonicalLabels(r.labels),
        ts: last[0]!,
        value: last[1]!,
      });
    }
    return out;
  }

  // Reads run in one transaction: boundaries, rollups and samples from one snapshot of the file.
  const queryTx = db.transaction(runQuery);
  const latestTx = db.transaction(runLatest);

  let closed = false;
  let retentionTimer: NodeJS.Timeout | undefined;

  const store: MetricStore = {
    kind: 'sqlite',

    async write(batches, options) {
      const valid = options?.validated ? batches : validateBatches(batches);
      try {
        return { batches: valid.length, samples: writeTx(valid) };
      } catch (err) {
        // The transaction rolled back; the per-series state in memory may be ahead of the file.
        if (db.open) reset();
        throw err;
      }
    },

    async query(q) {
      return queryTx(q);
    },

    async latest(selector) {
      return latestTx(selector);
    },

    async retention(days) {
      if (!Number.isFinite(days) || days < 0) {
        throw new RangeError(`retention days must be >= 0, got ${days}`);
      }
      const cutoff = Date.now() - days * DAY;
      const run = db.transaction(() => {
        flushPending();
        let deleted = stmt.deleteRecent.run(cutoff).changes;
        recentRows -= deleted;
        for (const id of stmt.seriesIds.all() as number[]) {
          deleted += stmt.deleteSamples.run(id, cutoff).changes;
          // A rollup bucket goes once it lies wholly before the cutoff.
          stmt.delete5m.run(id, cutoff - FIVE_MIN);
          stmt.delete1h.run(id, cutoff - HOUR);
        }
        stmt.deleteDeadLetters.run(cutoff);
        return deleted;
      });
      return { deleted: run() };
    },

    async deadLetter(entry) {
      const row = deadLetterRow(entry);
      stmt.insertDeadLetter.run(row.at, row.reason, row.payload, row.truncated ? 1 : 0);
    },

    async deadLetters(options = {}) {
      const limit = Math.max(1, Math.min(10_000, Math.floor(options.limit ?? 100)));
      const rows = stmt.deadLetters.all(limit) as {
        at: number;
        reason: string;
        payload: string;
        truncated: number;
      }[];
      return rows.map((r) => ({
        at: r.at,
        reason: r.reason,
        payload: r.payload,
        truncated: r.truncated === 1,
      }));
    },

    async health(): Promise<ComponentHealth> {
      try {
        stmt.ping.get();
        return { state: 'ok' };
      } catch (err) {
        return { state: 'down', detail: err instanceof Error ? err.message : String(err) };
      }
    },

    async close() {
      if (closed) return;
      closed = true;
      clearInterval(retentionTimer);
      db.transaction(moveRecent)();
      db.close();
    },
  };

  if (options.retentionDays !== undefined) {
    const days = options.retentionDays;
    const run = () => void store.retention(days).catch(() => {});
    run();
    retentionTimer = setInterval(run, HOUR);
    retentionTimer.unref();
  }
  return store;
}
