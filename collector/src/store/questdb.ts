import type { ChartData, MetricBatch } from '@flightdeck/schemas';
import { Sender } from '@questdb/nodejs-client';
import pg from 'pg';
import {
  type Aggregate,
  type ComponentHealth,
  canonicalLabels,
  type DeadLetter,
  type DeadLetterInput,
  deadLetterRow,
  type LatestSample,
  type MetricStore,
  type SeriesQuery,
  type SeriesSelector,
} from './contract';
import {
  chartData,
  fieldNamer,
  type Grid,
  labelsMatch,
  metricsOf,
  parseCanonicalLabels,
  planGrid,
  validateBatches,
} from './sqlite';

const DAY = 86_400_000;

export interface QuestdbStoreOptions {
  /** ILP over HTTP endpoint, e.g. `http://127.0.0.1:9000` (credentials in the URL are used). */
  httpUrl: string;
  /** PostgreSQL wire endpoint for reads; QuestDB's defaults are port 8812, admin/quest, database qdb. */
  pg: { host: string; port?: number; user?: string; password?: string; database?: string };
  /** Table name, `metrics` by default. */
  table?: string;
  /** Bound of one ILP flush (ms); the client's own retries stop sooner. Default 15,000. */
  flushTimeoutMs?: number;
  /**
   * Resolve `write` and `retention` only once QuestDB applied them, so a read right after sees them
   * (WAL tables apply asynchronously). Costs a round trip per write; meant for tests.
   */
  waitVisible?: boolean;
}

/** Anything that takes ILP rows the way the client's Sender does (a fake in tests). */
export interface IlpSink {
  table(name: string): IlpSink;
  symbol(name: string, value: string): IlpSink;
  floatColumn(name: string, value: number): IlpSink;
  at(timestamp: number, unit: 'ms'): Promise<void> | void;
}

export interface QuestRow {
  ts: string | Date | number;
  tenant: string;
  host: string;
  service: string | null;
  metric: string;
  labels: string | null;
  value: number | string | null;
}

// ---------------------------------------------------------------------------------------------------
// Pure pieces: configuration, SQL, ILP rows and row -> chart shaping (tested without a server).
// ---------------------------------------------------------------------------------------------------

const TABLE_NAME_RE = /^[A-Za-z_][A-Za-z0-9_]{0,126}$/;

/** Sender configuration string for ILP over HTTP; protocol_version=2 so creation does not call the server. */
export function senderConfig(httpUrl: string, flushTimeoutMs = 15_000): string {
  const url = new URL(httpUrl);
  const scheme = url.protocol.replace(/:$/, '');
  if (scheme !== 'http' && scheme !== 'https')
    throw new Error(`QuestDB httpUrl must be http(s), got ${httpUrl}`);
  const port = url.port || '9000';
  const timeout = Math.max(1_000, Math.floor(flushTimeoutMs * 0.6));
  const parts = [
    `${scheme}::addr=${url.hostname}:${port}`,
    'protocol_version=2',
    'auto_flush=off',
    `request_timeout=${timeout}`,
    `retry_timeout=${timeout}`,
  ];
  // A ';' inside a value is written twice in the config string.
  const value = (v: string) => decodeURIComponent(v).replace(/;/g, ';;');
  if (url.username) parts.push(`username=${value(url.username)}`, `password=${value(url.password)}`);
  return `${parts.join(';')};`;
}

export function createTableSql(table: string): string {
  return (
    `CREATE TABLE IF NOT EXISTS ${table} (ts TIMESTAMP, tenant SYMBOL, host SYMBOL, service SYMBOL, ` +
    'metric SYMBOL, labels SYMBOL, value DOUBLE) TIMESTAMP(ts) PARTITION BY DAY WAL ' +
    // service is part of a series' identity, as in the SQLite store.
    'DEDUP UPSERT KEYS(ts, tenant, host, service, metric, labels)'
  );
}

/** The table of batches the collector refused (DESIGN: dead letters), beside the metrics table. */
export const DEAD_LETTER_TABLE = 'dead_letters';

export function createDeadLetterTableSql(): string {
  return (
    `CREATE TABLE IF NOT EXISTS ${DEAD_LETTER_TABLE} (at TIMESTAMP, reason STRING, payload STRING, ` +
    'truncated BOOLEAN) TIMESTAMP(at) PARTITION BY DAY WAL'
  );
}

/** The INSERT of one dead letter, values bound (QuestDB takes PostgreSQL wire parameters). */
export function deadLetterInsert(
  entry: DeadLetterInput,
  now = Date.now(),
): { text: string; values: unknown[] } {
  const row = deadLetterRow(entry, now);
  return {
    text: `INSERT INTO ${DEAD_LETTER_TABLE} (at, reason, payload, truncated) VALUES ($1, $2, $3, $4)`,
    values: [new Date(row.at).toISOString(), row.reason, row.payload, row.truncated],
  };
}

export function deadLettersSql(limit: number): string {
  const n = Math.max(1, Math.min(10_000, Math.floor(limit)));
  return `SELECT at, reason, payload, truncated FROM ${DEAD_LETTER_TABLE} ORDER BY at DESC LIMIT ${n}`;
}

export function shapeDeadLetters(
  rows: readonly {
    at: string | Date | number;
    reason: string;
    payload: string;
    truncated: boolean | string;
  }[],
): DeadLetter[] {
  return rows.map((r) => ({
    at: parseTimestamp(r.at),
    reason: r.reason,
    payload: r.payload,
    truncated: r.truncated === true || r.truncated === 'true' || r.truncated === 't',
  }));
}

/** A SQL string literal. */
export const sqlString = (s: string) => `'${s.replace(/'/g, "''")}'`;
/** A timestamp literal QuestDB reads as UTC. */
export const sqlTimestamp = (ms: number) => `'${new Date(ms).toISOString()}'`;

/** WHERE clause of the series of the selectors (labels are matched after reading). */
export function selectorsWhere(selectors: readonly SeriesSelector[]): string {
  const ors = selectors.map((s) => {
    const parts = [`tenant = ${sqlString(s.tenant)}`, `host = ${sqlString(s.host)}`];
    if (s.service !== undefined) parts.push(`service = ${sqlString(s.service)}`);
    parts.push(`metric IN (${metricsOf(s).map(sqlString).join(', ')})`);
    return `(${parts.join(' AND ')})`;
  });
  return ors.length === 1 ? ors[0]! : `(${ors.join(' OR ')})`;
}

const AGG_SQL: Record<Aggregate, string> = {
  avg: 'avg(value)',
  min: 'min(value)',
  max: 'max(value)',
  sum: 'sum(value)',
  count: 'count()',
};

/** The chart query: one row per (bucket, series), buckets on the grid from `SAMPLE BY ... FROM ... TO`. */
export function chartSql(table: string, q: SeriesQuery, grid: Grid): string {
  const from = sqlTimestamp(grid.firstMs);
  const to = sqlTimestamp(grid.firstMs + grid.count * grid.widthMs);
  return (
    `SELECT ts, tenant, host, service, metric, labels, ${AGG_SQL[q.agg ?? 'avg']} AS value FROM ${table} ` +
    `WHERE ${selectorsWhere(q.series)} AND ts >= ${from} AND ts < ${to} ` +
    `SAMPLE BY ${grid.widthMs / 1000}s FROM ${from} TO ${to} FILL(NULL) ALIGN TO CALENDAR`
  );
}

export function latestSql(table: string, selector: SeriesSelector): string {
  return (
    `SELECT ts, tenant, host, service, metric, labels, value FROM ${table} WHERE ${selectorsWhere([selector])} ` +
    'LATEST ON ts PARTITION BY tenant, host, service, metric, labels'
  );
}

/** Retention drops whole day partitions: those wholly older than `now - days`. */
export function retentionCutoff(now: number, days: number): number {
  const cutoff = now - days * DAY;
  return cutoff - (cutoff % DAY);
}

/** Unix ms of a timestamp as the pg driver hands it over (text without zone means UTC). */
export function parseTimestamp(v: string | Date | number): number {
  if (v instanceof Date) return v.getTime();
  if (typeof v === 'number') return v;
  const m = /^(\d{4}-\d\d-\d\d)[T ](\d\d:\d\d:\d\d)(?:\.(\d+))?(Z|[+-]\d\d(?::?\d\d)?)?$/.exec(v.trim());
  if (!m) return Date.parse(v);
  const frac = (m[3] ?? '').padEnd(3, '0').slice(0, 3);
  return Date.parse(`${m[1]}T${m[2]}.${frac}${m[4] ?? 'Z'}`);
}

const rowMatches = (row: QuestRow, sel: SeriesSelector) =>
  row.tenant === sel.tenant &&
  row.host === sel.host &&
  (sel.service === undefined || (row.service ?? '') === sel.service) &&
  metricsOf(sel).includes(row.metric) &&
  labelsMatch(parseCanonicalLabels(row.labels), sel.labels);

/**
 * Rows of {@link chartSql} to the chart contract: one field per series that matches a selector, in
 * selector order (then metric order, service, labels), null where a bucket has no value.
 */
export function shapeChart(rows: readonly QuestRow[], q: SeriesQuery, grid: Grid): ChartData {
  type Series = { row: QuestRow; rank: number; values: (number | null)[] };
  const series = new Map<string, Series | null>();
  for (const row of rows) {
    const key = `${row.tenant}\0${row.host}\0${row.service ?? ''}\0${row.metric}\0${row.labels ?? ''}`;
    let s = series.get(key);
    if (s === undefined) {
      const sel = q.series.findIndex((x) => rowMatches(row, x));
      s =
        sel < 0
          ? null
          : {
              row,
              rank: sel * 1000 + metricsOf(q.series[sel]!).indexOf(row.metric),
              values: new Array<number | null>(grid.count).fill(null),
            };
      series.set(key, s);
    }
    if (s === null || row.value === null) continue;
    const i = Math.floor((parseTimestamp(row.ts) - grid.firstMs) / grid.widthMs);
    if (i >= 0 && i < grid.count) s.values[i] = Number(row.value);
  }
  const ordered = [...series.values()]
    .filter((x): x is Series => x !== null)
    .sort(
      (a, b) =>
        a.rank - b.rank ||
        (a.row.service ?? '').localeCompare(b.row.service ?? '') ||
        (a.row.labels ?? '').localeCompare(b.row.labels ?? ''),
    );
  const name = fieldNamer(q.series);
  return chartData(
    grid,
    ordered.map(({ row, values }) => {
      const field = name({
        host: row.host,
        service: row.service ?? '',
        metric: row.metric,
        labels: parseCanonicalLabels(row.labels),
      });
      return [field, values] as const;
    }),
  );
}

/** Rows of {@link latestSql} that match the selector's labels. */
export function shapeLatest(rows: readonly QuestRow[], selector: SeriesSelector): LatestSample[] {
  return rows
    .filter((r) => rowMatches(r, selector) && r.value !== null)
    .map((r) => ({
      host: r.host,
      ...(r.service ? { service: r.service } : {}),
      metric: r.metric,
      labels: parseCanonicalLabels(r.labels),
      ts: parseTimestamp(r.ts),
      value: Number(r.value),
    }));
}

/** One ILP row per sample; service and labels are left out (null) when absent. */
export async function appendRows(
  sink: IlpSink,
  table: string,
  batches: readonly MetricBatch[],
): Promise<number> {
  let n = 0;
  for (const b of batches) {
    for (const s of b.samples) {
      const row = sink.table(table).symbol('tenant', b.tenant).symbol('host', b.host);
      if (b.service) row.symbol('service', b.service);
      row.symbol('metric', s.m);
      const labels = canonicalLabels(s.l);
      if (labels) row.symbol('labels', labels);
      await row.floatColumn('value', s.v).at(s.t ?? b.ts, 'ms');
      n++;
    }
  }
  return n;
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`QuestDB ${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

// ---------------------------------------------------------------------------------------------------
// The store.
// ---------------------------------------------------------------------------------------------------

// Timestamps arrive as text and are read as UTC (the driver would read them in local time).
const PG_TIMESTAMP_OIDS = new Set([1114, 1184]);
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    PG_TIMESTAMP_OIDS.has(oid)
      ? (v: string) => v
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/**
 * The metric store at scale (DESIGN section 4): rows written with ILP over HTTP, one flush per group
 * of concurrent writes; read through the PostgreSQL wire with `SAMPLE BY`. Creates the table.
 */
export async function createQuestdbStore(options: QuestdbStoreOptions): Promise<MetricStore> {
  const table = options.table ?? 'metrics';
  if (!TABLE_NAME_RE.test(table)) throw new Error(`invalid QuestDB table name: ${table}`);
  const flushTimeoutMs = options.flushTimeoutMs ?? 15_000;
  const pool = new pg.Pool({
    host: options.pg.host,
    port: options.pg.port ?? 8812,
    user: options.pg.user ?? 'admin',
    password: options.pg.password ?? 'quest',
    database: options.pg.database ?? 'qdb',
    max: 4,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    types: pgTypes,
  });
  pool.on('error', () => {}); // an idle client lost; the next query reconnects
  try {
    await pool.query(createTableSql(table));
  } catch (err) {
    await pool.end().catch(() => {});
    throw new Error(
      `QuestDB at ${options.pg.host}:${options.pg.port ?? 8812} is not usable: ${(err as Error).message}`,
    );
  }
  const sender = await Sender.fromConfig(senderConfig(options.httpUrl, flushTimeoutMs));

  async function waitApplied(deadlineMs = 10_000) {
    const until = Date.now() + deadlineMs;
    const sql = `SELECT writerTxn, sequencerTxn FROM wal_tables() WHERE name = ${sqlString(table)}`;
    while (Date.now() < until) {
      const { rows } = await pool.query<{ writerTxn: string; sequencerTxn: string }>(sql);
      const r = rows[0];
      if (!r || Number(r.writerTxn) >= Number(r.sequencerTxn)) return;
      await new Promise((res) => setTimeout(res, 50));
    }
  }

  // Writes wait in line; each flush carries every write that queued while the previous one was out.
  interface Waiting {
    batches: readonly MetricBatch[];
    resolve: () => void;
    reject: (err: unknown) => void;
  }
  let waiting: Waiting[] = [];
  let flushing: Promise<void> | null = null;
  function pump() {
    if (flushing || waiting.length === 0) return;
    const group = waiting;
    waiting = [];
    flushing = (async () => {
      try {
        for (const w of group) await appendRows(sender as unknown as IlpSink, table, w.batches);
        await withTimeout(sender.flush(), flushTimeoutMs, 'flush');
        if (options.waitVisible) await waitApplied();
        for (const w of group) w.resolve();
      } catch (err) {
        sender.reset();
        for (const w of group) w.reject(err);
      }
    })().finally(() => {
      flushing = null;
      pump();
    });
  }
  async function drain() {
    while (flushing || waiting.length > 0) {
      pump();
      await flushing;
    }
  }

  let closed = false;
  let deadLettersReady: Promise<void> | undefined;
  return {
    kind: 'questdb',

    async write(batches, options) {
      const valid = options?.validated ? batches : validateBatches(batches);
      if (closed) throw new Error('metric store is closed');
      let samples = 0;
      for (const b of valid) samples += b.samples.length;
      if (samples > 0) {
        await new Promise<void>((resolve, reject) => {
          waiting.push({ batches: valid, resolve, reject });
          pump();
        });
      }
      return { batches: valid.length, samples };
    },

    async query(q) {
      const grid = planGrid(q, 1000);
      if (grid.count === 0 || q.series.length === 0) return shapeChart([], q, grid);
      const { rows } = await pool.query<QuestRow>(chartSql(table, q, grid));
      return shapeChart(rows, q, grid);
    },

    async latest(selector) {
      const { rows } = await pool.query<QuestRow>(latestSql(table, selector));
      return shapeLatest(rows, selector);
    },

    async retention(days) {
      if (!Number.isFinite(days) || days < 0) {
        throw new RangeError(`retention days must be >= 0, got ${days}`);
      }
      const cutoff = sqlTimestamp(retentionCutoff(Date.now(), days));
      const { rows } = await pool.query<{ n: string }>(
        `SELECT count() AS n FROM ${table} WHERE ts < ${cutoff}`,
      );
      const deleted = Number(rows[0]?.n ?? 0);
      if (deleted > 0) {
        await pool.query(`ALTER TABLE ${table} DROP PARTITION WHERE ts < ${cutoff}`);
        if (options.waitVisible) await waitApplied();
      }
      return { deleted };
    },

    async deadLetter(entry) {
      deadLettersReady ??= pool.query(createDeadLetterTableSql()).then(
        () => {},
        (err) => {
          deadLettersReady = undefined;
          throw err;
        },
      );
      await deadLettersReady;
      const insert = deadLetterInsert(entry);
      await withTimeout(pool.query(insert.text, insert.values), 5_000, 'dead letter insert');
    },

    async deadLetters(opts = {}) {
      try {
        const { rows } = await pool.query(deadLettersSql(opts.limit ?? 100));
        return shapeDeadLetters(rows);
      } catch (err) {
        // No dead letter was ever written: the table does not exist yet.
        if (/does not exist/i.test((err as Error).message)) return [];
        throw err;
      }
    },

    async health(): Promise<ComponentHealth> {
      try {
        await withTimeout(pool.query('SELECT 1'), 5_000, 'health check');
        return { state: 'ok' };
      } catch (err) {
        return { state: 'down', detail: err instanceof Error ? err.message : String(err) };
      }
    },

    async close() {
      if (closed) return;
      closed = true;
      await drain();
      await sender.close().catch(() => {});
      await pool.end();
    },
  };
}
