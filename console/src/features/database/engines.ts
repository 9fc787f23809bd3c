import { type CatalogMetricName, type DbInspection, inspectionsOf } from '@flightdeck/schemas';

/**
 * Service codes the console shows on the database screen: the database engines the collector
 * polls. MariaDB is registered as `mysql`.
 */
export const DATABASE_SERVICES = [
  'postgresql',
  'mysql',
  'mssql',
  'oracle',
  'mongodb',
  'neo4j',
  'cassandra',
  'elasticsearch',
] as const;
export type DatabaseService = (typeof DATABASE_SERVICES)[number];

export function isDatabaseService(code: string | undefined | null): code is DatabaseService {
  return (DATABASE_SERVICES as readonly string[]).includes(code ?? '');
}

/**
 * The metrics behind the status tiles of one engine (`get_status` figures are keyed by metric
 * name). `throughput` metrics are added up: commits and rollbacks make PostgreSQL's transactions.
 * A null metric is a figure the engine does not have (Cassandra has no blocked sessions): its tile
 * is left out rather than shown empty.
 */
export interface EngineTileMetrics {
  connections: string | null;
  maxConnections: string | null;
  connectionsPct: string | null;
  activeSessions: string | null;
  throughput: { kind: 'qps' | 'tps'; metrics: readonly string[] };
  cacheHitRatio: string | null;
  replicationLag: string | null;
  longQueries: string | null;
  blockedSessions: string | null;
}

type CatalogTileMetrics = {
  [K in keyof EngineTileMetrics]: K extends 'throughput'
    ? { kind: 'qps' | 'tps'; metrics: readonly CatalogMetricName[] }
    : CatalogMetricName | null;
};

/** Engines whose metrics the catalogue lists: the names are checked against it. */
const CATALOGUED: Readonly<Partial<Record<DatabaseService, CatalogTileMetrics>>> = {
  postgresql: {
    connections: 'pg.connections_total',
    maxConnections: 'pg.max_connections',
    connectionsPct: 'pg.connections_used_pct',
    activeSessions: 'pg.sessions_active',
    throughput: { kind: 'tps', metrics: ['pg.xact_commit_rate', 'pg.xact_rollback_rate'] },
    cacheHitRatio: 'pg.cache_hit_ratio',
    replicationLag: 'pg.replication_lag',
    longQueries: 'pg.long_queries',
    blockedSessions: 'pg.blocked_sessions',
  },
  mysql: {
    connections: 'mysql.threads_connected',
    maxConnections: 'mysql.max_connections',
    connectionsPct: 'mysql.connections_used_pct',
    activeSessions: 'mysql.threads_running',
    throughput: { kind: 'qps', metrics: ['mysql.questions_rate'] },
    cacheHitRatio: 'mysql.buffer_pool_hit_ratio',
    replicationLag: 'mysql.replication_lag',
    longQueries: 'mysql.long_queries',
    blockedSessions: 'mysql.blocked_sessions',
  },
  mssql: {
    connections: 'mssql.user_connections',
    maxConnections: 'mssql.max_connections',
    connectionsPct: 'mssql.connections_used_pct',
    activeSessions: 'mssql.sessions_running',
    throughput: { kind: 'qps', metrics: ['mssql.batch_requests_rate'] },
    cacheHitRatio: 'mssql.buffer_cache_hit_ratio',
    replicationLag: 'mssql.replication_lag',
    longQueries: 'mssql.long_queries',
    blockedSessions: 'mssql.blocked_sessions',
  },
  oracle: {
    connections: 'oracle.sessions',
    maxConnections: 'oracle.sessions_limit',
    connectionsPct: 'oracle.sessions_used_pct',
    activeSessions: 'oracle.sessions_active',
    throughput: { kind: 'tps', metrics: ['oracle.commits_rate', 'oracle.rollbacks_rate'] },
    cacheHitRatio: 'oracle.buffer_cache_hit_ratio',
    replicationLag: 'oracle.apply_lag',
    longQueries: 'oracle.long_queries',
    blockedSessions: 'oracle.blocked_sessions',
  },
  mongodb: {
    connections: 'mongodb.connections_current',
    maxConnections: null,
    connectionsPct: 'mongodb.connections_used_pct',
    activeSessions: 'mongodb.connections_active',
    throughput: { kind: 'qps', metrics: ['mongodb.requests_rate'] },
    cacheHitRatio: 'mongodb.cache_hit_ratio',
    replicationLag: 'mongodb.replication_lag',
    longQueries: 'mongodb.long_queries',
    blockedSessions: 'mongodb.blocked_sessions',
  },
  neo4j: {
    connections: 'neo4j.connections',
    maxConnections: null,
    connectionsPct: null,
    activeSessions: 'neo4j.transactions_open',
    throughput: {
      kind: 'tps',
      metrics: ['neo4j.transactions_committed_rate', 'neo4j.transactions_rolled_back_rate'],
    },
    cacheHitRatio: 'neo4j.page_cache_hit_ratio',
    // Neo4j tells its replicas' lag in transactions, not seconds: the chart shows it.
    replicationLag: null,
    longQueries: 'neo4j.long_queries',
    blockedSessions: 'neo4j.blocked_transactions',
  },
  cassandra: {
    connections: 'cassandra.connections',
    maxConnections: 'cassandra.max_connections',
    connectionsPct: null,
    activeSessions: 'cassandra.queries_running',
    throughput: { kind: 'qps', metrics: ['cassandra.requests_rate'] },
    // One ratio per cache (key, row, counter): the charts show them apart.
    cacheHitRatio: null,
    replicationLag: null,
    longQueries: 'cassandra.long_queries',
    blockedSessions: null,
  },
  elasticsearch: {
    connections: 'elasticsearch.http_connections',
    maxConnections: null,
    connectionsPct: null,
    activeSessions: null,
    throughput: { kind: 'qps', metrics: ['elasticsearch.search_queries_rate'] },
    cacheHitRatio: 'elasticsearch.query_cache_hit_ratio',
    replicationLag: null,
    longQueries: 'elasticsearch.long_queries',
    blockedSessions: null,
  },
};

/**
 * The tile metrics of an engine. An engine the catalogue does not list yet is read with the
 * catalogue's naming pattern under its own prefix; a figure it does not publish reads "—".
 */
export function tileMetricsOf(service: string): EngineTileMetrics {
  const known = CATALOGUED[service as DatabaseService];
  if (known) return known;
  const p = service;
  return {
    connections: `${p}.connections_total`,
    maxConnections: `${p}.max_connections`,
    connectionsPct: `${p}.connections_used_pct`,
    activeSessions: `${p}.sessions_active`,
    throughput: { kind: 'qps', metrics: [`${p}.queries_rate`] },
    cacheHitRatio: `${p}.cache_hit_ratio`,
    replicationLag: `${p}.replication_lag`,
    longQueries: `${p}.long_queries`,
    blockedSessions: `${p}.blocked_sessions`,
  };
}

/** A tab of the database screen. */
export type DatabaseTab = 'process' | 'tables' | 'health' | 'replication';

/** The tab of each inspection; a table's definition and counters open from the tables tab. */
const TAB_OF: Partial<Record<DbInspection, DatabaseTab>> = {
  process_list: 'process',
  database_tables: 'tables',
  db_health: 'health',
  replication_members: 'replication',
};

/** The tabs a service has: only what its engine's inspector answers (SERVICE_INSPECTIONS). */
export function tabsOf(service: string): DatabaseTab[] {
  const have = new Set(inspectionsOf(service));
  return (Object.entries(TAB_OF) as [DbInspection, DatabaseTab][])
    .filter(([inspection]) => have.has(inspection))
    .map(([, tab]) => tab);
}
