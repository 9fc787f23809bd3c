import type { Labels, MetricBatch } from '@flightdeck/schemas';
import type Database from 'better-sqlite3';
import { canonicalLabels } from './contract';
import { LogBlob } from './sqlite-codec';
import type { RawSamples } from './sqlite-segments';
import { FIVE_MIN, HOUR, parseCanonicalLabels, SERIES_COLUMNS, type SeriesRow } from './sqlite-shared';

/**
 * The log is checkpointed into segments once it holds CHECKPOINT_POINTS points per series written
 * since the last checkpoint, within these bounds (and when the writing store closes, and before
 * retention): fewer, larger segments cost less to write and to merge, while the log and the tails
 * cost about 36 bytes a sample in every store on the file.
 */
const CHECKPOINT_MIN = 250_000;
const CHECKPOINT_MAX = 1_000_000;
const CHECKPOINT_POINTS = 64;

/**
 * Per-series state kept in memory by the writing store, so the write path never reads. Number fields
 * written per sample use NaN for "none" rather than null: a field that only ever holds numbers is
 * updated in place, one that may hold null boxes every new value.
 */
interface SeriesState {
  id: number;
  /** Smallest gap seen between two samples; NaN before the second sample. */
  stepMs: number;
  /** Start of the first 5-min bucket not yet in rollup_5m (null before the first sample). */
  rolled5m: number | null;
  /** Start of the first hour not yet in rollup_1h. */
  rolled1h: number | null;
  /** Newest ts stored for the series; NaN until looked up once after open. */
  lastTs: number;
  /** ts of the series' previous sample in this run; NaN before the first. */
  prevTs: number;
  /**
   * Running aggregate of the open 5-min bucket `openBucket`, written to rollup_5m when the bucket
   * closes (NaN: none yet). Not `exact` when it may miss samples (written before open, or replaced
   * in place); the bucket is then aggregated from the raw samples instead.
   */
  openBucket: number;
  exact: boolean;
  min: number;
  max: number;
  sum: number;
  count: number;
  /** Earliest 5-min bucket to aggregate from raw samples at the end of the write call. */
  rawFrom: number;
  /** Write call that last queued the series for the end-of-call work. */
  epoch: number;
  /** Checkpoint interval in which the series was last written (counts the series written). */
  interval: number;
  dirty: boolean;
}

/**
 * The series of one metric of one (tenant, host, service), found without building a key string:
 * most series have no label or one label of the same name (`dev`, `mount`), looked up by value.
 */
interface MetricSeries {
  plain: SeriesState | undefined;
  /** The label name of `byValue`: the name of the first one-label series seen. */
  key: string | undefined;
  byValue: Map<string, SeriesState>;
  /** Every other label set, by canonical labels. */
  other: Map<string, SeriesState>;
}

/**
 * The series of the last batch of one (tenant, host, service), by sample index. An agent sends the
 * same series in the same order every time, so most samples are recognised by comparing their
 * metric and label value with those of the sample at the same place last time, which costs less
 * than hashing the strings for the maps.
 */
interface BatchShape {
  metric: string[];
  /** The one label's name; undefined without labels; MANY_LABELS for several. */
  key: (string | undefined)[];
  value: (string | undefined)[];
  state: SeriesState[];
}

/** Never a label name: samples with several labels are looked up in the maps. */
const MANY_LABELS = '\0';

/**
 * Rows written by one multi-row statement, up to `max` at a time: one statement for 32 rows costs
 * about a third of 32 statements. `flush` writes the rest.
 */
class RowBuffer {
  private readonly values: unknown[] = [];
  private rows = 0;
  private readonly statements: Database.Statement[] = [];
  constructor(
    private readonly db: Database.Database,
    private readonly sql: (rows: string) => string,
    private readonly width: number,
    private readonly max = 32,
  ) {}

  add(...row: unknown[]): void {
    for (const v of row) this.values.push(v);
    if (++this.rows === this.max) this.flush();
  }

  flush(): void {
    const n = this.rows;
    if (n === 0) return;
    let s = this.statements[n];
    if (!s) {
      const one = `(${Array(this.width).fill('?').join(', ')})`;
      s = this.db.prepare(this.sql(Array(n).fill(one).join(', ')));
      this.statements[n] = s;
    }
    s.run(this.values);
    this.values.length = 0;
    this.rows = 0;
  }

  /** Forgets rows not written (their transaction rolled back). */
  clear(): void {
    this.values.length = 0;
    this.rows = 0;
  }
}

/** The writing side of the SQLite store: see {@link createSqliteWriter}. */
export interface SqliteWriter {
  /** Writes valid batches in one transaction; returns how many samples. */
  write(batches: readonly MetricBatch[]): number;
  /** True once a write went through: the store then checkpoints what the log holds when it closes. */
  readonly wrote: boolean;
}

/**
 * Writes batches: each sample goes into the call's log row and into the running aggregate of its
 * series' open 5-min bucket (rollup_5m gets a row as a bucket closes), so a write reads nothing
 * and costs no SQLite row per sample. Checkpoints the log when it is due.
 */
export function createSqliteWriter(db: Database.Database, raw: RawSamples): SqliteWriter {
  const stmt = {
    insertSeries: db.prepare(
      `INSERT INTO series (tenant, host, service, metric, labels) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (tenant, host, service, metric, labels) DO UPDATE SET metric = excluded.metric
       RETURNING ${SERIES_COLUMNS}`,
    ),
    roll1h: db.prepare(
      `INSERT OR REPLACE INTO rollup_1h (series_id, bucket, min, max, avg, count)
       SELECT series_id, bucket - bucket % ${HOUR}, min(min), max(max), sum(avg * count) / sum(count), sum(count)
       FROM rollup_5m WHERE series_id = ? AND bucket >= ? AND bucket < ? GROUP BY 1, 2`,
    ),
    allSeries: db.prepare(`SELECT tenant, ${SERIES_COLUMNS} FROM series`),
  };
  // Written in batches; flushed before anything of the call reads rollup_5m, and at its end.
  const rollups5m = new RowBuffer(
    db,
    (rows) => `INSERT OR REPLACE INTO rollup_5m (series_id, bucket, min, max, avg, count) VALUES ${rows}`,
    6,
  );
  const seriesUpdates = new RowBuffer(
    db,
    (rows) => `UPDATE series SET step_ms = v.column2, rolled_5m_until = v.column3, rolled_1h_until = v.column4
               FROM (VALUES ${rows}) AS v WHERE series.id = v.column1`,
    4,
  );

  /**
   * The writer's series: `tenant\0host\0service` -> metric -> series. Built on the first write (a
   * store that only reads never needs it) and again after a write failed.
   */
  let cache: Map<string, Map<string, MetricSeries>> | null = null;
  let shapes = new Map<string, BatchShape>();
  let byId = new Map<number, SeriesState>();
  let wrote = false;
  const log = new LogBlob();

  const stateOf = (row: SeriesRow, lastTs = Number.NaN): SeriesState => ({
    id: row.id,
    stepMs: row.step_ms ?? Number.NaN,
    rolled5m: row.rolled_5m_until,
    rolled1h: row.rolled_1h_until,
    lastTs,
    prevTs: Number.NaN,
    openBucket: Number.NaN,
    exact: false,
    min: 0,
    max: 0,
    sum: 0,
    count: 0,
    rawFrom: Number.POSITIVE_INFINITY,
    epoch: 0,
    interval: -1,
    dirty: false,
  });

  const metricsOfPrefix = (prefix: string): Map<string, MetricSeries> => {
    let metrics = cache!.get(prefix);
    if (!metrics) {
      metrics = new Map();
      cache!.set(prefix, metrics);
    }
    return metrics;
  };

  /** Files a series under its metric, by the rule the write loop looks it up with. */
  function place(
    metrics: Map<string, MetricSeries>,
    metric: string,
    labels: Labels | undefined,
    st: SeriesState,
  ) {
    let node = metrics.get(metric);
    if (!node) {
      node = { plain: undefined, key: undefined, byValue: new Map(), other: new Map() };
      metrics.set(metric, node);
    }
    const keys = labels ? Object.keys(labels) : [];
    if (keys.length === 0) node.plain = st;
    else if (keys.length === 1 && (node.key ?? keys[0]) === keys[0]) {
      node.key = keys[0];
      node.byValue.set(labels![keys[0]!]!, st);
    } else node.other.set(canonicalLabels(labels), st);
  }

  function buildCache(): Map<string, Map<string, MetricSeries>> {
    cache = new Map();
    byId = new Map();
    for (const row of stmt.allSeries.all() as (SeriesRow & { tenant: string })[]) {
      const st = stateOf(row);
      byId.set(row.id, st);
      place(
        metricsOfPrefix(`${row.tenant}\0${row.host}\0${row.service}`),
        row.metric,
        parseCanonicalLabels(row.labels),
        st,
      );
    }
    return cache;
  }

  /** The series of a sample the cache does not hold: created (or found, when filed under another key). */
  function addSeries(
    batch: MetricBatch,
    service: string,
    metrics: Map<string, MetricSeries>,
    m: string,
    l: Labels | undefined,
  ) {
    const row = stmt.insertSeries.get(batch.tenant, batch.host, service, m, canonicalLabels(l)) as SeriesRow;
    let st = byId.get(row.id);
    if (!st) {
      st = stateOf(row, row.rolled_5m_until === null ? Number.NEGATIVE_INFINITY : undefined);
      byId.set(row.id, st);
    }
    place(metrics, m, l, st);
    return st;
  }

  /** Forgets the in-memory state after a failed write: the transaction rolled back, memory may be ahead. */
  function reset() {
    rollups5m.clear();
    seriesUpdates.clear();
    cache = null;
    shapes = new Map();
    byId = new Map();
    raw.view.reset(-1);
  }

  let epoch = 0;
  let queued: SeriesState[] = [];
  /** Checkpoints made by this store, and the series written since the last one. */
  let interval = 0;
  let seriesWritten = 0;
  const queue = (st: SeriesState) => {
    if (st.epoch === epoch) return;
    st.epoch = epoch;
    queued.push(st);
  };

  /**
   * A sample newer than any of its series: added to the running aggregate of its 5-min bucket.
   * Reaching a later bucket closes the open one: its aggregate goes straight to rollup_5m (no
   * read), or, when not exact, the bucket is queued for aggregation from the raw samples.
   */
  function appendSample(st: SeriesState, lastTs: number, ts: number, v: number) {
    const bucket = ts - (ts % FIVE_MIN);
    if (bucket === st.openBucket) {
      if (v < st.min) st.min = v;
      if (v > st.max) st.max = v;
      st.sum += v;
      st.count++;
      return;
    }
    if (!Number.isNaN(st.openBucket)) {
      if (st.exact) rollups5m.add(st.id, st.openBucket, st.min, st.max, st.sum / st.count, st.count);
      else if (st.openBucket < st.rawFrom) st.rawFrom = st.openBucket;
    } else if (st.rolled5m !== null && st.rolled5m < bucket && st.rolled5m < st.rawFrom) {
      // The bucket an earlier run of the store left open.
      st.rawFrom = st.rolled5m;
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

  /** A rewrite or an out-of-order sample: its bucket is aggregated again. */
  function replaceSample(st: SeriesState, ts: number) {
    const bucket = ts - (ts % FIVE_MIN);
    if (bucket === st.openBucket) st.exact = false;
    else if (st.rolled5m !== null && bucket < st.rolled5m) {
      if (bucket < st.rawFrom) st.rawFrom = bucket;
      queue(st);
    }
  }

  /** rollup_5m rows of [from, to) from the raw samples (the buckets that have any). */
  function rollFromRaw(id: number, from: number, to: number) {
    let bucket = Number.NaN;
    let min = 0;
    let max = 0;
    let sum = 0;
    let count = 0;
    const flush = () => {
      if (count > 0) rollups5m.add(id, bucket, min, max, sum / count, count);
    };
    raw.read(id, from, to, (ts, v) => {
      const b = ts - (ts % FIVE_MIN);
      if (b !== bucket) {
        flush();
        bucket = b;
        min = v;
        max = v;
        sum = v;
        count = 1;
        return;
      }
      if (v < min) min = v;
      if (v > max) max = v;
      sum += v;
      count++;
    });
    flush();
  }

  /**
   * End-of-call work of one series: closed buckets that need it are aggregated from raw samples,
   * closed hours from rollup_5m, and the boundaries persisted when they moved.
   */
  function finishSeries(st: SeriesState) {
    const rolled5m = st.rolled5m!;
    const old1 = st.rolled1h!;
    let from1 = old1;
    if (st.rawFrom < rolled5m) {
      rollFromRaw(st.id, st.rawFrom, rolled5m);
      from1 = Math.min(from1, st.rawFrom - (st.rawFrom % HOUR));
    }
    st.rawFrom = Number.POSITIVE_INFINITY;
    const new1 = rolled5m - (rolled5m % HOUR);
    if (from1 < new1) {
      rollups5m.flush();
      stmt.roll1h.run(st.id, from1, new1);
    }
    if (new1 > old1) {
      st.rolled1h = new1;
      st.dirty = true;
    }
    if (st.dirty) {
      seriesUpdates.add(st.id, Number.isNaN(st.stepMs) ? null : st.stepMs, st.rolled5m, st.rolled1h);
      st.dirty = false;
    }
  }

  const writeTx = db.transaction((batches: readonly MetricBatch[]): number => {
    raw.sync();
    const series = cache ?? buildCache();
    epoch++;
    queued = [];
    let total = 0;
    for (const batch of batches) total += batch.samples.length;
    // The call's samples go into the log row as they are read, with no object per sample.
    log.begin(total);
    const logTs = log.ts;
    const logValues = log.values;
    const logIds = log.ids;
    let n = 0;
    for (const batch of batches) {
      const service = batch.service ?? '';
      const prefix = `${batch.tenant}\0${batch.host}\0${service}`;
      let metrics = series.get(prefix);
      if (!metrics) {
        metrics = new Map();
        series.set(prefix, metrics);
      }
      let shape = shapes.get(prefix);
      if (!shape) {
        shape = { metric: [], key: [], value: [], state: [] };
        shapes.set(prefix, shape);
      }
      const samples = batch.samples;
      for (let i = 0; i < samples.length; i++) {
        const s = samples[i]!;
        const l = s.l;
        let first: string | undefined;
        let labelCount = 0;
        if (l !== undefined)
          for (const k in l) {
            if (labelCount++ === 0) first = k;
            else break;
          }
        const value = labelCount === 1 ? l![first!] : undefined;
        // The series of the sample at this place last time when it is the same one, else the maps'.
        let st: SeriesState | undefined;
        if (
          s.m === shape.metric[i] &&
          (labelCount === 1
            ? first === shape.key[i] && value === shape.value[i]
            : labelCount === 0 && shape.key[i] === undefined)
        )
          st = shape.state[i]!;
        else {
          const node = metrics.get(s.m);
          if (node !== undefined) {
            if (labelCount === 0) st = node.plain;
            else if (labelCount === 1 && first === node.key) st = node.byValue.get(value!);
            else st = node.other.get(canonicalLabels(l));
          }
          if (st === undefined) st = addSeries(batch, service, metrics, s.m, labelCount ? l : undefined);
          shape.metric[i] = s.m;
          shape.key[i] = labelCount === 0 ? undefined : labelCount === 1 ? first : MANY_LABELS;
          shape.value[i] = value;
          shape.state[i] = st;
        }
        const ts = s.t ?? batch.ts;
        const v = s.v;
        logTs[n] = ts;
        logValues[n] = v;
        logIds[n++] = st.id;
        if (st.interval !== interval) {
          st.interval = interval;
          seriesWritten++;
        }
        let lastTs = st.lastTs;
        if (Number.isNaN(lastTs)) {
          lastTs = raw.lastTs(st.id);
          st.lastTs = lastTs;
        }
        if (ts > lastTs) {
          st.lastTs = ts;
          appendSample(st, lastTs, ts, v);
        } else replaceSample(st, ts);
        const prev = st.prevTs;
        if (prev !== ts && !Number.isNaN(prev)) {
          const gap = ts > prev ? ts - prev : prev - ts;
          // True as well while stepMs is NaN (no gap seen yet).
          if (!(gap >= st.stepMs)) {
            st.stepMs = gap;
            st.dirty = true;
            queue(st);
          }
        }
        st.prevTs = ts;
      }
    }
    if (total > 0) raw.appendLog(log);
    for (const st of queued) finishSeries(st);
    rollups5m.flush();
    seriesUpdates.flush();
    const due = Math.min(CHECKPOINT_MAX, Math.max(CHECKPOINT_MIN, CHECKPOINT_POINTS * seriesWritten));
    if (raw.view.samples >= due) {
      raw.checkpoint();
      interval++;
      seriesWritten = 0;
    }
    return total;
  });

  return {
    write(batches) {
      try {
        // IMMEDIATE: the log rows read at the start stay the newest until the commit.
        const samples = writeTx.immediate(batches);
        wrote = true;
        return samples;
      } catch (err) {
        if (db.open) reset();
        throw err;
      }
    },
    get wrote() {
      return wrote;
    },
  };
}
