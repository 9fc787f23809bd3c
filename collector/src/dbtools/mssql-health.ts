import type { DbHealthData } from '@flightdeck/schemas';
import { type MssqlCounters, runningTotal, snapshotValue } from '../pollers/mssql-counters';
import {
  type MssqlLogSpace,
  type MssqlServer,
  type MssqlSessionRow,
  mssqlSessionLists,
} from '../pollers/mssql-metrics';
import { type MssqlReplicaRow, mssqlReplication, unhealthyReplica } from '../pollers/mssql-replication';
import { num, str } from '../pollers/rates';
import * as health from './health';
import { readDatabaseHealth } from './mssql-sql';

type Row = Record<string, unknown>;

/** What `db_health` read of a SQL Server instance. */
export interface MssqlHealthReading {
  server: MssqlServer;
  uptime_s: number;
  counters: MssqlCounters;
  sessions: readonly MssqlSessionRow[];
  /** Null without HADR; undefined when the availability group views could not be read. */
  replicas: readonly MssqlReplicaRow[] | null | undefined;
  /** Rows of DATABASES_HEALTH_SQL. */
  databases: readonly Row[];
  /** Undefined when DBCC SQLPERF(LOGSPACE) was refused. */
  logSpace: readonly MssqlLogSpace[] | undefined;
  /** Rows of TABLE_COUNTS_SQL; undefined when they could not be read. */
  tableCounts: readonly Row[] | undefined;
  long_query_s: number;
}

/**
 * The instance's checks and every database's figures, with the shared thresholds: connection use
 * against the connection limit, the page lookups that needed no physical read, long-running and
 * blocked requests, deadlocks an hour since the instance started, Always On state and lag, and a
 * recent restart. A database is judged by its state and by how full its transaction log is.
 */
export function mssqlHealth(r: MssqlHealthReading, now: number): DbHealthData {
  const lists = mssqlSessionLists(r.sessions);
  const long = r.sessions
    .filter((s) => s.request_status !== null && (s.elapsed_ms ?? 0) >= r.long_query_s * 1000)
    .map((s) => (s.elapsed_ms ?? 0) / 1000)
    .sort((a, b) => b - a);
  const lookups = runningTotal(r.counters, 'Buffer Manager', 'Page lookups/sec');
  const reads = runningTotal(r.counters, 'Buffer Manager', 'Page reads/sec');
  const deadlocks = runningTotal(r.counters, 'Locks', 'Number of Deadlocks/sec', '_Total');
  const connections = snapshotValue(r.counters, 'General Statistics', 'User Connections');
  const checks: health.HealthCheckResult[] = [
    connections === undefined
      ? health.unknown('connections_usage', 'percent', 'The User Connections counter could not be read.')
      : health.connectionsUsage(connections, r.server.max_connections ?? 0),
    // Page lookups that needed no physical read, since the instance started.
    lookups === undefined || reads === undefined
      ? health.unknown('cache_hit_ratio', 'ratio', 'The Buffer Manager page counters could not be read.')
      : health.cacheHitRatio(Math.max(0, lookups - reads), lookups),
    health.longQueries(long.length, r.long_query_s, long[0] ?? null),
    health.blockedSessions(lists.blocked.length, null),
    deadlocks === undefined
      ? health.unknown('deadlocks', 'count', 'The Number of Deadlocks/sec counter could not be read.')
      : health.deadlocks(
          deadlocks,
          health.perHour(deadlocks, r.uptime_s),
          health.sinceWords(r.uptime_s, 'the instance started'),
        ),
    ...replicationChecks(r.replicas),
    health.uptime(r.uptime_s),
  ];
  const logUse = new Map((r.logSpace ?? []).map((l) => [l.database, l.log_used_pct]));
  const tables = r.tableCounts
    ? new Map(r.tableCounts.map((row) => [str(row.name) ?? '', num(row.tables) ?? 0]))
    : undefined;
  const databases = r.databases
    .map((row) => {
      const name = str(row.name) ?? '';
      return readDatabaseHealth(row, logUse.get(name), tables?.get(name));
    })
    .sort(health.byStatus);
  return {
    ts: now,
    status: health.worstStatus([...checks, ...databases].map((c) => c.status)),
    checks: checks.sort(health.byStatus),
    databases,
  };
}

function replicationChecks(
  replicas: readonly MssqlReplicaRow[] | null | undefined,
): health.HealthCheckResult[] {
  if (replicas === undefined) {
    return [
      health.unknown(
        'replication_state',
        'count',
        'The availability group views could not be read: grant the login VIEW SERVER STATE.',
      ),
    ];
  }
  const r = mssqlReplication(replicas);
  if (r.role === 'standalone') {
    return [
      {
        check: 'replication_state',
        status: 'ok',
        value: 0,
        unit: 'count',
        detail: 'This instance hosts no availability group database.',
      },
    ];
  }
  const local = (replicas ?? []).filter((x) => x.is_local);
  const notHealthy = local.filter(unhealthyReplica);
  const critical = local.some((x) => x.synchronization_health === 'NOT_HEALTHY');
  const state: health.HealthCheckResult = {
    check: 'replication_state',
    status: notHealthy.length === 0 ? 'ok' : critical ? 'critical' : 'warning',
    value: notHealthy.length,
    unit: 'count',
    detail:
      r.last_error ??
      (r.role === 'primary'
        ? `Primary of ${r.replicas.length} secondary replica(s); every local availability database is healthy.`
        : `Secondary of ${r.source ?? 'its primary'}, ${r.state ?? 'state unknown'}.`),
  };
  const slowest = r.replicas.reduce<number | null>(
    (max, x) => (x.lag_s === null ? max : Math.max(max ?? 0, x.lag_s)),
    null,
  );
  const lag =
    r.role === 'replica'
      ? health.replicationLag(r.lag_s, 'This secondary replica')
      : health.replicationLag(slowest, 'The slowest secondary replica');
  return [state, lag];
}
