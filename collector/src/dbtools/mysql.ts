import {
  type DatabaseHealth,
  type DatabaseTablesData,
  type DbHealthData,
  MAX_LISTED_SESSIONS,
  MAX_LISTED_TABLES,
  type MysqlPollerConfig,
  type PollerFailure,
  type ProcessListData,
  SERVICE_INSPECTIONS,
  type TableCounterKey,
  type TableCountersData,
  type TableDefinitionData,
  type TableRef,
} from '@flightdeck/schemas';
import mysql from 'mysql2/promise';
import {
  errorCode,
  errorMessage,
  failure,
  hostPort,
  isFailure,
  isProgrammerError,
  withTimeout,
} from '../pollers/failure';
import { classifyMysqlError, mysqlConnectionOptions, mysqlStatementTimeouts } from '../pollers/mysql';
import {
  type MysqlProcessRow,
  type MysqlReplicaRow,
  type MysqlVariables,
  mysqlReplication,
  mysqlSessionLists,
} from '../pollers/mysql-metrics';
import {
  lockWaitsSql,
  processlistSql,
  readGlobalStatus,
  readLockWait,
  readProcess,
  readReplicaStatus,
  readVariables,
  VARIABLES_SQL,
} from '../pollers/mysql-queries';
import { num, str } from '../pollers/rates';
import type { InspectionResult, Inspector, InspectorFactory } from './contract';
import * as health from './health';
import {
  COLUMNS_SQL,
  DEADLOCKS_METRIC_SQL,
  FIND_TABLE_SQL,
  INDEX_COLUMNS_SQL,
  INDEX_SIZES_SQL,
  PERFORMANCE_SCHEMA_SQL,
  readColumn,
  readIndexes,
  readTable,
  SCHEMAS_SQL,
  TABLE_IO_SQL,
  TABLES_SQL,
  tableType,
} from './mysql-sql';
import { closeWithin, tableCounters, tableWords } from './shared';

type Row = Record<string, unknown>;
type Query = (sql: string, values?: unknown[]) => Promise<Row[]>;

/** The driver's errors that mean the connection can no longer be trusted: give up, do not read on. */
const FATAL_CODES = new Set(['PROTOCOL_SEQUENCE_TIMEOUT', 'PROTOCOL_CONNECTION_LOST', 'ECONNRESET', 'EPIPE']);

/**
 * The MySQL and MariaDB inspections. Each opens one connection with the config's connect
 * time-out, sets the server-side statement time-out and a read-only session, and closes it before
 * answering. Sections a user may lack the privilege for (lock waits, replication, index sizes,
 * performance_schema) are left out with a warning naming the target.
 */
export const createMysqlInspector: InspectorFactory<'mysql'> = (config: MysqlPollerConfig, { logger }) => {
  const target = hostPort(config.host, config.port);

  async function withConnection<T>(
    work: (query: Query) => Promise<T | PollerFailure>,
  ): Promise<{ ok: true; data: T } | PollerFailure> {
    const pending = mysql.createConnection(mysqlConnectionOptions(config));
    let conn: mysql.Connection;
    try {
      // connectTimeout bounds the driver's handshake; this bounds anything it does not cover.
      conn = await withTimeout(pending, config.connect_timeout_ms + 1000);
    } catch (err) {
      // A connection that arrives after the wait gave up is closed; its failure was answered.
      pending.then(
        (late) => late.destroy(),
        () => {},
      );
      return classifyMysqlError(err, config);
    }
    // A connection the server drops mid-inspection must not crash the process: the query fails too.
    conn.on('error', (err: Error) =>
      logger.warn({ service: 'mysql', target, err: err.message }, 'inspection connection lost'),
    );
    const query: Query = async (sql, values) => {
      const [rows] = await conn.query({ sql, timeout: config.query_timeout_ms }, values);
      return rows as Row[];
    };
    let broken = false;
    try {
      const [mariadbTimeout, mysqlTimeout] = mysqlStatementTimeouts(config.query_timeout_ms);
      try {
        await query(mariadbTimeout);
      } catch (err) {
        if (errorCode(err) !== 'ER_UNKNOWN_SYSTEM_VARIABLE') throw err;
        await query(mysqlTimeout);
      }
      await query('SET SESSION TRANSACTION READ ONLY');
      const result = await work(query);
      return isFailure(result) ? result : { ok: true, data: result };
    } catch (err) {
      // A timed-out query may still answer later: the connection cannot be closed politely.
      broken = true;
      if (isProgrammerError(err)) throw err;
      return classifyMysqlError(err, config);
    } finally {
      const closed =
        !broken &&
        (await closeWithin(conn.end(), (err) =>
          logger.warn({ service: 'mysql', target, err: errorMessage(err) }, 'closing a connection failed'),
        ));
      if (!closed) conn.destroy();
    }
  }

  /** A section the user may lack the privilege for: undefined, with a warning, when it fails. */
  async function optional<T>(section: string, read: () => Promise<T>): Promise<T | undefined> {
    try {
      return await read();
    } catch (err) {
      if (isProgrammerError(err) || FATAL_CODES.has(errorCode(err) ?? '')) throw err;
      logger.warn(
        { service: 'mysql', target, section, err: errorMessage(err) },
        'inspection section skipped',
      );
      return undefined;
    }
  }

  function notFound(table: TableRef): PollerFailure {
    return failure('not_found', `${tableWords({ ...table, schema: null })} does not exist at ${target}.`);
  }

  async function server(query: Query) {
    const vars = readVariables((await query(VARIABLES_SQL))[0] ?? {});
    const processes = (await query(processlistSql(/mariadb/i.test(vars.version)))).map(readProcess);
    const waits = await optional('lock waits', async () =>
      (await query(lockWaitsSql(vars.version))).map(readLockWait),
    );
    return { vars, processes, waits };
  }

  async function processList(query: Query): Promise<ProcessListData> {
    const { vars, processes, waits } = await server(query);
    const lists = mysqlSessionLists(processes, waits ?? [], vars.self_id, config.long_query_s);
    return {
      ts: Date.now(),
      sessions: lists.sessions.slice(0, MAX_LISTED_SESSIONS),
      blocked: lists.blocked,
      long_query_s: config.long_query_s,
      truncated: lists.sessions.length > MAX_LISTED_SESSIONS,
    };
  }

  async function databaseTables(query: Query): Promise<DatabaseTablesData> {
    const rows = await query(TABLES_SQL, [MAX_LISTED_TABLES + 1]);
    return {
      ts: Date.now(),
      tables: rows.slice(0, MAX_LISTED_TABLES).map(readTable),
      truncated: rows.length > MAX_LISTED_TABLES,
    };
  }

  async function find(query: Query, table: TableRef): Promise<Row | PollerFailure> {
    return (await query(FIND_TABLE_SQL, [table.database, table.name]))[0] ?? notFound(table);
  }

  async function tableDefinition(
    query: Query,
    table: TableRef,
  ): Promise<TableDefinitionData | PollerFailure> {
    const found = await find(query, table);
    if (isFailure(found)) return found;
    const name = str(found.name) ?? table.name;
    const columns = (await query(COLUMNS_SQL, [table.database, name])).map(readColumn);
    const sizes = await optional('index sizes', async () => {
      const rows = await query(INDEX_SIZES_SQL, [table.database, name]);
      return new Map(rows.map((r) => [str(r.name) ?? '', num(r.size_bytes) ?? 0]));
    });
    const indexes = readIndexes(await query(INDEX_COLUMNS_SQL, [table.database, name]), sizes ?? new Map());
    let ddl: string | null;
    try {
      const row = (
        await query(`SHOW CREATE TABLE ${mysql.escapeId(table.database)}.${mysql.escapeId(name)}`)
      )[0];
      ddl = str(row?.['Create Table'] ?? row?.['Create View']);
    } catch (err) {
      // Dropped between the two reads.
      if (errorCode(err) === 'ER_NO_SUCH_TABLE' || errorCode(err) === 'ER_BAD_DB_ERROR')
        return notFound(table);
      throw err;
    }
    return {
      table: { database: table.database, schema: null, name },
      type: tableType(str(found.type)),
      columns,
      indexes,
      ddl,
    };
  }

  async function counters(query: Query, table: TableRef): Promise<TableCountersData | PollerFailure> {
    const found = await find(query, table);
    if (isFailure(found)) return found;
    const name = str(found.name) ?? table.name;
    const values: Partial<Record<TableCounterKey, number | null>> = {};
    const nn = (v: unknown) => num(v) ?? null;
    if (found.type !== 'VIEW') {
      values.rows = nn(found.table_rows);
      values.data_bytes = nn(found.data_bytes);
      values.index_bytes = nn(found.index_bytes);
      values.size_bytes =
        values.data_bytes === null || values.index_bytes === null
          ? null
          : values.data_bytes + values.index_bytes;
      values.free_bytes = nn(found.free_bytes);
      values.auto_increment = nn(found.auto_increment);
      values.created_at = nn(found.created_at);
      values.updated_at = nn(found.updated_at);
      const on = num((await query(PERFORMANCE_SCHEMA_SQL))[0]?.on_) === 1;
      const io = on
        ? await optional('table I/O', async () => (await query(TABLE_IO_SQL, [table.database, name]))[0])
        : undefined;
      if (io) {
        for (const key of [
          'rows_read',
          'rows_inserted',
          'rows_updated',
          'rows_deleted',
          'rows_fetched_wait_s',
          'rows_changed_wait_s',
        ] as const) {
          values[key] = nn(io[key]);
        }
      }
    }
    return {
      ts: Date.now(),
      table: { database: table.database, schema: null, name },
      counters: tableCounters(values),
    };
  }

  async function dbHealth(query: Query): Promise<DbHealthData> {
    const status = readGlobalStatus(await query('SHOW GLOBAL STATUS'));
    const { vars, processes, waits } = await server(query);
    const lists = mysqlSessionLists(processes, waits ?? [], vars.self_id, config.long_query_s);
    const stat = (name: string) => status.get(name) ?? 0;
    const checks: health.HealthCheckResult[] = [
      health.connectionsUsage(stat('threads_connected'), vars.max_connections),
      health.cacheHitRatio(
        stat('innodb_buffer_pool_read_requests') - stat('innodb_buffer_pool_reads'),
        stat('innodb_buffer_pool_read_requests'),
      ),
      health.longQueries(
        lists.long_queries.length,
        config.long_query_s,
        lists.long_queries[0]?.duration_s ?? null,
      ),
      health.blockedSessions(
        waits ? lists.blocked.length : null,
        'The InnoDB lock waits could not be read: grant the user the PROCESS privilege.',
      ),
    ];
    const counted = status.get('uptime_since_flush_status') ?? stat('uptime');
    const deadlockCount =
      status.get('innodb_deadlocks') ??
      (await optional('deadlocks', async () => num((await query(DEADLOCKS_METRIC_SQL))[0]?.deadlocks)));
    checks.push(
      deadlockCount === undefined
        ? health.unknown('deadlocks', 'count', 'The server does not count InnoDB deadlocks.')
        : health.deadlocks(
            deadlockCount,
            health.perHour(deadlockCount, counted),
            health.sinceWords(counted, 'the status counters were reset'),
          ),
      ...(await replicationChecks(query, vars, processes)),
      health.tempDiskRatio(stat('created_tmp_disk_tables'), stat('created_tmp_tables')),
      health.abortedConnections(stat('aborted_connects'), stat('connections')),
      health.uptime(stat('uptime')),
    );
    const others = processes.filter((p) => p.id !== vars.self_id);
    const databases: DatabaseHealth[] = (await query(SCHEMAS_SQL)).map((row) => {
      const name = str(row.name) ?? '';
      return {
        name,
        status: 'ok',
        size_bytes: num(row.size_bytes) ?? 0,
        connections: others.filter((p) => p.db === name).length,
        cache_hit_ratio: null,
        commits: null,
        rollbacks: null,
        deadlocks: null,
        temp_bytes: null,
        transaction_id_age: null,
        tables: num(row.tables) ?? 0,
      };
    });
    return {
      ts: Date.now(),
      status: health.worstStatus(checks.map((c) => c.status)),
      checks: checks.sort(health.byStatus),
      databases,
    };
  }

  /** Which statement shows replica status: MySQL 8.4 dropped SHOW SLAVE STATUS, old servers lack REPLICA. */
  async function replicaStatus(query: Query): Promise<MysqlReplicaRow | null> {
    let rows: Row[];
    try {
      rows = await query('SHOW REPLICA STATUS');
    } catch (err) {
      if (errorCode(err) !== 'ER_PARSE_ERROR') throw err;
      rows = await query('SHOW SLAVE STATUS');
    }
    return rows[0] ? readReplicaStatus(rows[0]) : null;
  }

  async function replicationChecks(
    query: Query,
    variables: MysqlVariables,
    processes: MysqlProcessRow[],
  ): Promise<health.HealthCheckResult[]> {
    const replica = await optional('replication', () => replicaStatus(query));
    if (replica === undefined) {
      return [
        health.unknown(
          'replication_state',
          'count',
          'The replica status could not be read: grant the user the REPLICATION CLIENT (MariaDB: SLAVE MONITOR) privilege.',
        ),
      ];
    }
    const r = mysqlReplication({ status: new Map(), variables, processes, replica });
    if (r.role === 'replica') {
      const state: health.Level =
        r.state === 'running' ? 'ok' : r.state === 'connecting' ? 'warning' : 'critical';
      return [
        {
          check: 'replication_state',
          status: r.last_error ? 'critical' : state,
          value: null,
          unit: 'count',
          detail:
            r.last_error ??
            (state === 'ok' ? `Replicating from ${r.source ?? 'its source'}.` : `Replication is ${r.state}.`),
        },
        health.replicationLag(r.lag_s, 'This replica'),
      ];
    }
    return [
      {
        check: 'replication_state',
        status: 'ok',
        value: r.replicas.length,
        unit: 'count',
        detail:
          r.role === 'primary'
            ? `${r.replicas.length} replica(s) reading the binary log.`
            : 'This server neither feeds replicas nor replicates from a source.',
      },
    ];
  }

  const inspector: Inspector = {
    supports: SERVICE_INSPECTIONS.mysql ?? [],
    async inspect(request) {
      const { inspection, table } = request;
      let result: InspectionResult;
      if (inspection === 'process_list') result = await withConnection(processList);
      else if (inspection === 'database_tables') result = await withConnection(databaseTables);
      else if (inspection === 'db_health') result = await withConnection(dbHealth);
      else if (inspection === 'table_definition' && table) {
        result = await withConnection((query) => tableDefinition(query, table));
      } else if (inspection === 'table_counters' && table) {
        result = await withConnection((query) => counters(query, table));
      } else {
        result = failure('bad_config', `MySQL has no "${inspection}" inspection for this request.`);
      }
      return result as InspectionResult<typeof inspection>;
    },
  };
  return inspector;
};
