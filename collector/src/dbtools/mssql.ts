import {
  type DatabaseTablesData,
  type DbHealthData,
  MAX_LISTED_SESSIONS,
  MAX_LISTED_TABLES,
  type MssqlPollerConfig,
  type PollerFailure,
  type ProcessListData,
  SERVICE_INSPECTIONS,
  type TableCountersData,
  type TableDefinitionData,
  type TableInfo,
  type TableRef,
} from '@flightdeck/schemas';
import sql from 'mssql';
import {
  errorMessage,
  failure,
  hostPort,
  isFailure,
  isProgrammerError,
  withTimeout,
} from '../pollers/failure';
import {
  classifyMssqlError,
  isPermissionError,
  LoginErrors,
  mssqlDriverConfig,
  withLockTimeout,
} from '../pollers/mssql-client';
import { type MssqlSessionRow, mssqlSessionLists } from '../pollers/mssql-metrics';
import {
  COUNTERS_SQL,
  LOG_SPACE_SQL,
  REPLICAS_SQL,
  readCounters,
  readLogSpace,
  readReplica,
  readServer,
  readSessions,
  SERVER_SQL,
  SESSIONS_SQL,
  UPTIME_SQL,
} from '../pollers/mssql-queries';
import { num, str } from '../pollers/rates';
import type { InspectionResult, Inspector, InspectorFactory } from './contract';
import { mssqlHealth } from './mssql-health';
import {
  bySize,
  DATABASE_SQL,
  DATABASES_HEALTH_SQL,
  DEFINITION_STMT,
  IN_DATABASE,
  LISTED_DATABASES_SQL,
  objectType,
  readColumn,
  readIndexes,
  readTableInfo,
  TABLE_COUNTS_SQL,
  TABLE_SIZES_STMT,
  TABLE_STATS_STMT,
  TABLE_USAGE_STMT,
  TABLES_STMT,
  tableCounterValues,
} from './mssql-sql';
import { closeWithin, tableCounters, tableWords } from './shared';

type Row = Record<string, unknown>;

/** What a statement is given: each name is bound as a parameter of its own type, never spliced. */
interface Inputs {
  db?: string;
  configured?: string;
  stmt?: string;
  schema?: string | null;
  name?: string | null;
  limit?: number | null;
}
/** Runs a batch and gives its result sets. */
type Query = (statement: string, inputs?: Inputs) => Promise<Row[][]>;

/** How the inspections' sessions show in sys.dm_exec_sessions.program_name. */
export const MSSQL_INSPECTOR_APPLICATION_NAME = 'flightdeck-inspector';

/** A table without a schema in the request is in the default one. */
const DEFAULT_SCHEMA = 'dbo';

/**
 * The SQL Server inspections. Each opens its own connection with the config's time-outs (a pool of
 * one, closed before answering), runs SELECTs only, each with a lock time-out, and reads other
 * databases through their own sp_executesql with every name bound. Sections the login may lack a
 * permission for (index use, statistics, log space, table counts) are left out with a warning.
 */
export const createMssqlInspector: InspectorFactory<'mssql'> = (config: MssqlPollerConfig, { logger }) => {
  const target = hostPort(config.host, config.port);
  const logins = new LoginErrors();

  async function withConnection<T>(
    work: (query: Query) => Promise<T | PollerFailure>,
  ): Promise<{ ok: true; data: T } | PollerFailure> {
    const pool = new sql.ConnectionPool(
      mssqlDriverConfig(config, { max: 1, idleMs: 1_000, appName: MSSQL_INSPECTOR_APPLICATION_NAME, logins }),
    );
    pool.on('error', (err: unknown) =>
      logger.warn({ service: 'mssql', target, err: errorMessage(err) }, 'inspection connection error'),
    );
    const query: Query = async (statement, inputs = {}) => {
      const request = pool.request();
      if (inputs.db !== undefined) request.input('db', sql.NVarChar(128), inputs.db);
      if (inputs.configured !== undefined) request.input('configured', sql.NVarChar(128), inputs.configured);
      if (inputs.stmt !== undefined) request.input('stmt', sql.NVarChar(sql.MAX), inputs.stmt);
      if (inputs.schema !== undefined) request.input('schema', sql.NVarChar(128), inputs.schema);
      if (inputs.name !== undefined) request.input('name', sql.NVarChar(128), inputs.name);
      if (inputs.limit !== undefined) request.input('limit', sql.Int, inputs.limit);
      const result = await withTimeout(
        request.query(withLockTimeout(statement)),
        config.query_timeout_ms + config.connect_timeout_ms,
      );
      return (result.recordsets ?? []) as unknown as Row[][];
    };
    try {
      await withTimeout(pool.connect(), config.connect_timeout_ms + 1_000);
      const result = await work(query);
      return isFailure(result) ? result : { ok: true, data: result };
    } catch (err) {
      if (isProgrammerError(err)) throw err;
      return classifyMssqlError(err, config, logins);
    } finally {
      await closeWithin(pool.close(), (err) =>
        logger.warn({ service: 'mssql', target, err: errorMessage(err) }, 'closing a connection failed'),
      );
    }
  }

  /** A section the login may lack the permission for: undefined, with a warning, when refused. */
  async function optional<T>(section: string, read: () => Promise<T>): Promise<T | undefined> {
    try {
      return await read();
    } catch (err) {
      if (!(err instanceof sql.RequestError) || (err as { code?: unknown }).code === 'ETIMEOUT') throw err;
      logger.warn(
        { service: 'mssql', target, section, err: errorMessage(err), permission: isPermissionError(err) },
        'inspection section skipped',
      );
      return undefined;
    }
  }

  /** Runs `stmt` inside database `db`, with the table's schema and name and a limit bound. */
  function inDatabase(query: Query, db: string, stmt: string, bound: Omit<Inputs, 'db' | 'stmt'> = {}) {
    return query(IN_DATABASE, {
      db,
      stmt,
      schema: bound.schema ?? null,
      name: bound.name ?? null,
      limit: bound.limit ?? null,
    });
  }

  /** The database of a request, or why it cannot be read. */
  async function usable(query: Query, db: string): Promise<PollerFailure | undefined> {
    const row = (await query(DATABASE_SQL, { db }))[0]?.[0];
    if (!row) return failure('not_found', `Database "${db}" does not exist at ${target}.`);
    const state = str(row.state_desc);
    if (state !== 'ONLINE') {
      return failure(
        'not_found',
        `Database "${db}" at ${target} is ${state ?? 'not online'}: its tables cannot be read.`,
      );
    }
    if (num(row.has_access) !== 1) {
      return failure(
        'auth_failed',
        `Authentication error at ${target} for login "${config.user}": it may not use database "${db}". Check the service logs to find the cause.`,
      );
    }
    return undefined;
  }

  const refOf = (table: TableRef): TableRef & { schema: string } => ({
    ...table,
    schema: table.schema ?? DEFAULT_SCHEMA,
  });

  function notFound(table: TableRef): PollerFailure {
    return failure('not_found', `${tableWords(refOf(table))} does not exist at ${target}.`);
  }

  async function sessions(query: Query): Promise<MssqlSessionRow[]> {
    return readSessions((await query(SESSIONS_SQL))[0] ?? []);
  }

  async function processList(query: Query): Promise<ProcessListData> {
    const lists = mssqlSessionLists(await sessions(query));
    return {
      ts: Date.now(),
      sessions: lists.sessions.slice(0, MAX_LISTED_SESSIONS),
      blocked: lists.blocked,
      long_query_s: config.long_query_s,
      truncated: lists.sessions.length > MAX_LISTED_SESSIONS,
    };
  }

  async function databaseTables(query: Query): Promise<DatabaseTablesData> {
    const names = ((await query(LISTED_DATABASES_SQL, { configured: config.database }))[0] ?? [])
      .map((r) => str(r.name))
      .filter((n): n is string => n !== null);
    const tables: TableInfo[] = [];
    for (const db of names) {
      // Each database brings at most what could still be listed, plus one to tell it was cut.
      const limit = MAX_LISTED_TABLES + 1 - tables.length;
      if (limit <= 0) break;
      const rows = await optional(`tables of database "${db}"`, async () =>
        ((await inDatabase(query, db, TABLES_STMT, { limit }))[0] ?? []).map(readTableInfo),
      );
      tables.push(...(rows ?? []));
    }
    tables.sort(bySize);
    return {
      ts: Date.now(),
      tables: tables.slice(0, MAX_LISTED_TABLES),
      truncated: tables.length > MAX_LISTED_TABLES,
    };
  }

  async function tableDefinition(
    query: Query,
    table: TableRef,
  ): Promise<TableDefinitionData | PollerFailure> {
    const ref = refOf(table);
    const refused = await usable(query, ref.database);
    if (refused) return refused;
    const [objects, columns, indexes] = await inDatabase(query, ref.database, DEFINITION_STMT, ref);
    const found = objects?.[0];
    if (!found) return notFound(table);
    return {
      table: {
        database: ref.database,
        schema: str(found.schema_name) ?? ref.schema,
        name: str(found.table_name) ?? ref.name,
      },
      type: objectType(str(found.object_type)),
      columns: (columns ?? []).map(readColumn),
      indexes: readIndexes(indexes ?? []),
      // SQL Server keeps no CREATE TABLE text; only views and modules have a definition.
      ddl: null,
    };
  }

  async function counters(query: Query, table: TableRef): Promise<TableCountersData | PollerFailure> {
    const ref = refOf(table);
    const refused = await usable(query, ref.database);
    if (refused) return refused;
    const sizes = (await inDatabase(query, ref.database, TABLE_SIZES_STMT, ref))[0]?.[0];
    if (!sizes) return notFound(table);
    const usage = await optional('index use', async () => {
      const [scans, operations] = await inDatabase(query, ref.database, TABLE_USAGE_STMT, ref);
      return { scans: scans?.[0], operations: operations?.[0] };
    });
    const stats = await optional(
      'statistics',
      async () => (await inDatabase(query, ref.database, TABLE_STATS_STMT, ref))[0]?.[0],
    );
    const now = Date.now();
    return {
      ts: now,
      table: {
        database: ref.database,
        schema: str(sizes.schema_name) ?? ref.schema,
        name: str(sizes.table_name) ?? ref.name,
      },
      counters: tableCounters(tableCounterValues(now, sizes, usage, stats)),
    };
  }

  async function dbHealth(query: Query): Promise<DbHealthData> {
    const server = readServer((await query(SERVER_SQL))[0]?.[0] ?? {});
    const uptime = num((await query(UPTIME_SQL))[0]?.[0]?.uptime_s) ?? 0;
    const counterRows = readCounters((await query(COUNTERS_SQL))[0] ?? []);
    const sessionRows = await sessions(query);
    const replicas = server.hadr_enabled
      ? await optional('availability groups', async () =>
          ((await query(REPLICAS_SQL))[0] ?? []).map(readReplica),
        )
      : null;
    const logSpace = await optional('log space', async () =>
      ((await query(LOG_SPACE_SQL))[0] ?? []).map(readLogSpace),
    );
    const tableCounts = await optional('table counts', async () => (await query(TABLE_COUNTS_SQL))[0] ?? []);
    const databases = (await query(DATABASES_HEALTH_SQL))[0] ?? [];
    return mssqlHealth(
      {
        server,
        uptime_s: uptime,
        counters: counterRows,
        sessions: sessionRows,
        replicas,
        databases,
        logSpace,
        tableCounts,
        long_query_s: config.long_query_s,
      },
      Date.now(),
    );
  }

  const inspector: Inspector = {
    supports: SERVICE_INSPECTIONS.mssql ?? [],
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
        result = failure('bad_config', `SQL Server has no "${inspection}" inspection for this request.`);
      }
      return result as InspectionResult<typeof inspection>;
    },
  };
  return inspector;
};
