import type { TableSize } from '@flightdeck/schemas';
import { counterKey, type MssqlCounter, type MssqlCounters } from './mssql-counters';
import type { MssqlDatabaseFiles, MssqlLogSpace, MssqlServer, MssqlSessionRow } from './mssql-metrics';
import type { MssqlReplicaRow } from './mssql-replication';
import { num, str } from './rates';

/**
 * The T-SQL of the SQL Server poller (written against the SQL Server 2019 and 2022 documentation,
 * valid from 2016) and the readers that turn the mssql driver's rows into typed rows. The driver
 * gives `bigint` columns as strings, `bit` as booleans and `nchar` padded with spaces: the readers
 * take all of these. Times are turned into ages on the server (DATEDIFF against SYSDATETIME), so no
 * reader depends on the server's time zone.
 */

type Row = Record<string, unknown>;

/** Needs no permission: SERVERPROPERTY, @@VERSION and sys.configurations are readable by any login. */
export const SERVER_SQL = `SELECT CAST(SERVERPROPERTY('ProductVersion') AS nvarchar(128)) AS product_version,
  CAST(SERVERPROPERTY('ProductLevel') AS nvarchar(128)) AS product_level,
  CAST(SERVERPROPERTY('ProductUpdateLevel') AS nvarchar(128)) AS product_update_level,
  CAST(SERVERPROPERTY('Edition') AS nvarchar(128)) AS edition,
  CAST(SERVERPROPERTY('EngineEdition') AS int) AS engine_edition,
  CAST(SERVERPROPERTY('ServerName') AS nvarchar(256)) AS server_name,
  CAST(ISNULL(SERVERPROPERTY('IsHadrEnabled'), 0) AS int) AS hadr_enabled,
  @@VERSION AS version_text,
  @@SPID AS self_id,
  @@MAX_CONNECTIONS AS max_connections,
  (SELECT CAST(value_in_use AS int) FROM sys.configurations WHERE name = N'user connections') AS user_connections_setting,
  DB_NAME() AS database_name`;

/** Seconds since the instance started (VIEW SERVER STATE). */
export const UPTIME_SQL = `SELECT DATEDIFF(SECOND, sqlserver_start_time, SYSDATETIME()) AS uptime_s
FROM sys.dm_os_sys_info`;

/** The counters the poller reads, by object (without its instance prefix) and counter name. */
export const COUNTER_NAMES: readonly (readonly [string, string])[] = [
  ['General Statistics', 'User Connections'],
  ['General Statistics', 'Logins/sec'],
  ['SQL Statistics', 'Batch Requests/sec'],
  ['SQL Statistics', 'SQL Compilations/sec'],
  ['SQL Statistics', 'SQL Re-Compilations/sec'],
  ['Databases', 'Transactions/sec'],
  ['Buffer Manager', 'Buffer cache hit ratio'],
  ['Buffer Manager', 'Buffer cache hit ratio base'],
  ['Buffer Manager', 'Page life expectancy'],
  ['Buffer Manager', 'Page lookups/sec'],
  ['Buffer Manager', 'Page reads/sec'],
  ['Buffer Manager', 'Page writes/sec'],
  ['Locks', 'Lock Waits/sec'],
  ['Locks', 'Lock Timeouts/sec'],
  ['Locks', 'Number of Deadlocks/sec'],
  ['Locks', 'Average Wait Time (ms)'],
  ['Locks', 'Average Wait Time Base'],
  ['Access Methods', 'Full Scans/sec'],
  ['Access Methods', 'Index Searches/sec'],
  ['Access Methods', 'Page Splits/sec'],
  ['Memory Manager', 'Total Server Memory (KB)'],
  ['Memory Manager', 'Target Server Memory (KB)'],
];

/**
 * sys.dm_os_performance_counters (VIEW SERVER STATE). object_name starts with `SQLServer:` on a
 * default instance and `MSSQL$<name>:` on a named one, so only counter names are filtered here.
 */
export const COUNTERS_SQL = `SELECT RTRIM(object_name) AS object_name, RTRIM(counter_name) AS counter_name,
  RTRIM(instance_name) AS instance_name, cntr_value, cntr_type
FROM sys.dm_os_performance_counters
WHERE counter_name IN (${[...new Set(COUNTER_NAMES.map(([, c]) => `N'${c}'`))].join(', ')})`;

/**
 * Every user session but the poller's own, with its request if it runs one. The statement is the
 * running one (cut from the batch by its offsets); for a session without a request, the last batch
 * it sent (dm_exec_connections.most_recent_sql_handle), which shows what a sleeping session that
 * holds locks in an open transaction did.
 */
export const SESSIONS_SQL = `SELECT s.session_id, s.login_name,
  DB_NAME(COALESCE(r.database_id, s.database_id)) AS database_name,
  s.host_name, c.client_net_address, s.program_name, s.status AS session_status,
  r.status AS request_status, r.command, r.wait_type, r.wait_time AS wait_ms,
  r.blocking_session_id, r.total_elapsed_time AS elapsed_ms,
  DATEDIFF(SECOND, s.last_request_end_time, SYSDATETIME()) AS idle_s,
  s.open_transaction_count,
  LEFT(CASE
    WHEN r.sql_handle IS NOT NULL AND (r.statement_end_offset = -1 OR r.statement_end_offset > r.statement_start_offset)
      THEN SUBSTRING(t.text, r.statement_start_offset / 2 + 1,
        (CASE WHEN r.statement_end_offset = -1 THEN DATALENGTH(t.text) ELSE r.statement_end_offset END
          - r.statement_start_offset) / 2 + 1)
    ELSE t.text END, 2048) AS query_text
FROM sys.dm_exec_sessions AS s
LEFT JOIN sys.dm_exec_requests AS r ON r.session_id = s.session_id
LEFT JOIN sys.dm_exec_connections AS c ON c.session_id = s.session_id AND c.parent_connection_id IS NULL
OUTER APPLY sys.dm_exec_sql_text(COALESCE(r.sql_handle, c.most_recent_sql_handle)) AS t
WHERE s.is_user_process = 1 AND s.session_id <> @@SPID`;

/** Log size and use of every database (VIEW SERVER STATE); columns as DBCC prints them. */
export const LOG_SPACE_SQL = 'DBCC SQLPERF(LOGSPACE) WITH NO_INFOMSGS';

/**
 * Data and log file sizes of every database (sys.master_files, in 8 KB pages; VIEW ANY DEFINITION).
 * tempdb's rows there are its start-up sizes, not its current ones.
 */
export const DATABASE_FILES_SQL = `SELECT d.name, d.state_desc,
  SUM(CASE WHEN f.type = 1 THEN 0 ELSE CAST(f.size AS bigint) END) * 8192 AS data_bytes,
  SUM(CASE WHEN f.type = 1 THEN CAST(f.size AS bigint) ELSE 0 END) * 8192 AS log_bytes
FROM sys.databases AS d
JOIN sys.master_files AS f ON f.database_id = d.database_id
GROUP BY d.name, d.state_desc
ORDER BY d.name`;

/** The largest tables of the connected database (VIEW DATABASE STATE); `@top` is bound. */
export const TABLE_SIZES_SQL = `SELECT TOP (@top) DB_NAME() AS database_name, s.name AS schema_name, t.name AS table_name,
  SUM(ps.reserved_page_count) * 8192 AS size_bytes,
  SUM(CASE WHEN ps.index_id < 2 THEN ps.used_page_count ELSE 0 END) * 8192 AS data_bytes,
  SUM(CASE WHEN ps.index_id >= 2 THEN ps.used_page_count ELSE 0 END) * 8192 AS index_bytes,
  SUM(CASE WHEN ps.index_id < 2 THEN ps.row_count ELSE 0 END) AS row_count
FROM sys.dm_db_partition_stats AS ps
JOIN sys.tables AS t ON t.object_id = ps.object_id
JOIN sys.schemas AS s ON s.schema_id = t.schema_id
WHERE t.is_ms_shipped = 0
GROUP BY s.name, t.name
ORDER BY size_bytes DESC`;

/**
 * Always On: every database replica this instance knows of. On a primary that is its own databases
 * and a row for each secondary's; on a secondary only its own. Read only when HADR is enabled.
 */
export const REPLICAS_SQL = `SELECT ag.name AS group_name, ar.replica_server_name, ar.availability_mode_desc,
  ars.role_desc, ars.connected_state_desc, drs.is_local, drs.is_primary_replica,
  DB_NAME(drs.database_id) AS database_name, drs.synchronization_state_desc,
  drs.synchronization_health_desc, drs.is_suspended, drs.suspend_reason_desc,
  drs.log_send_queue_size, drs.redo_queue_size, drs.secondary_lag_seconds, ags.primary_replica
FROM sys.dm_hadr_database_replica_states AS drs
JOIN sys.availability_replicas AS ar ON ar.replica_id = drs.replica_id
JOIN sys.availability_groups AS ag ON ag.group_id = drs.group_id
LEFT JOIN sys.dm_hadr_availability_replica_states AS ars ON ars.replica_id = drs.replica_id
LEFT JOIN sys.dm_hadr_availability_group_states AS ags ON ags.group_id = drs.group_id`;

const bool = (v: unknown): boolean => v === true || v === 1 || v === '1';
const text = (v: unknown): string | null => {
  const s = str(v);
  return s === null ? null : s.trim() || null;
};

export function readServer(row: Row): MssqlServer {
  const setting = num(row.user_connections_setting);
  const versionText = str(row.version_text) ?? '';
  return {
    product_version: text(row.product_version) ?? '',
    product_level: text(row.product_level),
    product_update_level: text(row.product_update_level),
    edition: text(row.edition),
    engine_edition: num(row.engine_edition) ?? null,
    server_name: text(row.server_name),
    hadr_enabled: bool(row.hadr_enabled),
    // @@VERSION: "Microsoft SQL Server 2022 (RTM-CU14) (KB...) - 16.0.4135.4 (X64)\n\tJul 10 2024 ..."
    version: versionText.split('\n')[0]?.trim() ?? '',
    self_id: num(row.self_id) ?? 0,
    // "user connections" 0 means as many as the instance allows (@@MAX_CONNECTIONS, 32,767).
    max_connections: setting !== undefined && setting > 0 ? setting : (num(row.max_connections) ?? null),
    database: text(row.database_name),
  };
}

/** The object name without its `SQLServer:` or `MSSQL$<instance>:` prefix. */
function objectOf(name: string): string {
  const colon = name.indexOf(':');
  return (colon >= 0 ? name.slice(colon + 1) : name).trim();
}

/** Reads rows of sys.dm_os_performance_counters, keyed by {@link counterKey}. */
export function readCounters(rows: readonly Row[]): MssqlCounters {
  const counters = new Map<string, MssqlCounter>();
  for (const row of rows) {
    const object = objectOf(str(row.object_name) ?? '');
    const counter = (str(row.counter_name) ?? '').trim();
    const instance = (str(row.instance_name) ?? '').trim();
    const value = num(row.cntr_value);
    const type = num(row.cntr_type);
    if (!counter || value === undefined || type === undefined) continue;
    counters.set(counterKey(object, counter, instance), { object, counter, instance, value, type });
  }
  return counters;
}

export function readSession(row: Row): MssqlSessionRow {
  return {
    id: num(row.session_id) ?? 0,
    login: text(row.login_name),
    database: text(row.database_name),
    host: text(row.host_name),
    client_address: text(row.client_net_address),
    program: text(row.program_name),
    session_status: text(row.session_status),
    request_status: text(row.request_status),
    command: text(row.command),
    wait_type: text(row.wait_type),
    wait_ms: num(row.wait_ms) ?? null,
    blocking_id: num(row.blocking_session_id) ?? null,
    elapsed_ms: num(row.elapsed_ms) ?? null,
    idle_s: num(row.idle_s) ?? null,
    open_transactions: num(row.open_transaction_count) ?? 0,
    query: str(row.query_text),
  };
}

/**
 * Reads the session rows; with MARS a session can run several requests at once, and it is listed
 * once, with its longest-running request.
 */
export function readSessions(rows: readonly Row[]): MssqlSessionRow[] {
  const byId = new Map<number, MssqlSessionRow>();
  for (const row of rows) {
    const s = readSession(row);
    const seen = byId.get(s.id);
    if (!seen || (s.elapsed_ms ?? -1) > (seen.elapsed_ms ?? -1)) byId.set(s.id, s);
  }
  return [...byId.values()];
}

/** Reads the rows of DBCC SQLPERF(LOGSPACE): `Database Name`, `Log Size (MB)`, `Log Space Used (%)`. */
export function readLogSpace(row: Row): MssqlLogSpace {
  const sizeMb = num(row['Log Size (MB)']) ?? 0;
  const usedPct = num(row['Log Space Used (%)']) ?? 0;
  return {
    database: str(row['Database Name']) ?? '',
    log_size_bytes: Math.round(sizeMb * 1024 * 1024),
    log_used_pct: usedPct,
  };
}

export function readDatabaseFiles(row: Row): MssqlDatabaseFiles {
  const data = num(row.data_bytes) ?? 0;
  const log = num(row.log_bytes) ?? 0;
  return { name: str(row.name) ?? '', state: text(row.state_desc), data_bytes: data, log_bytes: log };
}

export function readTableSize(row: Row): TableSize {
  return {
    database: str(row.database_name) ?? '',
    schema: str(row.schema_name),
    name: str(row.table_name) ?? '',
    size_bytes: num(row.size_bytes) ?? 0,
    data_bytes: num(row.data_bytes) ?? null,
    index_bytes: num(row.index_bytes) ?? null,
    rows: num(row.row_count) ?? null,
  };
}

export function readReplica(row: Row): MssqlReplicaRow {
  const kb = (v: unknown) => {
    const n = num(v);
    return n === undefined ? null : n * 1024;
  };
  return {
    group: str(row.group_name) ?? '',
    replica: str(row.replica_server_name) ?? '',
    availability_mode: text(row.availability_mode_desc),
    role: text(row.role_desc),
    connected_state: text(row.connected_state_desc),
    is_local: bool(row.is_local),
    is_primary: bool(row.is_primary_replica),
    database: text(row.database_name),
    synchronization_state: text(row.synchronization_state_desc),
    synchronization_health: text(row.synchronization_health_desc),
    suspended: bool(row.is_suspended),
    suspend_reason: text(row.suspend_reason_desc),
    log_send_queue_bytes: kb(row.log_send_queue_size),
    redo_queue_bytes: kb(row.redo_queue_size),
    lag_s: num(row.secondary_lag_seconds) ?? null,
    primary_replica: text(row.primary_replica),
  };
}
