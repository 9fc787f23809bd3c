import {
  type BlockedSession,
  type DatabaseSize,
  type DbSession,
  MAX_LISTED_SESSIONS,
  type PollerExtras,
  type TableSize,
} from '@flightdeck/schemas';
import type { PollSample } from './contract';
import {
  averageOverInterval,
  bufferCacheHitRatio,
  type MssqlCounters,
  runningTotal,
  snapshotValue,
} from './mssql-counters';
import { type MssqlReplicaRow, mssqlReplication, replicaSamples } from './mssql-replication';
import { ratePerSecond, round } from './rates';

/**
 * The SQL Server poller's readings and what they give: samples (counters by their cntr_type, see
 * mssql-counters), the session lists and the extras.
 */

/** SERVERPROPERTY and @@ values read on every poll. */
export interface MssqlServer {
  /** ProductVersion: `16.0.4135.4`. */
  product_version: string;
  /** RTM, SP1... */
  product_level: string | null;
  /** CU14... */
  product_update_level: string | null;
  edition: string | null;
  /** 2 Standard, 3 Enterprise (and Developer, Evaluation), 4 Express, 5 Azure SQL Database, 8 Managed Instance. */
  engine_edition: number | null;
  server_name: string | null;
  hadr_enabled: boolean;
  /** First line of @@VERSION. */
  version: string;
  /** The poller's own session, left out of the lists. */
  self_id: number;
  max_connections: number | null;
  database: string | null;
}

/** One user session of sys.dm_exec_sessions, with its request of sys.dm_exec_requests if any. */
export interface MssqlSessionRow {
  id: number;
  login: string | null;
  database: string | null;
  host: string | null;
  client_address: string | null;
  program: string | null;
  /** running, sleeping, dormant, preconnect. */
  session_status: string | null;
  /** Null without a request; else running, runnable, suspended, background... */
  request_status: string | null;
  command: string | null;
  wait_type: string | null;
  wait_ms: number | null;
  /** The session holding what this one waits for; 0 or null when not blocked. */
  blocking_id: number | null;
  elapsed_ms: number | null;
  /** Seconds since its last request ended. */
  idle_s: number | null;
  open_transactions: number;
  query: string | null;
}

/** One row of DBCC SQLPERF(LOGSPACE). */
export interface MssqlLogSpace {
  database: string;
  log_size_bytes: number;
  log_used_pct: number;
}

/** A database's files from sys.master_files. */
export interface MssqlDatabaseFiles {
  name: string;
  state: string | null;
  data_bytes: number;
  log_bytes: number;
}

/**
 * Everything one poll read. `replicas` is null when HADR is not enabled; an optional section that
 * could not be read (or was not due) is undefined.
 */
export interface MssqlReading {
  server: MssqlServer;
  uptime_s: number | null;
  counters: MssqlCounters;
  sessions: MssqlSessionRow[];
  logSpace?: MssqlLogSpace[] | undefined;
  replicas?: MssqlReplicaRow[] | null | undefined;
  files?: MssqlDatabaseFiles[] | undefined;
  tables?: TableSize[] | undefined;
}

/** A database's size as the extras list it: data and log files together. */
export function databaseSize(files: MssqlDatabaseFiles): DatabaseSize {
  return { name: files.name, size_bytes: files.data_bytes + files.log_bytes };
}

/** Snapshot gauges: object, counter, metric, multiplier. */
const GAUGES: readonly [string, string, string, number][] = [
  ['General Statistics', 'User Connections', 'mssql.user_connections', 1],
  ['Buffer Manager', 'Page life expectancy', 'mssql.page_life_expectancy', 1],
  ['Memory Manager', 'Total Server Memory (KB)', 'mssql.memory_total_bytes', 1024],
  ['Memory Manager', 'Target Server Memory (KB)', 'mssql.memory_target_bytes', 1024],
];

/** Per-second counters: object, counter, instance, metric. */
const RATES: readonly [string, string, string, string][] = [
  ['SQL Statistics', 'Batch Requests/sec', '', 'mssql.batch_requests_rate'],
  ['SQL Statistics', 'SQL Compilations/sec', '', 'mssql.sql_compilations_rate'],
  ['SQL Statistics', 'SQL Re-Compilations/sec', '', 'mssql.sql_recompilations_rate'],
  ['General Statistics', 'Logins/sec', '', 'mssql.logins_rate'],
  ['Databases', 'Transactions/sec', '_Total', 'mssql.transactions_rate'],
  ['Buffer Manager', 'Page reads/sec', '', 'mssql.page_reads_rate'],
  ['Buffer Manager', 'Page writes/sec', '', 'mssql.page_writes_rate'],
  ['Locks', 'Lock Waits/sec', '_Total', 'mssql.lock_waits_rate'],
  ['Locks', 'Lock Timeouts/sec', '_Total', 'mssql.lock_timeouts_rate'],
  ['Locks', 'Number of Deadlocks/sec', '_Total', 'mssql.deadlocks_rate'],
  ['Access Methods', 'Full Scans/sec', '', 'mssql.full_scans_rate'],
  ['Access Methods', 'Index Searches/sec', '', 'mssql.index_searches_rate'],
  ['Access Methods', 'Page Splits/sec', '', 'mssql.page_splits_rate'],
];

/** Databases counter instances that are not databases a person made or uses. */
const HIDDEN_INSTANCES = new Set(['_total', 'mssqlsystemresource']);

/** Whether the session runs a request now. */
const running = (s: MssqlSessionRow) => s.request_status !== null;

function isLong(s: MssqlSessionRow, longQueryS: number): boolean {
  return running(s) && s.elapsed_ms !== null && s.elapsed_ms >= longQueryS * 1000;
}

/** Blocked by another session (not by itself, as parallel workers of one query can show). */
function isBlocked(s: MssqlSessionRow): boolean {
  return s.blocking_id !== null && s.blocking_id > 0 && s.blocking_id !== s.id;
}

/**
 * Samples of a reading: gauges always; per-second rates and the average lock wait when an earlier
 * reading is `seconds` before. A running total that went backwards (restart) has no rate this time.
 */
export function mssqlSamples(
  cur: MssqlReading,
  prev: MssqlReading | undefined,
  seconds: number,
  longQueryS: number,
): PollSample[] {
  const s: PollSample[] = [];
  const { counters } = cur;
  for (const [object, counter, m, scale] of GAUGES) {
    const v = snapshotValue(counters, object, counter);
    if (v !== undefined) s.push({ m, v: v * scale });
  }
  const ratio = bufferCacheHitRatio(counters);
  if (ratio !== undefined) s.push({ m: 'mssql.buffer_cache_hit_ratio', v: ratio });
  const connections = snapshotValue(counters, 'General Statistics', 'User Connections');
  const max = cur.server.max_connections;
  if (max !== null) s.push({ m: 'mssql.max_connections', v: max });
  if (connections !== undefined && max !== null && max > 0) {
    s.push({ m: 'mssql.connections_used_pct', v: round((connections / max) * 100, 2) });
  }
  const idle = cur.sessions.filter((x) => !running(x));
  s.push(
    { m: 'mssql.sessions', v: cur.sessions.length },
    { m: 'mssql.sessions_running', v: cur.sessions.filter(running).length },
    { m: 'mssql.sessions_sleeping', v: idle.filter((x) => x.open_transactions === 0).length },
    { m: 'mssql.sessions_idle_in_transaction', v: idle.filter((x) => x.open_transactions > 0).length },
    { m: 'mssql.long_queries', v: cur.sessions.filter((x) => isLong(x, longQueryS)).length },
    { m: 'mssql.blocked_sessions', v: cur.sessions.filter(isBlocked).length },
  );
  if (cur.uptime_s !== null) s.push({ m: 'mssql.uptime', v: cur.uptime_s });
  for (const log of cur.logSpace ?? []) {
    const l = { database: log.database };
    s.push(
      { m: 'mssql.log_size_bytes', l, v: log.log_size_bytes },
      { m: 'mssql.log_used_bytes', l, v: Math.round((log.log_size_bytes * log.log_used_pct) / 100) },
      { m: 'mssql.log_used_pct', l, v: round(log.log_used_pct, 2) },
    );
  }
  for (const db of cur.files ?? []) {
    s.push({ m: 'mssql.database_size_bytes', l: { database: db.name }, v: databaseSize(db).size_bytes });
  }
  // Without HADR there is no availability group to speak of (null), nor when it could not be read.
  if (cur.replicas) s.push(...replicaSamples(cur.replicas));
  if (!prev || !(seconds > 0)) return s;
  for (const [object, counter, instance, m] of RATES) {
    const v = ratePerSecond(
      runningTotal(prev.counters, object, counter, instance),
      runningTotal(counters, object, counter, instance),
      seconds,
    );
    if (v !== undefined) s.push({ m, v });
  }
  for (const c of counters.values()) {
    if (c.object !== 'Databases' || c.counter !== 'Transactions/sec') continue;
    if (HIDDEN_INSTANCES.has(c.instance.toLowerCase())) continue;
    const v = ratePerSecond(
      runningTotal(prev.counters, 'Databases', 'Transactions/sec', c.instance),
      runningTotal(counters, 'Databases', 'Transactions/sec', c.instance),
      seconds,
    );
    if (v !== undefined) s.push({ m: 'mssql.transactions_rate', l: { database: c.instance }, v });
  }
  const wait = averageOverInterval(
    prev.counters,
    counters,
    'Locks',
    'Average Wait Time (ms)',
    'Average Wait Time Base',
    '_Total',
  );
  if (wait !== undefined) s.push({ m: 'mssql.lock_wait_avg_ms', v: wait });
  return s;
}

/** A session as the lists show it. */
export function mssqlSession(s: MssqlSessionRow): DbSession {
  return {
    id: s.id,
    user: s.login,
    database: s.database,
    client: s.client_address ?? s.host,
    application: s.program,
    state: s.request_status ?? s.session_status,
    wait: s.wait_type,
    duration_s: running(s) ? (s.elapsed_ms === null ? null : round(s.elapsed_ms / 1000)) : s.idle_s,
    query: s.query,
  };
}

const byDuration = (a: DbSession, b: DbSession) => (b.duration_s ?? -1) - (a.duration_s ?? -1);

/** All sessions longest-running first, and the blocked ones with the sessions blocking them. */
export function mssqlSessionLists(sessions: readonly MssqlSessionRow[]): {
  sessions: DbSession[];
  blocked: BlockedSession[];
} {
  const byId = new Map(sessions.map((x) => [x.id, x]));
  const blocked = sessions.filter(isBlocked).map((x) => ({
    ...mssqlSession(x),
    wait_s: x.wait_ms === null ? null : round(x.wait_ms / 1000),
    blocked_by: [mssqlSession(byId.get(x.blocking_id ?? 0) ?? unknownSession(x.blocking_id ?? 0))],
  }));
  return { sessions: sessions.map(mssqlSession).sort(byDuration), blocked };
}

/** The lists of a reading; the poller's own session is not among the rows. */
export function mssqlExtras(cur: MssqlReading, longQueryS: number): PollerExtras {
  const lists = mssqlSessionLists(cur.sessions);
  const extras: PollerExtras = {
    server: {
      version: cur.server.version,
      uptime_s: cur.uptime_s,
      max_connections: cur.server.max_connections,
    },
    sessions: lists.sessions.slice(0, MAX_LISTED_SESSIONS),
    long_queries: cur.sessions
      .filter((x) => isLong(x, longQueryS))
      .map(mssqlSession)
      .sort(byDuration),
    blocked_sessions: lists.blocked,
    replication: mssqlReplication(cur.replicas),
  };
  if (cur.files) extras.databases = cur.files.map(databaseSize);
  if (cur.tables) extras.tables = cur.tables;
  return extras;
}

/** A blocker that is not a user session (a system task): only its id is known. */
function unknownSession(id: number): MssqlSessionRow {
  return {
    id,
    login: null,
    database: null,
    host: null,
    client_address: null,
    program: null,
    session_status: null,
    request_status: null,
    command: null,
    wait_type: null,
    wait_ms: null,
    blocking_id: null,
    elapsed_ms: null,
    idle_s: null,
    open_transactions: 0,
    query: null,
  };
}
