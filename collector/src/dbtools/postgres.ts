import {
  type DatabaseHealth,
  type DatabaseTablesData,
  type DbHealthData,
  MAX_LISTED_SESSIONS,
  MAX_LISTED_TABLES,
  type PollerFailure,
  type PostgresPollerConfig,
  type ProcessListData,
  SERVICE_INSPECTIONS,
  type TableCounterKey,
  type TableCountersData,
  type TableDefinitionData,
  type TableRef,
} from '@flightdeck/schemas';
import pg from 'pg';
import { errorCode, errorMessage, failure, hostPort, isFailure, isProgrammerError } from '../pollers/failure';
import { classifyPgError, pgClientConfig } from '../pollers/postgres';
import { pgReplication, pgSessionLists } from '../pollers/postgres-metrics';
import {
  activitySql,
  REPLICAS_SQL,
  readActivity,
  readReplica,
  readServer,
  readStandby,
  SERVER_SQL,
  standbySql,
} from '../pollers/postgres-queries';
import { num, round, str } from '../pollers/rates';
import type { InspectionResult, Inspector, InspectorFactory } from './contract';
import * as health from './health';
import {
  COUNTERS_SQL,
  CURRENT_TABLES_SQL,
  columnsSql,
  FIND_TABLE_SQL,
  HEALTH_DATABASES_SQL,
  INDEXES_SQL,
  PG_INSPECTOR_APPLICATION_NAME,
  PG_READ_ONLY_OPTIONS,
  PG_STAT_COUNTERS,
  type PgHealthDatabaseRow,
  RELATION_TYPES,
  readColumn,
  readHealthDatabase,
  readIndex,
  readTable,
  tablesSql,
  VERSION_SQL,
} from './postgres-sql';
import { closeWithin, tableCounters, tableWords } from './shared';

type Row = Record<string, unknown>;
type Query = (sql: string, params?: unknown[]) => Promise<Row[]>;

/**
 * The PostgreSQL inspections. Each opens one connection (to the config's database, or to the
 * database of the table asked about), in read-only transactions with the config's statement,
 * lock and driver time-outs, and closes it before answering. `database_tables` lists the config's
 * database only: every other database would need a connection of its own.
 */
export const createPostgresInspector: InspectorFactory<'postgresql'> = (
  config: PostgresPollerConfig,
  { logger },
) => {
  const target = hostPort(config.host, config.port);

  /** Runs `work` on a new connection to `database`; its failure or the driver's becomes a result. */
  async function withClient<T>(
    database: string,
    work: (query: Query) => Promise<T | PollerFailure>,
  ): Promise<{ ok: true; data: T } | PollerFailure> {
    const scoped = database === config.database ? config : { ...config, database };
    const client = new pg.Client({
      ...pgClientConfig(config, {
        database,
        application_name: PG_INSPECTOR_APPLICATION_NAME,
        options: PG_READ_ONLY_OPTIONS,
      }),
      // Well inside the statement time-out, so a table list waiting on a locked table has the time
      // left to read the page counts instead.
      lock_timeout: Math.min(2000, Math.floor(config.query_timeout_ms / 3)),
    });
    // A connection the server drops mid-inspection must not crash the process: the query fails too.
    client.on('error', (err) =>
      logger.warn({ service: 'postgresql', target, err: err.message }, 'inspection connection lost'),
    );
    try {
      await client.connect();
      const result = await work(async (sql, params) => (await client.query(sql, params)).rows as Row[]);
      return isFailure(result) ? result : { ok: true, data: result };
    } catch (err) {
      if (isProgrammerError(err)) throw err;
      return classifyPgError(err, scoped);
    } finally {
      await closeWithin(client.end(), (err) =>
        logger.warn({ service: 'postgresql', target, err: errorMessage(err) }, 'closing a connection failed'),
      );
    }
  }

  async function versionNum(query: Query): Promise<number> {
    return num((await query(VERSION_SQL))[0]?.version_num) ?? 0;
  }

  function notFound(table: TableRef): PollerFailure {
    return failure(
      'not_found',
      table.schema === null
        ? `Table "${table.name}" does not exist on the search path of database "${table.database}" at ${target}.`
        : `${tableWords(table)} does not exist at ${target}.`,
    );
  }

  /** The table's oid, kind and schema, or not_found. */
  async function find(query: Query, table: TableRef) {
    const row = (await query(FIND_TABLE_SQL, [table.schema, table.name]))[0];
    if (!row) return notFound(table);
    return { oid: str(row.oid) ?? '', kind: str(row.kind) ?? 'r', schema: str(row.schema) };
  }

  async function processList(query: Query): Promise<ProcessListData> {
    const activity = (await query(activitySql(await versionNum(query)))).map(readActivity);
    const lists = pgSessionLists(activity, config.long_query_s);
    return {
      ts: Date.now(),
      sessions: lists.sessions.slice(0, MAX_LISTED_SESSIONS),
      blocked: lists.blocked,
      long_query_s: config.long_query_s,
      truncated: lists.sessions.length > MAX_LISTED_SESSIONS,
    };
  }

  async function databaseTables(query: Query): Promise<DatabaseTablesData> {
    const version = await versionNum(query);
    let rows: Row[];
    try {
      rows = await query(tablesSql(version, false), [MAX_LISTED_TABLES + 1]);
    } catch (err) {
      if (errorCode(err) !== '55P03') throw err;
      // A table locked by an ALTER or a VACUUM FULL: list it anyway, with the planner's sizes.
      logger.info(
        { service: 'postgresql', target, err: errorMessage(err) },
        'a table is locked: table sizes estimated from page counts',
      );
      rows = await query(tablesSql(version, true), [MAX_LISTED_TABLES + 1]);
    }
    return {
      ts: Date.now(),
      tables: rows.slice(0, MAX_LISTED_TABLES).map(readTable),
      truncated: rows.length > MAX_LISTED_TABLES,
    };
  }

  async function tableDefinition(
    query: Query,
    table: TableRef,
  ): Promise<TableDefinitionData | PollerFailure> {
    const found = await find(query, table);
    if (isFailure(found)) return found;
    const version = await versionNum(query);
    const columns = (await query(columnsSql(version), [found.oid])).map(readColumn);
    const indexes = (await query(INDEXES_SQL, [found.oid])).map(readIndex);
    return {
      table: { ...table, schema: found.schema },
      type: RELATION_TYPES[found.kind] ?? 'table',
      columns,
      indexes,
      ddl: null,
    };
  }

  async function counters(query: Query, table: TableRef): Promise<TableCountersData | PollerFailure> {
    const found = await find(query, table);
    if (isFailure(found)) return found;
    const row = (await query(COUNTERS_SQL, [found.oid]))[0] ?? {};
    const values: Partial<Record<TableCounterKey, number | null>> = {};
    if (found.kind === 'r' || found.kind === 'm') {
      const rows = num(row.rows) ?? null;
      // reltuples is -1 for a table never vacuumed or analysed (PostgreSQL 14+).
      values.rows = rows === null || rows < 0 ? null : rows;
      values.data_bytes = num(row.data_bytes) ?? null;
      values.index_bytes = num(row.index_bytes) ?? null;
      values.size_bytes =
        values.data_bytes === null || values.index_bytes === null
          ? null
          : values.data_bytes + values.index_bytes;
    }
    if (row.has_stats === true) {
      for (const key of PG_STAT_COUNTERS) values[key] = num(row[key]) ?? null;
    }
    return {
      ts: Date.now(),
      table: { ...table, schema: found.schema },
      counters: tableCounters(values),
    };
  }

  async function dbHealth(query: Query): Promise<DbHealthData> {
    const server = readServer((await query(SERVER_SQL))[0] ?? {});
    const activity = (await query(activitySql(server.version_num))).map(readActivity);
    const databases = (await query(HEALTH_DATABASES_SQL)).map(readHealthDatabase);
    const current = (await query(CURRENT_TABLES_SQL))[0] ?? {};
    const lists = pgSessionLists(activity, config.long_query_s);
    const checks: health.HealthCheckResult[] = [
      health.connectionsUsage(activity.length, server.max_connections),
    ];
    const hits = databases.reduce((sum, d) => sum + d.blks_hit, 0);
    const reads = databases.reduce((sum, d) => sum + d.blks_read, 0);
    checks.push(
      health.cacheHitRatio(hits, hits + reads),
      health.longQueries(
        lists.long_queries.length,
        config.long_query_s,
        lists.long_queries[0]?.duration_s ?? null,
      ),
      health.blockedSessions(lists.blocked.length, null),
    );
    // Each database counts since its own reset: the instance's rate is the sum of theirs.
    const since = health.sinceWords(
      Math.max(0, ...databases.map((d) => d.stats_s)),
      'the statistics were reset or the server started',
    );
    checks.push(
      health.deadlocks(
        databases.reduce((sum, d) => sum + d.deadlocks, 0),
        databases.reduce((sum, d) => sum + health.perHour(d.deadlocks, d.stats_s), 0),
        since,
      ),
      ...(await replicationChecks(query, server)),
    );
    const oldest = databases.reduce<PgHealthDatabaseRow | undefined>(
      (o, d) => (d.xid_age !== null && (o?.xid_age ?? -1) < d.xid_age ? d : o),
      undefined,
    );
    if (oldest?.xid_age != null) checks.push(health.transactionIdAge(oldest.xid_age, oldest.name));
    checks.push(
      health.deadRowsRatio(num(current.dead_rows) ?? 0, num(current.all_rows) ?? 0, config.database),
      health.tempBytes(
        databases.reduce((sum, d) => sum + d.temp_bytes, 0),
        databases.reduce((sum, d) => sum + health.perHour(d.temp_bytes, d.stats_s), 0),
        since,
      ),
      health.uptime(server.uptime_s),
    );
    const tables = num(current.tables) ?? null;
    const figures = databases.map((d) => databaseHealth(d, d.current ? tables : null));
    return {
      ts: Date.now(),
      status: health.worstStatus([...checks, ...figures].map((c) => c.status)),
      checks: checks.sort(health.byStatus),
      databases: figures.sort(health.byStatus),
    };
  }

  /** Replication as this server sees it; a view it may not read makes the checks unknown. */
  async function replicationChecks(
    query: Query,
    server: ReturnType<typeof readServer>,
  ): Promise<health.HealthCheckResult[]> {
    let status: ReturnType<typeof pgReplication>;
    try {
      status = server.in_recovery
        ? pgReplication({
            server,
            databases: [],
            activity: [],
            standby: readStandby((await query(standbySql(server.version_num)))[0] ?? {}),
          })
        : pgReplication({
            server,
            databases: [],
            activity: [],
            replicas: (await query(REPLICAS_SQL)).map(readReplica),
          });
    } catch (err) {
      if (isProgrammerError(err)) throw err;
      logger.warn({ service: 'postgresql', target, err: errorMessage(err) }, 'replication could not be read');
      return [
        health.unknown('replication_state', 'count', `Replication could not be read: ${errorMessage(err)}.`),
      ];
    }
    if (status.role === 'replica') {
      const streaming = status.state === 'streaming';
      return [
        {
          check: 'replication_state',
          status: streaming ? 'ok' : 'warning',
          value: null,
          unit: 'count',
          detail: streaming
            ? `Streaming from ${status.source ?? 'its primary'}.`
            : status.state === null
              ? 'This standby has no WAL receiver: it replays from the archive or has lost its primary.'
              : `The WAL receiver is "${status.state}", not streaming.`,
        },
        health.replicationLag(status.lag_s, 'This standby'),
      ];
    }
    if (status.role === 'primary') {
      const behind = status.replicas.filter((r) => r.state !== 'streaming');
      const lags = status.replicas.map((r) => r.lag_s).filter((l): l is number => l !== null);
      const worst = status.replicas.find((r) => r.lag_s === Math.max(...lags));
      return [
        {
          check: 'replication_state',
          status: behind.length > 0 ? 'warning' : 'ok',
          value: status.replicas.length,
          unit: 'count',
          detail:
            behind.length > 0
              ? `Not streaming: ${behind.map((r) => `${r.name} (${r.state ?? 'unknown'})`).join(', ')}.`
              : `${status.replicas.length} replica(s) streaming.`,
        },
        // An idle replica that has replayed everything reports no lag.
        health.replicationLag(lags.length > 0 ? Math.max(...lags) : 0, `Replica ${worst?.name ?? ''}`.trim()),
      ];
    }
    return [
      {
        check: 'replication_state',
        status: 'ok',
        value: 0,
        unit: 'count',
        detail: 'This server neither streams to replicas nor replicates from a primary.',
      },
    ];
  }

  function databaseHealth(d: PgHealthDatabaseRow, tables: number | null): DatabaseHealth {
    const requests = d.blks_hit + d.blks_read;
    const ratio = requests > 0 ? round(d.blks_hit / requests, 4) : null;
    const statuses = [
      d.xid_age === null ? 'ok' : health.levelAbove(d.xid_age, health.HEALTH_THRESHOLDS.transaction_id_age),
      ratio === null || requests < health.HEALTH_THRESHOLDS.cache_hit_ratio.min_requests
        ? 'ok'
        : health.levelBelow(ratio, health.HEALTH_THRESHOLDS.cache_hit_ratio),
    ] as const;
    return {
      name: d.name,
      status: health.worstStatus(statuses),
      size_bytes: d.size_bytes,
      connections: d.numbackends,
      cache_hit_ratio: ratio,
      commits: d.commits,
      rollbacks: d.rollbacks,
      deadlocks: d.deadlocks,
      temp_bytes: d.temp_bytes,
      transaction_id_age: d.xid_age,
      tables,
    };
  }

  const inspector: Inspector = {
    supports: SERVICE_INSPECTIONS.postgresql ?? [],
    async inspect(request) {
      const { inspection, table } = request;
      let result: InspectionResult;
      if (inspection === 'process_list') result = await withClient(config.database, processList);
      else if (inspection === 'database_tables') result = await withClient(config.database, databaseTables);
      else if (inspection === 'db_health') result = await withClient(config.database, dbHealth);
      else if (inspection === 'table_definition' && table) {
        result = await withClient(table.database, (query) => tableDefinition(query, table));
      } else if (inspection === 'table_counters' && table) {
        result = await withClient(table.database, (query) => counters(query, table));
      } else {
        result = failure('bad_config', `PostgreSQL has no "${inspection}" inspection for this request.`);
      }
      return result as InspectionResult<typeof inspection>;
    },
  };
  return inspector;
};
