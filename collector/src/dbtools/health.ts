import type { DbHealthData, HealthStatus } from '@flightdeck/schemas';
import { round } from '../pollers/rates';

/** One instance-wide check of `db_health`. */
export type HealthCheckResult = DbHealthData['checks'][number];

/**
 * The thresholds of `db_health`, the same for every engine. A check at or past `warning` is a
 * warning, at or past `critical` critical (below, for the ratios where lower is worse). Counters
 * that only grow (deadlocks, temporary files) are judged by their average rate over the time the
 * engine has counted them, so one deadlock a year ago does not keep a server in warning.
 */
export const HEALTH_THRESHOLDS = {
  /** Client connections as a percentage of max_connections: new clients are refused at 100%. */
  connections_usage: { warning: 80, critical: 95 },
  /**
   * Block (PostgreSQL shared buffers) or page (InnoDB buffer pool) requests served from memory.
   * An OLTP server usually stays above 0.99; below 0.9 its working set no longer fits. Judged only
   * from `min_requests` on: a server that has read little has no meaningful ratio yet.
   */
  cache_hit_ratio: { warning: 0.9, critical: 0.8, min_requests: 10_000 },
  /** Statements running for at least the target's long_query_s. */
  long_queries: { warning: 1, critical: 5 },
  /** Sessions waiting for a lock another session holds. */
  blocked_sessions: { warning: 1, critical: 5 },
  /**
   * Deadlocks an hour on average: one a day is worth a look; one an hour, once at least ten
   * happened, is an application fighting itself.
   */
  deadlocks_per_hour: { warning: 1 / 24, critical: 1, critical_min_count: 10 },
  /** Seconds a replica is behind its source. */
  replication_lag_s: { warning: 30, critical: 300 },
  /**
   * PostgreSQL age(datfrozenxid). Transaction ids wrap around at 2^31 (about 2.1 billion) and the
   * server stops taking writes 3 million before; autovacuum forces freezing from
   * autovacuum_freeze_max_age (200 million by default). An age of a billion (about half-way) means
   * freezing has fallen far behind; 1.5 billion (about 70%) leaves little time to vacuum.
   */
  transaction_id_age: { warning: 1_000_000_000, critical: 1_500_000_000 },
  /**
   * Dead rows among all rows of a database's tables. Autovacuum vacuums a table once about 20% of
   * it is dead (autovacuum_vacuum_scale_factor 0.2), so a whole database past that is autovacuum
   * falling behind. Judged only from `min_rows` rows on.
   */
  dead_rows_ratio: { warning: 0.2, critical: 0.4, min_rows: 10_000 },
  /** PostgreSQL temporary file bytes an hour on average: sorts and hashes larger than work_mem. */
  temp_bytes_per_hour: { warning: 1024 ** 3, critical: 10 * 1024 ** 3 },
  /** MySQL implicit temporary tables that went to disk, judged from `min_tables` tables on. */
  temp_disk_ratio: { warning: 0.25, critical: 0.5, min_tables: 100 },
  /**
   * MySQL connection attempts that failed (bad password, no privilege, a client that hung up during
   * the handshake, as port checks do) among all, judged from `min_connections` attempts on.
   */
  aborted_connections_ratio: { warning: 0.1, critical: 0.5, min_connections: 1_000 },
  /** Seconds since the server started: a restart in the last ten minutes is a warning. */
  uptime_s: { warning: 600 },
} as const;

const RANK: Record<HealthStatus, number> = { ok: 0, unknown: 1, warning: 2, critical: 3 };

/** The worst of some statuses (ok < unknown < warning < critical); `ok` when there are none. */
export function worstStatus(statuses: Iterable<HealthStatus>): HealthStatus {
  let worst: HealthStatus = 'ok';
  for (const s of statuses) if (RANK[s] > RANK[worst]) worst = s;
  return worst;
}

/** Statuses from worst to best, for sorting. */
export function byStatus<T extends { status: HealthStatus }>(a: T, b: T): number {
  return RANK[b.status] - RANK[a.status];
}

/** A status a threshold gives. */
export type Level = Exclude<HealthStatus, 'unknown'>;

/** The status of a figure where more is worse. */
export function levelAbove(value: number, levels: { warning: number; critical: number }): Level {
  return value >= levels.critical ? 'critical' : value >= levels.warning ? 'warning' : 'ok';
}

/** The status of a figure where less is worse. */
export function levelBelow(value: number, levels: { warning: number; critical: number }): Level {
  return value < levels.critical ? 'critical' : value < levels.warning ? 'warning' : 'ok';
}

const pct = (v: number) => `${round(v * 100, 1)}%`;

/** A check judged by its level: the detail says which threshold was crossed, none when ok. */
function graded(
  check: HealthCheckResult['check'],
  unit: HealthCheckResult['unit'],
  value: number | null,
  status: Level,
  detail: (crossed: Exclude<Level, 'ok'>) => string,
): HealthCheckResult {
  return { check, status, value, unit, detail: status === 'ok' ? null : detail(status) };
}

export function connectionsUsage(connections: number, max: number): HealthCheckResult {
  if (!(max > 0)) {
    return unknown('connections_usage', 'percent', 'The server did not tell its max_connections.');
  }
  const value = round((connections / max) * 100, 1);
  const t = HEALTH_THRESHOLDS.connections_usage;
  const status = levelAbove(value, t);
  return {
    check: 'connections_usage',
    status,
    value,
    unit: 'percent',
    detail:
      status === 'ok'
        ? `${connections} of ${max} connections in use.`
        : `${connections} of ${max} connections in use: ${value}% is at or above the ${status} threshold of ${t[status]}%.`,
  };
}

/** `hits` served from memory out of `requests`, counted since the server started or stats reset. */
export function cacheHitRatio(hits: number, requests: number): HealthCheckResult {
  const t = HEALTH_THRESHOLDS.cache_hit_ratio;
  const value = requests > 0 ? round(Math.min(1, Math.max(0, hits / requests)), 4) : null;
  if (value === null || requests < t.min_requests) {
    return {
      check: 'cache_hit_ratio',
      status: 'ok',
      value,
      unit: 'ratio',
      detail: `Only ${requests} cache requests counted so far: too few to judge (from ${t.min_requests}).`,
    };
  }
  const status = levelBelow(value, t);
  return graded(
    'cache_hit_ratio',
    'ratio',
    value,
    status,
    (crossed) =>
      `${pct(value)} of cache requests were served from memory: below the ${crossed} threshold of ${pct(t[crossed])}.`,
  );
}

export function longQueries(count: number, longQueryS: number, longestS: number | null): HealthCheckResult {
  const t = HEALTH_THRESHOLDS.long_queries;
  const status = levelAbove(count, t);
  return graded(
    'long_queries',
    'count',
    count,
    status,
    (crossed) =>
      `${count} statement(s) running for ${longQueryS} s or more (the longest ${round(longestS ?? 0, 0)} s): at or above the ${crossed} threshold of ${t[crossed]}.`,
  );
}

/** `count` null: the lock waits could not be read (a privilege missing); `why` says so. */
export function blockedSessions(count: number | null, why: string | null): HealthCheckResult {
  if (count === null) return unknown('blocked_sessions', 'count', why ?? 'The lock waits could not be read.');
  const t = HEALTH_THRESHOLDS.blocked_sessions;
  const status = levelAbove(count, t);
  return graded(
    'blocked_sessions',
    'count',
    count,
    status,
    (crossed) =>
      `${count} session(s) waiting for a lock another session holds: at or above the ${crossed} threshold of ${t[crossed]}.`,
  );
}

/** `count` deadlocks at `perHour` on average over the time they were counted (`since`, in words). */
export function deadlocks(count: number, perHour: number, since: string): HealthCheckResult {
  const t = HEALTH_THRESHOLDS.deadlocks_per_hour;
  let status: HealthStatus = 'ok';
  if (count >= t.critical_min_count && perHour >= t.critical) status = 'critical';
  else if (count > 0 && perHour >= t.warning) status = 'warning';
  return {
    check: 'deadlocks',
    status,
    value: count,
    unit: 'count',
    detail:
      status === 'ok'
        ? count > 0
          ? `${count} deadlock(s) ${since}, ${round(perHour, 3)} an hour.`
          : null
        : `${count} deadlock(s) ${since}: ${round(perHour, 3)} an hour is at or above the ${status} threshold of ${round(status === 'critical' ? t.critical : t.warning, 3)} an hour.`,
  };
}

/** Seconds behind the source; null when the replica does not say (its SQL thread stopped...). */
export function replicationLag(lagS: number | null, who: string): HealthCheckResult {
  if (lagS === null) return unknown('replication_lag', 'seconds', `${who} does not report its lag.`);
  const t = HEALTH_THRESHOLDS.replication_lag_s;
  const value = round(Math.max(0, lagS), 1);
  const status = levelAbove(value, t);
  return graded(
    'replication_lag',
    'seconds',
    value,
    status,
    (crossed) => `${who} is ${value} s behind: at or above the ${crossed} threshold of ${t[crossed]} s.`,
  );
}

/** The oldest database's age(datfrozenxid). */
export function transactionIdAge(age: number, database: string): HealthCheckResult {
  const t = HEALTH_THRESHOLDS.transaction_id_age;
  const status = levelAbove(age, t);
  return graded(
    'transaction_id_age',
    'count',
    age,
    status,
    (crossed) =>
      `Database "${database}" has transaction ids ${age} transactions old: at or above the ${crossed} threshold of ${t[crossed]}; vacuum it (VACUUM FREEZE) before it reaches wraparound.`,
  );
}

export function deadRowsRatio(dead: number, total: number, database: string): HealthCheckResult {
  const t = HEALTH_THRESHOLDS.dead_rows_ratio;
  const value = total > 0 ? round(dead / total, 4) : null;
  if (value === null || total < t.min_rows) {
    return {
      check: 'dead_rows_ratio',
      status: 'ok',
      value,
      unit: 'ratio',
      detail: `Database "${database}" holds ${total} rows: too few to judge (from ${t.min_rows}).`,
    };
  }
  const status = levelAbove(value, t);
  return graded(
    'dead_rows_ratio',
    'ratio',
    value,
    status,
    (crossed) =>
      `${pct(value)} of the rows of database "${database}" are dead: at or above the ${crossed} threshold of ${pct(t[crossed])}; check that autovacuum keeps up.`,
  );
}

/** PostgreSQL temporary files: `bytes` written at `perHour` on average (`since`, in words). */
export function tempBytes(bytes: number, perHour: number, since: string): HealthCheckResult {
  const t = HEALTH_THRESHOLDS.temp_bytes_per_hour;
  const status = levelAbove(perHour, t);
  const gib = (v: number) => `${round(v / 1024 ** 3, 2)} GiB`;
  return graded(
    'temp_files',
    'bytes',
    bytes,
    status,
    (crossed) =>
      `${gib(bytes)} of temporary files ${since}: ${gib(perHour)} an hour is at or above the ${crossed} threshold of ${gib(t[crossed])} an hour; raise work_mem or fix the queries that sort or hash that much.`,
  );
}

/** MySQL implicit temporary tables: `disk` of `total` went to disk. */
export function tempDiskRatio(disk: number, total: number): HealthCheckResult {
  const t = HEALTH_THRESHOLDS.temp_disk_ratio;
  const value = total > 0 ? round(disk / total, 4) : null;
  if (value === null || total < t.min_tables) {
    return {
      check: 'temp_files',
      status: 'ok',
      value,
      unit: 'ratio',
      detail: `${total} temporary tables so far: too few to judge (from ${t.min_tables}).`,
    };
  }
  const status = levelAbove(value, t);
  return graded(
    'temp_files',
    'ratio',
    value,
    status,
    (crossed) =>
      `${pct(value)} of temporary tables went to disk (${disk} of ${total}): at or above the ${crossed} threshold of ${pct(t[crossed])}.`,
  );
}

/** MySQL connection attempts that failed (`aborted`) among all (`connections`). */
export function abortedConnections(aborted: number, connections: number): HealthCheckResult {
  const t = HEALTH_THRESHOLDS.aborted_connections_ratio;
  const ratio = connections > 0 ? aborted / connections : 0;
  const status = connections >= t.min_connections ? levelAbove(ratio, t) : 'ok';
  return graded(
    'aborted_connections',
    'count',
    aborted,
    status,
    (crossed) =>
      `${aborted} of ${connections} connection attempts failed: ${pct(ratio)} is at or above the ${crossed} threshold of ${pct(t[crossed])}. Check the credentials of the clients and the server log.`,
  );
}

export function uptime(seconds: number): HealthCheckResult {
  const value = round(seconds, 0);
  const restarted = value < HEALTH_THRESHOLDS.uptime_s.warning;
  return {
    check: 'uptime',
    status: restarted ? 'warning' : 'ok',
    value,
    unit: 'seconds',
    detail: restarted
      ? `The server started ${value} s ago: under the warning threshold of ${HEALTH_THRESHOLDS.uptime_s.warning} s.`
      : null,
  };
}

/** A check that could not be read; `detail` says why. */
export function unknown(
  check: HealthCheckResult['check'],
  unit: HealthCheckResult['unit'],
  detail: string,
): HealthCheckResult {
  return { check, status: 'unknown', value: null, unit, detail };
}

/** Per hour, over `seconds`; 0 when no time passed. */
export function perHour(count: number, seconds: number): number {
  return seconds > 0 ? (count * 3600) / seconds : 0;
}

/** A duration in words for the details: "in the 3.2 days since the server started". */
export function sinceWords(seconds: number, what: string): string {
  const days = seconds / 86_400;
  const span = days >= 1 ? `${round(days, 1)} days` : `${round(seconds / 3600, 1)} hours`;
  return `in the ${span} since ${what}`;
}
