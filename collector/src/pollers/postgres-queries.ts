import type { DatabaseSize, TableSize } from '@flightdeck/schemas';
import type {
  PgActivityRow,
  PgBgwriterRow,
  PgDatabaseRow,
  PgReplicaRow,
  PgServerRow,
  PgStandbyRow,
  PgWalRow,
} from './postgres-metrics';
import { num, str } from './rates';

/**
 * The SQL of the PostgreSQL poller (PostgreSQL 10 and later) and the readers that turn the
 * driver's rows into typed rows. Counters are cast to float8 so the driver hands numbers, not the
 * strings it uses for bigint. Everything reads statistics views; nothing takes a lock a session
 * could wait on except the size functions, which run under the pool's lock_timeout.
 */

type Row = Record<string, unknown>;

const n = (v: unknown): number => num(v) ?? 0;
const nn = (v: unknown): number | null => num(v) ?? null;

export const SERVER_SQL = `SELECT current_setting('server_version') AS version,
  current_setting('server_version_num')::int AS version_num,
  current_setting('max_connections')::int AS max_connections,
  pg_is_in_recovery() AS in_recovery,
  extract(epoch FROM now() - pg_postmaster_start_time())::float8 AS uptime_s`;

export function readServer(row: Row): PgServerRow {
  return {
    version: str(row.version) ?? '',
    version_num: n(row.version_num),
    max_connections: n(row.max_connections),
    in_recovery: row.in_recovery === true,
    uptime_s: n(row.uptime_s),
  };
}

export const DATABASES_SQL = `SELECT datname, numbackends,
  xact_commit::float8 AS xact_commit, xact_rollback::float8 AS xact_rollback,
  blks_read::float8 AS blks_read, blks_hit::float8 AS blks_hit,
  tup_returned::float8 AS tup_returned, tup_fetched::float8 AS tup_fetched,
  tup_inserted::float8 AS tup_inserted, tup_updated::float8 AS tup_updated, tup_deleted::float8 AS tup_deleted,
  temp_files::float8 AS temp_files, temp_bytes::float8 AS temp_bytes, deadlocks::float8 AS deadlocks
FROM pg_stat_database
WHERE datname IS NOT NULL AND datname NOT IN ('template0', 'template1')
ORDER BY datname`;

export function readDatabase(row: Row): PgDatabaseRow {
  return {
    datname: str(row.datname) ?? '',
    numbackends: n(row.numbackends),
    xact_commit: n(row.xact_commit),
    xact_rollback: n(row.xact_rollback),
    blks_read: n(row.blks_read),
    blks_hit: n(row.blks_hit),
    tup_returned: n(row.tup_returned),
    tup_fetched: n(row.tup_fetched),
    tup_inserted: n(row.tup_inserted),
    tup_updated: n(row.tup_updated),
    tup_deleted: n(row.tup_deleted),
    temp_files: n(row.temp_files),
    temp_bytes: n(row.temp_bytes),
    deadlocks: n(row.deadlocks),
  };
}

/**
 * Client backends. pg_blocking_pids is costly (it takes the lock manager's locks), so it runs only
 * for a backend that waits on a lock; so does the lock wait's start (pg_locks.waitstart, 14+).
 */
export function activitySql(versionNum: number): string {
  const waitStart =
    versionNum >= 140000
      ? `(SELECT extract(epoch FROM now() - min(l.waitstart))::float8 FROM pg_locks l WHERE l.pid = a.pid AND NOT l.granted)`
      : 'NULL::float8';
  return `SELECT a.pid, a.pid = pg_backend_pid() AS self, a.usename::text AS usename, a.datname::text AS datname,
  a.application_name, host(a.client_addr) AS client, a.state, a.wait_event_type, a.wait_event,
  extract(epoch FROM now() - a.query_start)::float8 AS query_s,
  extract(epoch FROM now() - a.state_change)::float8 AS state_s,
  left(a.query, 2048) AS query,
  CASE WHEN a.wait_event_type = 'Lock' THEN pg_blocking_pids(a.pid) END AS blocked_by,
  CASE WHEN a.wait_event_type = 'Lock' THEN ${waitStart} END AS wait_s
FROM pg_stat_activity a
WHERE a.backend_type = 'client backend'`;
}

export function readActivity(row: Row): PgActivityRow {
  const blockedBy = Array.isArray(row.blocked_by) ? row.blocked_by.map(n).filter((pid) => pid > 0) : null;
  return {
    pid: n(row.pid),
    self: row.self === true,
    usename: str(row.usename),
    datname: str(row.datname),
    application_name: str(row.application_name),
    client: str(row.client),
    state: str(row.state),
    wait_event_type: str(row.wait_event_type),
    wait_event: str(row.wait_event),
    query_s: nn(row.query_s),
    state_s: nn(row.state_s),
    query: str(row.query),
    blocked_by: blockedBy,
    wait_s: nn(row.wait_s),
  };
}

/** pg_stat_bgwriter; from 17 the checkpoint counters moved to pg_stat_checkpointer. */
export function bgwriterSql(versionNum: number): string {
  if (versionNum >= 170000) {
    return `SELECT c.num_timed::float8 AS checkpoints_timed, c.num_requested::float8 AS checkpoints_req,
  c.buffers_written::float8 AS buffers_checkpoint, b.buffers_clean::float8 AS buffers_clean,
  NULL::float8 AS buffers_backend, b.buffers_alloc::float8 AS buffers_alloc
FROM pg_stat_checkpointer c, pg_stat_bgwriter b`;
  }
  return `SELECT checkpoints_timed::float8 AS checkpoints_timed, checkpoints_req::float8 AS checkpoints_req,
  buffers_checkpoint::float8 AS buffers_checkpoint, buffers_clean::float8 AS buffers_clean,
  buffers_backend::float8 AS buffers_backend, buffers_alloc::float8 AS buffers_alloc
FROM pg_stat_bgwriter`;
}

export function readBgwriter(row: Row): PgBgwriterRow {
  return {
    checkpoints_timed: nn(row.checkpoints_timed),
    checkpoints_req: nn(row.checkpoints_req),
    buffers_checkpoint: nn(row.buffers_checkpoint),
    buffers_clean: nn(row.buffers_clean),
    buffers_backend: nn(row.buffers_backend),
    buffers_alloc: nn(row.buffers_alloc),
  };
}

/** pg_stat_wal on 14+; before, the WAL position of a primary counts the bytes written. */
export function walSql(versionNum: number, inRecovery: boolean): string | undefined {
  if (versionNum >= 140000) {
    return `SELECT wal_bytes::float8 AS wal_bytes, wal_records::float8 AS wal_records,
  wal_buffers_full::float8 AS wal_buffers_full FROM pg_stat_wal`;
  }
  if (inRecovery) return undefined;
  return `SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::float8 AS wal_bytes,
  NULL::float8 AS wal_records, NULL::float8 AS wal_buffers_full`;
}

export function readWal(row: Row): PgWalRow {
  return {
    wal_bytes: nn(row.wal_bytes),
    wal_records: nn(row.wal_records),
    wal_buffers_full: nn(row.wal_buffers_full),
  };
}

export const REPLICAS_SQL = `SELECT application_name, host(client_addr) AS client, state, sync_state,
  pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn)::float8 AS lag_bytes,
  extract(epoch FROM replay_lag)::float8 AS lag_s
FROM pg_stat_replication`;

export function readReplica(row: Row): PgReplicaRow {
  return {
    application_name: str(row.application_name),
    client: str(row.client),
    state: str(row.state),
    sync_state: str(row.sync_state),
    lag_bytes: nn(row.lag_bytes),
    lag_s: nn(row.lag_s),
  };
}

/**
 * A standby's lag: 0 when it has replayed all it received, else the time since the last replayed
 * transaction (which also grows while the primary is idle, hence the first test).
 */
export function standbySql(versionNum: number): string {
  const source =
    versionNum >= 110000 ? '(SELECT sender_host FROM pg_stat_wal_receiver LIMIT 1)' : 'NULL::text';
  return `SELECT CASE WHEN pg_last_wal_receive_lsn() IS NOT NULL AND pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn()
    THEN 0 ELSE extract(epoch FROM now() - pg_last_xact_replay_timestamp()) END::float8 AS lag_s,
  (SELECT status FROM pg_stat_wal_receiver LIMIT 1) AS state,
  ${source} AS source`;
}

export function readStandby(row: Row): PgStandbyRow {
  return { lag_s: nn(row.lag_s), state: str(row.state), source: str(row.source) };
}

/** Databases the user may connect to, with their size. */
export const DATABASE_SIZES_SQL = `SELECT datname AS name, pg_database_size(oid)::float8 AS size_bytes
FROM pg_database
WHERE datallowconn AND NOT datistemplate AND has_database_privilege(oid, 'CONNECT')
ORDER BY size_bytes DESC`;

export function readDatabaseSize(row: Row): DatabaseSize {
  return { name: str(row.name) ?? '', size_bytes: n(row.size_bytes) };
}

/** The largest tables of the connected database ($1 = how many). */
export const TABLE_SIZES_SQL = `SELECT current_database() AS database, n.nspname AS schema, c.relname AS name,
  pg_total_relation_size(c.oid)::float8 AS size_bytes, pg_relation_size(c.oid)::float8 AS data_bytes,
  pg_indexes_size(c.oid)::float8 AS index_bytes, c.reltuples::float8 AS rows
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE c.relkind IN ('r', 'm') AND n.nspname NOT IN ('pg_catalog', 'information_schema')
  AND n.nspname NOT LIKE 'pg_toast%'
ORDER BY pg_total_relation_size(c.oid) DESC NULLS LAST
LIMIT $1`;

export function readTableSize(row: Row): TableSize {
  const rows = nn(row.rows);
  return {
    database: str(row.database) ?? '',
    schema: str(row.schema),
    name: str(row.name) ?? '',
    size_bytes: n(row.size_bytes),
    data_bytes: nn(row.data_bytes),
    index_bytes: nn(row.index_bytes),
    // reltuples is -1 for a table never vacuumed or analysed (PostgreSQL 14+).
    rows: rows === null || rows < 0 ? null : rows,
  };
}
