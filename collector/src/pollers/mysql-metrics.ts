import {
  type BlockedSession,
  type DatabaseSize,
  type DbSession,
  MAX_LISTED_SESSIONS,
  type PollerExtras,
  type ReplicationStatus,
  type TableSize,
} from '@flightdeck/schemas';
import type { PollSample } from './contract';
import { hitRatio, ratePerSecond, round } from './rates';

/** `SHOW GLOBAL STATUS` as numbers by lower-case name; values that are not numbers are left out. */
export type MysqlStatus = ReadonlyMap<string, number>;

/** Server variables read on every poll. */
export interface MysqlVariables {
  version: string;
  version_comment: string;
  max_connections: number;
  buffer_pool_size: number | null;
  /** The poller's own thread id, left out of the lists. */
  self_id: number;
}

/** One thread of information_schema.PROCESSLIST. */
export interface MysqlProcessRow {
  id: number;
  user: string | null;
  host: string | null;
  db: string | null;
  command: string | null;
  /** Seconds in the current state; MariaDB's TIME_MS gives milliseconds. */
  time_s: number | null;
  state: string | null;
  info: string | null;
}

/** One InnoDB lock wait: the thread waiting and the thread holding the lock. */
export interface MysqlLockWaitRow {
  waiting_id: number;
  blocking_id: number;
  wait_s: number | null;
}

/** A replica's status (SHOW REPLICA STATUS / SHOW SLAVE STATUS; MySQL 8.0.22 renamed the columns). */
export interface MysqlReplicaRow {
  io_running: string | null;
  sql_running: string | null;
  lag_s: number | null;
  source: string | null;
  last_error: string | null;
}

/** Everything one poll read. `replica` is null on a server that replicates from nobody. */
export interface MysqlReading {
  status: MysqlStatus;
  variables: MysqlVariables;
  processes: MysqlProcessRow[];
  lockWaits?: MysqlLockWaitRow[] | undefined;
  replica?: MysqlReplicaRow | null | undefined;
  sizes?: { databases: DatabaseSize[]; tables: TableSize[] } | undefined;
}

const RATES: readonly [string, string][] = [
  ['queries', 'mysql.queries_rate'],
  ['slow_queries', 'mysql.slow_queries_rate'],
  ['questions', 'mysql.questions_rate'],
  ['com_select', 'mysql.com_select_rate'],
  ['com_insert', 'mysql.com_insert_rate'],
  ['com_update', 'mysql.com_update_rate'],
  ['com_delete', 'mysql.com_delete_rate'],
  ['com_commit', 'mysql.commits_rate'],
  ['com_rollback', 'mysql.rollbacks_rate'],
  ['connections', 'mysql.connections_rate'],
  ['aborted_connects', 'mysql.aborted_connects_rate'],
  ['aborted_clients', 'mysql.aborted_clients_rate'],
  ['created_tmp_tables', 'mysql.created_tmp_tables_rate'],
  ['created_tmp_disk_tables', 'mysql.created_tmp_disk_tables_rate'],
  ['created_tmp_files', 'mysql.created_tmp_files_rate'],
  ['innodb_data_read', 'mysql.innodb_data_read_bytes_rate'],
  ['innodb_data_written', 'mysql.innodb_data_written_bytes_rate'],
  ['innodb_os_log_written', 'mysql.innodb_log_written_bytes_rate'],
  ['innodb_row_lock_waits', 'mysql.innodb_row_lock_waits_rate'],
  ['innodb_deadlocks', 'mysql.innodb_deadlocks_rate'],
  ['table_locks_waited', 'mysql.table_locks_waited_rate'],
  ['bytes_received', 'mysql.bytes_received_rate'],
  ['bytes_sent', 'mysql.bytes_sent_rate'],
];

const STATUS_GAUGES: readonly [string, string][] = [
  ['threads_connected', 'mysql.threads_connected'],
  ['threads_running', 'mysql.threads_running'],
  ['max_used_connections', 'mysql.max_used_connections'],
  ['uptime', 'mysql.uptime'],
  ['innodb_buffer_pool_bytes_data', 'mysql.innodb_buffer_pool_data_bytes'],
  ['innodb_buffer_pool_bytes_dirty', 'mysql.innodb_buffer_pool_dirty_bytes'],
];

/** Threads that are the server's own, not a client's. */
function isClient(p: MysqlProcessRow): boolean {
  return p.command !== 'Daemon' && p.user !== 'system user' && p.user !== 'event_scheduler';
}

function isReplicaFeed(p: MysqlProcessRow): boolean {
  return p.command === 'Binlog Dump' || p.command === 'Binlog Dump GTID';
}

function isLong(p: MysqlProcessRow, longQueryS: number): boolean {
  return (p.command === 'Query' || p.command === 'Execute') && p.time_s !== null && p.time_s >= longQueryS;
}

const yes = (v: string | null) => (v === 'Yes' ? 1 : 0);

/** Waiting thread id → its lock waits. */
function waitsByThread(waits: readonly MysqlLockWaitRow[]): Map<number, MysqlLockWaitRow[]> {
  const by = new Map<number, MysqlLockWaitRow[]>();
  for (const w of waits) by.set(w.waiting_id, [...(by.get(w.waiting_id) ?? []), w]);
  return by;
}

/**
 * Samples of a reading: gauges always, per-second rates and the buffer pool hit ratio when an
 * earlier reading is `seconds` before. A counter that went backwards (restart, FLUSH STATUS) has
 * no rate this time.
 */
export function mysqlSamples(
  cur: MysqlReading,
  prev: MysqlReading | undefined,
  seconds: number,
  longQueryS: number,
): PollSample[] {
  const s: PollSample[] = [];
  for (const [key, m] of STATUS_GAUGES) {
    const v = cur.status.get(key);
    if (v !== undefined) s.push({ m, v });
  }
  const others = cur.processes.filter((p) => p.id !== cur.variables.self_id);
  s.push(
    { m: 'mysql.threads_sleeping', v: cur.processes.filter((p) => p.command === 'Sleep').length },
    { m: 'mysql.long_queries', v: others.filter((p) => isLong(p, longQueryS)).length },
    { m: 'mysql.replicas', v: cur.processes.filter(isReplicaFeed).length },
    { m: 'mysql.max_connections', v: cur.variables.max_connections },
  );
  if (cur.lockWaits) s.push({ m: 'mysql.blocked_sessions', v: waitsByThread(cur.lockWaits).size });
  const connected = cur.status.get('threads_connected');
  if (connected !== undefined && cur.variables.max_connections > 0) {
    s.push({
      m: 'mysql.connections_used_pct',
      v: round((connected / cur.variables.max_connections) * 100, 2),
    });
  }
  if (cur.variables.buffer_pool_size !== null) {
    s.push({ m: 'mysql.innodb_buffer_pool_size_bytes', v: cur.variables.buffer_pool_size });
  }
  if (cur.replica) {
    s.push(
      { m: 'mysql.replication_io_running', v: yes(cur.replica.io_running) },
      { m: 'mysql.replication_sql_running', v: yes(cur.replica.sql_running) },
    );
    if (cur.replica.lag_s !== null) s.push({ m: 'mysql.replication_lag', v: cur.replica.lag_s });
  }
  if (cur.sizes) {
    for (const db of cur.sizes.databases) {
      s.push({ m: 'mysql.schema_size_bytes', l: { database: db.name }, v: db.size_bytes });
    }
  }
  if (!prev || !(seconds > 0)) return s;
  for (const [key, m] of RATES) {
    const v = ratePerSecond(prev.status.get(key), cur.status.get(key), seconds);
    if (v !== undefined) s.push({ m, v });
  }
  const requests = (r: MysqlReading) => r.status.get('innodb_buffer_pool_read_requests');
  const reads = (r: MysqlReading) => r.status.get('innodb_buffer_pool_reads');
  const hits = (r: MysqlReading) => {
    const rq = requests(r);
    const rd = reads(r);
    return rq === undefined || rd === undefined ? undefined : rq - rd;
  };
  const ratio = hitRatio(hits(prev), hits(cur), reads(prev), reads(cur));
  if (ratio !== undefined) s.push({ m: 'mysql.buffer_pool_hit_ratio', v: ratio });
  return s;
}

function session(p: MysqlProcessRow): DbSession {
  return {
    id: p.id,
    user: p.user,
    database: p.db,
    client: p.host,
    application: null,
    state: p.command,
    wait: p.state || null,
    duration_s: p.time_s,
    query: p.info,
  };
}

const byDuration = (a: DbSession, b: DbSession) => (b.duration_s ?? -1) - (a.duration_s ?? -1);

/** Replication as the reading shows it. */
export function mysqlReplication(cur: MysqlReading): ReplicationStatus {
  const r = cur.replica;
  if (r) {
    const io = r.io_running ?? 'No';
    const sql = r.sql_running ?? 'No';
    const state =
      io === 'Yes' && sql === 'Yes'
        ? 'running'
        : io === 'Connecting'
          ? 'connecting'
          : io !== 'Yes' && sql !== 'Yes'
            ? 'stopped'
            : io !== 'Yes'
              ? 'io stopped'
              : 'sql stopped';
    return {
      role: 'replica',
      state,
      lag_s: r.lag_s,
      source: r.source,
      last_error: r.last_error,
      replicas: [],
    };
  }
  const replicas = cur.processes.filter(isReplicaFeed).map((p) => ({
    name: p.host ?? String(p.id),
    address: p.host,
    state: p.state,
    sync_state: null,
    lag_s: null,
    lag_bytes: null,
  }));
  return {
    role: replicas.length > 0 ? 'primary' : 'standalone',
    state: null,
    lag_s: null,
    source: null,
    last_error: null,
    replicas,
  };
}

/**
 * The sessions of a process list, the reader's own thread (`selfId`) and the server's threads left
 * out: every client session and the long-running statements, each longest-running first, and the
 * threads waiting for an InnoDB lock, each with the threads holding it.
 */
export function mysqlSessionLists(
  processes: readonly MysqlProcessRow[],
  lockWaits: readonly MysqlLockWaitRow[],
  selfId: number,
  longQueryS: number,
): { sessions: DbSession[]; long_queries: DbSession[]; blocked: BlockedSession[] } {
  const byId = new Map(processes.map((p) => [p.id, p]));
  const clients = processes.filter((p) => p.id !== selfId && isClient(p));
  const blocked: BlockedSession[] = [];
  for (const [waitingId, waits] of waitsByThread(lockWaits)) {
    const waiting = byId.get(waitingId);
    const base = waiting ? session(waiting) : { ...session(unknownProcess(waitingId)) };
    blocked.push({
      ...base,
      wait_s: waits[0]?.wait_s ?? null,
      blocked_by: [...new Set(waits.map((w) => w.blocking_id))].map((id) =>
        session(byId.get(id) ?? unknownProcess(id)),
      ),
    });
  }
  return {
    sessions: clients.map(session).sort(byDuration),
    long_queries: clients
      .filter((p) => isLong(p, longQueryS))
      .map(session)
      .sort(byDuration),
    blocked,
  };
}

/** The lists of a reading, the poller's own thread and the server's threads left out. */
export function mysqlExtras(cur: MysqlReading, longQueryS: number): PollerExtras {
  const lists = mysqlSessionLists(cur.processes, cur.lockWaits ?? [], cur.variables.self_id, longQueryS);
  const extras: PollerExtras = {
    server: {
      version: cur.variables.version,
      uptime_s: cur.status.get('uptime') ?? null,
      max_connections: cur.variables.max_connections,
    },
    sessions: lists.sessions.slice(0, MAX_LISTED_SESSIONS),
    long_queries: lists.long_queries,
    blocked_sessions: lists.blocked,
    replication: mysqlReplication(cur),
  };
  if (cur.sizes) {
    extras.databases = cur.sizes.databases;
    extras.tables = cur.sizes.tables;
  }
  return extras;
}

function unknownProcess(id: number): MysqlProcessRow {
  return { id, user: null, host: null, db: null, command: null, time_s: null, state: null, info: null };
}
