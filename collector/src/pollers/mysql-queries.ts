import type { DatabaseSize, TableSize } from '@flightdeck/schemas';
import type {
  MysqlLockWaitRow,
  MysqlProcessRow,
  MysqlReplicaRow,
  MysqlStatus,
  MysqlVariables,
} from './mysql-metrics';
import { num, round, str } from './rates';

/**
 * The SQL of the MySQL poller (MySQL 5.7 and 8, MariaDB 10 and 11) and the readers that turn the
 * driver's rows into typed rows. Everything reads status, variables and information_schema with
 * plain SELECT and SHOW statements.
 */

type Row = Record<string, unknown>;

export const VARIABLES_SQL = `SELECT @@version AS version, @@version_comment AS version_comment,
  @@max_connections AS max_connections, @@innodb_buffer_pool_size AS buffer_pool_size,
  CONNECTION_ID() AS self_id`;

export function processlistSql(mariadb: boolean): string {
  return `SELECT ID AS id, USER AS user, HOST AS host, DB AS db, COMMAND AS command, TIME AS time,
  ${mariadb ? 'TIME_MS' : 'NULL'} AS time_ms, STATE AS state, LEFT(INFO, 2048) AS info
FROM information_schema.PROCESSLIST`;
}

/**
 * InnoDB lock waits, waiting and holding thread ids. MySQL 8 moved them to performance_schema;
 * MariaDB and MySQL 5.7 keep information_schema.INNODB_LOCK_WAITS, read from a cache InnoDB refreshes
 * only once nobody has read it for 100 ms: at poll intervals that always holds.
 */
export function lockWaitsSql(version: string): string {
  const mysql8 = !/mariadb/i.test(version) && Number.parseInt(version, 10) >= 8;
  const [from, requesting, blocking] = mysql8
    ? [
        'performance_schema.data_lock_waits',
        'w.REQUESTING_ENGINE_TRANSACTION_ID',
        'w.BLOCKING_ENGINE_TRANSACTION_ID',
      ]
    : ['information_schema.INNODB_LOCK_WAITS', 'w.requesting_trx_id', 'w.blocking_trx_id'];
  return `SELECT r.trx_mysql_thread_id AS waiting_id, b.trx_mysql_thread_id AS blocking_id,
  TIMESTAMPDIFF(SECOND, r.trx_wait_started, NOW()) AS wait_s
FROM ${from} w
JOIN information_schema.INNODB_TRX r ON r.trx_id = ${requesting}
JOIN information_schema.INNODB_TRX b ON b.trx_id = ${blocking}`;
}

const SYSTEM_SCHEMAS = `('information_schema', 'performance_schema', 'sys', 'mysql')`;

export const SCHEMA_SIZES_SQL = `SELECT table_schema AS name, SUM(data_length + index_length) AS size_bytes
FROM information_schema.TABLES
WHERE table_schema NOT IN ('information_schema', 'performance_schema')
GROUP BY table_schema ORDER BY size_bytes DESC`;

export const TABLE_SIZES_SQL = `SELECT table_schema AS db, table_name AS name, data_length AS data_bytes,
  index_length AS index_bytes, data_length + index_length AS size_bytes, table_rows AS table_rows
FROM information_schema.TABLES
WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ${SYSTEM_SCHEMAS}
ORDER BY size_bytes DESC LIMIT ?`;

export function readVariables(row: Row): MysqlVariables {
  return {
    version: str(row.version) ?? '',
    version_comment: str(row.version_comment) ?? '',
    max_connections: num(row.max_connections) ?? 0,
    buffer_pool_size: num(row.buffer_pool_size) ?? null,
    self_id: num(row.self_id) ?? 0,
  };
}

/** Reads the rows of `SHOW GLOBAL STATUS` (`Variable_name`, `Value`). */
export function readGlobalStatus(rows: readonly Row[]): MysqlStatus {
  const status = new Map<string, number>();
  for (const row of rows) {
    const name = str(row.Variable_name ?? row.VARIABLE_NAME);
    const value = num(row.Value ?? row.VARIABLE_VALUE);
    if (name && value !== undefined) status.set(name.toLowerCase(), value);
  }
  return status;
}

export function readProcess(row: Row): MysqlProcessRow {
  const timeMs = num(row.time_ms);
  const time = num(row.time);
  return {
    id: num(row.id) ?? 0,
    user: str(row.user),
    host: str(row.host),
    db: str(row.db),
    command: str(row.command),
    time_s: timeMs !== undefined ? round(timeMs / 1000) : (time ?? null),
    state: str(row.state),
    info: str(row.info),
  };
}

export function readLockWait(row: Row): MysqlLockWaitRow {
  return {
    waiting_id: num(row.waiting_id) ?? 0,
    blocking_id: num(row.blocking_id) ?? 0,
    wait_s: num(row.wait_s) ?? null,
  };
}

export function readReplicaStatus(row: Row): MysqlReplicaRow {
  const pick = (...names: string[]) => {
    for (const name of names) if (row[name] !== undefined) return row[name];
    return undefined;
  };
  const host = str(pick('Source_Host', 'Master_Host'));
  const port = num(pick('Source_Port', 'Master_Port'));
  const errors = [pick('Last_IO_Error'), pick('Last_SQL_Error'), pick('Last_Error')]
    .map(str)
    .filter((e) => e);
  return {
    io_running: str(pick('Replica_IO_Running', 'Slave_IO_Running')),
    sql_running: str(pick('Replica_SQL_Running', 'Slave_SQL_Running')),
    lag_s: num(pick('Seconds_Behind_Source', 'Seconds_Behind_Master')) ?? null,
    source: host ? (port ? `${host}:${port}` : host) : null,
    last_error: errors[0] ?? null,
  };
}

export function readSchemaSize(row: Row): DatabaseSize {
  return { name: str(row.name) ?? '', size_bytes: num(row.size_bytes) ?? 0 };
}

export function readTableSize(row: Row): TableSize {
  return {
    database: str(row.db) ?? '',
    schema: null,
    name: str(row.name) ?? '',
    size_bytes: num(row.size_bytes) ?? 0,
    data_bytes: num(row.data_bytes) ?? null,
    index_bytes: num(row.index_bytes) ?? null,
    rows: num(row.table_rows) ?? null,
  };
}
