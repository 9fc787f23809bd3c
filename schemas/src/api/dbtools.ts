import { z } from 'zod';
import { BlockedSession, DbSession } from './pollers';
import { RowId } from './servers';

/**
 * The database screen's live calls (spec section 7, "Database"): the process list, the tables with
 * their definition and counters, the health of every database of an instance and, for MongoDB, the
 * replication members. The api answers them by sending a `db_inspect` command over the bus to the
 * collectors (DESIGN section 1: commands to collectors), with the service's config unsealed; any
 * collector of the group that can reach the target runs the inspection on a short-lived connection.
 * Status tiles come from the latest samples instead (`/services_monitored/{service}/get_status`).
 */

/** What a `db_inspect` command asks of a target. */
export const DB_INSPECTIONS = [
  'process_list',
  'database_tables',
  'table_definition',
  'table_counters',
  'db_health',
  'replication_members',
] as const;
export const DbInspection = z.enum(DB_INSPECTIONS);
export type DbInspection = z.infer<typeof DbInspection>;

const RELATIONAL_INSPECTIONS = [
  'process_list',
  'database_tables',
  'table_definition',
  'table_counters',
  'db_health',
] as const satisfies readonly DbInspection[];

/**
 * The inspections each service has (by `service_code`): what the collector's inspector of the
 * engine answers, what the api accepts and which tabs the database screen shows. A service absent
 * here has none: its screen shows the status tiles and the charts only.
 */
export const SERVICE_INSPECTIONS: Readonly<Record<string, readonly DbInspection[]>> = {
  postgresql: RELATIONAL_INSPECTIONS,
  mysql: RELATIONAL_INSPECTIONS,
  mssql: RELATIONAL_INSPECTIONS,
  mongodb: ['process_list', 'replication_members'],
};

/** The inspections of a service; none for a service without an inspector. */
export function inspectionsOf(service: string): readonly DbInspection[] {
  return Object.hasOwn(SERVICE_INSPECTIONS, service) ? (SERVICE_INSPECTIONS[service] ?? []) : [];
}

/** Most tables `database_tables` lists; `truncated` says when there were more. */
export const MAX_LISTED_TABLES = 5_000;

const Name = z.string().min(1).max(128);

/**
 * One table of a target. `database` is the PostgreSQL database or MySQL schema (SQL Server database,
 * Oracle owner); `schema` is the PostgreSQL or SQL Server schema, null where the engine has none.
 */
export const TableRef = z
  .object({ database: Name, schema: Name.nullable().default(null), name: Name })
  .strict();
export type TableRef = z.infer<typeof TableRef>;

/** `fd.cmd.<worker>` params of `db_inspect`: the target's service and config, and what to read. */
export const DbInspectParams = z
  .object({
    service: z.string().min(1).max(64),
    config: z.record(z.string(), z.unknown()),
    inspection: DbInspection,
    /** For `table_definition` and `table_counters`. */
    table: TableRef.optional(),
  })
  .strict();
export type DbInspectParams = z.infer<typeof DbInspectParams>;

// ---------------------------------------------------------------------------------------------
// Requests

/** `POST /process_list`, `/get_all_db_health`, `/services_monitored/{service}/get_status`: a service id. */
export const ServiceIdRequest = z.object({ id: RowId }).strict();
export type ServiceIdRequest = z.infer<typeof ServiceIdRequest>;

/** `GET /services/database_tables?id=<service id>`. */
export const DatabaseTablesQuery = z.object({ id: RowId }).strict();
export type DatabaseTablesQuery = z.infer<typeof DatabaseTablesQuery>;

/** `POST /get_table_definition`, `/get_table_counters`: a service id and one of its tables. */
export const TableRequest = z.object({ id: RowId, table: TableRef }).strict();
export type TableRequest = z.infer<typeof TableRequest>;

/** `POST /mongodb/get_replication_members` {server_id}: the MongoDB service of that server. */
export const ReplicationMembersRequest = z.object({ server_id: RowId }).strict();
export type ReplicationMembersRequest = z.infer<typeof ReplicationMembersRequest>;

// ---------------------------------------------------------------------------------------------
// Answers (the `data` of the reply to `db_inspect`, passed on unchanged by the api)

/** `process_list`: every client session, longest-running first, and the sessions waiting for a lock. */
export const ProcessListData = z
  .object({
    /** Unix ms the target was read. */
    ts: z.number().int().positive(),
    sessions: z.array(DbSession),
    blocked: z.array(BlockedSession),
    /** The target's `long_query_s`: an active statement running this long is a long query. */
    long_query_s: z.number().positive(),
    /** More sessions than {@link MAX_LISTED_SESSIONS} were open. */
    truncated: z.boolean(),
  })
  .strict();
export type ProcessListData = z.infer<typeof ProcessListData>;

/** One table of `database_tables`. Sizes and the row count are the engine's own estimates. */
export const TableInfo = z
  .object({
    database: z.string(),
    schema: z.string().nullable(),
    name: z.string(),
    /** `table`, `view`, `materialized_view`, `partitioned_table`, `foreign_table`, `collection`... */
    type: z.string(),
    /** MySQL storage engine (InnoDB...); null elsewhere. */
    engine: z.string().nullable(),
    rows: z.number().nullable(),
    data_bytes: z.number().nonnegative().nullable(),
    index_bytes: z.number().nonnegative().nullable(),
    size_bytes: z.number().nonnegative().nullable(),
  })
  .strict();
export type TableInfo = z.infer<typeof TableInfo>;

export const DatabaseTablesData = z
  .object({
    ts: z.number().int().positive(),
    /** Largest first. */
    tables: z.array(TableInfo).max(MAX_LISTED_TABLES),
    truncated: z.boolean(),
  })
  .strict();
export type DatabaseTablesData = z.infer<typeof DatabaseTablesData>;

export const TableColumn = z
  .object({
    name: z.string(),
    /** The engine's spelling: `character varying(20)`, `varchar(20)`, `int(11) unsigned`. */
    type: z.string(),
    nullable: z.boolean(),
    /** The default expression, as the engine prints it. */
    default: z.string().nullable(),
    /** Part of the primary key. */
    primary: z.boolean(),
    comment: z.string().nullable(),
  })
  .strict();
export type TableColumn = z.infer<typeof TableColumn>;

export const TableIndex = z
  .object({
    name: z.string(),
    columns: z.array(z.string()),
    unique: z.boolean(),
    primary: z.boolean(),
    /** `btree`, `hash`, `gin`, `FULLTEXT`... */
    method: z.string().nullable(),
    size_bytes: z.number().nonnegative().nullable(),
  })
  .strict();
export type TableIndex = z.infer<typeof TableIndex>;

/** `table_definition`: columns in order, indexes, and the DDL where the engine prints it (MySQL). */
export const TableDefinitionData = z
  .object({
    table: TableRef,
    type: z.string(),
    columns: z.array(TableColumn),
    indexes: z.array(TableIndex),
    ddl: z.string().nullable(),
  })
  .strict();
export type TableDefinitionData = z.infer<typeof TableDefinitionData>;

/**
 * Counters a table can have. PostgreSQL fills the scan, tuple and maintenance ones from
 * pg_stat_user_tables; MySQL the sizes, auto_increment and times from information_schema.TABLES and
 * the row operations from the table I/O summary where performance_schema is on.
 */
export const TABLE_COUNTERS = [
  'rows',
  'data_bytes',
  'index_bytes',
  'size_bytes',
  'free_bytes',
  'seq_scans',
  'seq_rows_read',
  'index_scans',
  'index_rows_fetched',
  'rows_inserted',
  'rows_updated',
  'rows_hot_updated',
  'rows_deleted',
  'live_rows',
  'dead_rows',
  'rows_modified_since_analyze',
  'vacuum_count',
  'autovacuum_count',
  'analyze_count',
  'autoanalyze_count',
  'last_vacuum',
  'last_autovacuum',
  'last_analyze',
  'last_autoanalyze',
  'heap_blocks_read',
  'heap_blocks_hit',
  'auto_increment',
  'created_at',
  'updated_at',
  'rows_read',
  'rows_fetched_wait_s',
  'rows_changed_wait_s',
] as const;
export const TableCounterKey = z.enum(TABLE_COUNTERS);
export type TableCounterKey = z.infer<typeof TableCounterKey>;

/** How a counter's value reads: `timestamp` values are unix ms. */
export const CounterUnit = z.enum(['count', 'bytes', 'seconds', 'timestamp']);
export type CounterUnit = z.infer<typeof CounterUnit>;

export const TableCountersData = z
  .object({
    ts: z.number().int().positive(),
    table: TableRef,
    /** Only the counters the engine keeps; a null value is a counter it keeps that was never set. */
    counters: z.array(
      z.object({ key: TableCounterKey, value: z.number().nullable(), unit: CounterUnit }).strict(),
    ),
  })
  .strict();
export type TableCountersData = z.infer<typeof TableCountersData>;

/** Instance-wide checks of `db_health`, each with its own thresholds in the inspection. */
export const DB_HEALTH_CHECKS = [
  'connections_usage',
  'cache_hit_ratio',
  'long_queries',
  'blocked_sessions',
  'deadlocks',
  'replication_state',
  'replication_lag',
  'transaction_id_age',
  'dead_rows_ratio',
  'temp_files',
  'aborted_connections',
  'uptime',
] as const;
export const DbHealthCheck = z.enum(DB_HEALTH_CHECKS);
export type DbHealthCheck = z.infer<typeof DbHealthCheck>;

export const HEALTH_STATUSES = ['ok', 'warning', 'critical', 'unknown'] as const;
export const HealthStatus = z.enum(HEALTH_STATUSES);
export type HealthStatus = z.infer<typeof HealthStatus>;

/** One database of the instance with its figures; null where the engine does not keep one. */
export const DatabaseHealth = z
  .object({
    name: z.string(),
    status: HealthStatus,
    size_bytes: z.number().nonnegative().nullable(),
    connections: z.number().int().nonnegative().nullable(),
    cache_hit_ratio: z.number().min(0).max(1).nullable(),
    commits: z.number().nonnegative().nullable(),
    rollbacks: z.number().nonnegative().nullable(),
    deadlocks: z.number().nonnegative().nullable(),
    temp_bytes: z.number().nonnegative().nullable(),
    /** PostgreSQL age(datfrozenxid): transactions until wraparound protection matters. */
    transaction_id_age: z.number().nonnegative().nullable(),
    tables: z.number().int().nonnegative().nullable(),
  })
  .strict();
export type DatabaseHealth = z.infer<typeof DatabaseHealth>;

/** `get_all_db_health`: the instance's checks and every database's figures, the worst status first. */
export const DbHealthData = z
  .object({
    ts: z.number().int().positive(),
    status: HealthStatus,
    checks: z.array(
      z
        .object({
          check: DbHealthCheck,
          status: HealthStatus,
          value: z.number().nullable(),
          unit: z.enum(['count', 'ratio', 'percent', 'seconds', 'bytes']),
          /** The threshold crossed or the engine's own words (a replication error). */
          detail: z.string().nullable(),
        })
        .strict(),
    ),
    databases: z.array(DatabaseHealth),
  })
  .strict();
export type DbHealthData = z.infer<typeof DbHealthData>;

/** One member of a MongoDB replica set, as replSetGetStatus tells it. */
export const ReplicationMember = z
  .object({
    id: z.number().int(),
    name: z.string(),
    /** `PRIMARY`, `SECONDARY`, `ARBITER`, `RECOVERING`, `(not reachable/healthy)`... */
    state: z.string(),
    healthy: z.boolean(),
    self: z.boolean(),
    uptime_s: z.number().nullable(),
    /** Unix ms of the member's last applied operation. */
    optime_ms: z.number().nullable(),
    /** Seconds behind the primary's optime; null on the primary and arbiters. */
    lag_s: z.number().nullable(),
    ping_ms: z.number().nullable(),
    sync_source: z.string().nullable(),
    message: z.string().nullable(),
  })
  .strict();
export type ReplicationMember = z.infer<typeof ReplicationMember>;

export const ReplicationMembersData = z
  .object({
    ts: z.number().int().positive(),
    /** Null when the server is not in a replica set (the list is then empty). */
    set_name: z.string().nullable(),
    members: z.array(ReplicationMember),
  })
  .strict();
export type ReplicationMembersData = z.infer<typeof ReplicationMembersData>;

/** The `data` of each inspection's reply. */
export const DB_INSPECTION_DATA = {
  process_list: ProcessListData,
  database_tables: DatabaseTablesData,
  table_definition: TableDefinitionData,
  table_counters: TableCountersData,
  db_health: DbHealthData,
  replication_members: ReplicationMembersData,
} as const satisfies Record<DbInspection, z.ZodType>;

// ---------------------------------------------------------------------------------------------
// Status tiles

/**
 * `POST /services_monitored/{service}/get_status` {id} -> data: the service's availability (from the
 * pollers' reports) and its latest figures from the metric store, keyed by metric name
 * (`postgresql.connections`...); a metric with no sample in the last 15 minutes is absent.
 */
export const ServiceStatusData = z
  .object({
    id: z.number().int(),
    server_id: z.number().int(),
    service: z.string(),
    name: z.string().nullable(),
    /** `host:port` or the URL. */
    target: z.string(),
    status: z.enum(['up', 'down', 'unknown']),
    /** Why it is down, as the poller said. */
    message: z.string().nullable(),
    /** Unix ms of the newest sample of the service. */
    last_sample_ts: z.number().nullable(),
    version: z.string().nullable(),
    uptime_s: z.number().nullable(),
    interval_s: z.number().int().positive(),
    figures: z.record(z.string(), z.number()),
  })
  .strict();
export type ServiceStatusData = z.infer<typeof ServiceStatusData>;
