import {
  type BlockedSession,
  type DatabaseSize,
  type DbSession,
  MAX_LISTED_SESSIONS,
  type PollerExtras,
  type ReplicationStatus,
  type TableSize,
} from '@flightdeck/schemas';
import type { PollSample } from './contract';
import { hitRatio, ratePerSecond, round } from './rates';

/** `SELECT ... FROM pg_stat_database`, one row per database (templates left out). */
export interface PgDatabaseRow {
  datname: string;
  numbackends: number;
  xact_commit: number;
  xact_rollback: number;
  blks_read: number;
  blks_hit: number;
  tup_returned: number;
  tup_fetched: number;
  tup_inserted: number;
  tup_updated: number;
  tup_deleted: number;
  temp_files: number;
  temp_bytes: number;
  deadlocks: number;
}

/** One client backend of pg_stat_activity. `self` marks the poller's own connection. */
export interface PgActivityRow {
  pid: number;
  self: boolean;
  usename: string | null;
  datname: string | null;
  application_name: string | null;
  client: string | null;
  state: string | null;
  wait_event_type: string | null;
  wait_event: string | null;
  query_s: number | null;
  state_s: number | null;
  query: string | null;
  /** pg_blocking_pids, read only for a backend waiting on a lock. */
  blocked_by: number[] | null;
  /** Seconds since its lock wait began (pg_locks.waitstart, PostgreSQL 14 and later). */
  wait_s: number | null;
}

/** Server-wide facts read on every poll. */
export interface PgServerRow {
  version: string;
  version_num: number;
  max_connections: number;
  in_recovery: boolean;
  uptime_s: number;
}

/** Checkpointer and background writer counters (pg_stat_bgwriter, and pg_stat_checkpointer on 17+). */
export interface PgBgwriterRow {
  checkpoints_timed: number | null;
  checkpoints_req: number | null;
  buffers_checkpoint: number | null;
  buffers_clean: number | null;
  buffers_backend: number | null;
  buffers_alloc: number | null;
}

/** WAL counters: pg_stat_wal on 14+, the current WAL position before. */
export interface PgWalRow {
  wal_bytes: number | null;
  wal_records: number | null;
  wal_buffers_full: number | null;
}

/** One replica streaming from a primary (pg_stat_replication). */
export interface PgReplicaRow {
  application_name: string | null;
  client: string | null;
  state: string | null;
  sync_state: string | null;
  lag_bytes: number | null;
  lag_s: number | null;
}

/** A standby's view of its replication. */
export interface PgStandbyRow {
  lag_s: number | null;
  state: string | null;
  source: string | null;
}

/** Everything one poll read. Sections a poll could not read are undefined. */
export interface PgReading {
  server: PgServerRow;
  databases: PgDatabaseRow[];
  activity: PgActivityRow[];
  bgwriter?: PgBgwriterRow | undefined;
  wal?: PgWalRow | undefined;
  replicas?: PgReplicaRow[] | undefined;
  standby?: PgStandbyRow | undefined;
  sizes?: { databases: DatabaseSize[]; tables: TableSize[] } | undefined;
}

const DB_RATES: readonly [keyof PgDatabaseRow, string][] = [
  ['xact_commit', 'pg.xact_commit_rate'],
  ['xact_rollback', 'pg.xact_rollback_rate'],
  ['deadlocks', 'pg.deadlocks_rate'],
  ['tup_returned', 'pg.rows_returned_rate'],
  ['tup_fetched', 'pg.rows_fetched_rate'],
  ['tup_inserted', 'pg.rows_inserted_rate'],
  ['tup_updated', 'pg.rows_updated_rate'],
  ['tup_deleted', 'pg.rows_deleted_rate'],
  ['temp_files', 'pg.temp_files_rate'],
  ['temp_bytes', 'pg.temp_bytes_rate'],
];

const BGWRITER_RATES: readonly [keyof PgBgwriterRow, string][] = [
  ['checkpoints_timed', 'pg.checkpoints_timed_rate'],
  ['checkpoints_req', 'pg.checkpoints_requested_rate'],
  ['buffers_checkpoint', 'pg.buffers_checkpoint_rate'],
  ['buffers_clean', 'pg.buffers_clean_rate'],
  ['buffers_backend', 'pg.buffers_backend_rate'],
  ['buffers_alloc', 'pg.buffers_alloc_rate'],
];

const WAL_RATES: readonly [keyof PgWalRow, string][] = [
  ['wal_bytes', 'pg.wal_bytes_rate'],
  ['wal_records', 'pg.wal_records_rate'],
  ['wal_buffers_full', 'pg.wal_buffers_full_rate'],
];

type Counters = Record<string, number | null>;

const TOTALS = ['xact_commit', 'xact_rollback', 'deadlocks', 'blks_read', 'blks_hit'] as const;

function pushRates(
  out: PollSample[],
  table: readonly (readonly [string, string])[],
  cur: Counters,
  prev: Counters,
  seconds: number,
  l?: Record<string, string>,
): void {
  for (const [key, m] of table) {
    const v = ratePerSecond(prev[key] ?? undefined, cur[key] ?? undefined, seconds);
    if (v !== undefined) out.push(l ? { m, l, v } : { m, v });
  }
}

/** Whether a backend's statement counts as long-running. */
function isLong(row: PgActivityRow, longQueryS: number): boolean {
  return row.state === 'active' && row.query_s !== null && row.query_s >= longQueryS;
}

/**
 * Samples of a reading: gauges always, rates per database and for the whole server when an
 * earlier reading is `seconds` before. A database seen for the first time, or whose counters went
 * backwards (statistics reset), has no rates this time; neither do the server-wide totals then.
 */
export function pgSamples(
  cur: PgReading,
  prev: PgReading | undefined,
  seconds: number,
  longQueryS: number,
): PollSample[] {
  const s: PollSample[] = [];
  const { server } = cur;
  const clients = cur.activity.length;
  s.push({ m: 'pg.connections_total', v: clients }, { m: 'pg.max_connections', v: server.max_connections });
  if (server.max_connections > 0) {
    s.push({ m: 'pg.connections_used_pct', v: round((clients / server.max_connections) * 100, 2) });
  }
  const byState = { active: 0, idle: 0, idle_in_transaction: 0 };
  for (const row of cur.activity) {
    if (row.state === 'active') byState.active++;
    else if (row.state === 'idle') byState.idle++;
    else if (row.state?.startsWith('idle in transaction')) byState.idle_in_transaction++;
  }
  s.push(
    { m: 'pg.sessions_active', v: byState.active },
    { m: 'pg.sessions_idle', v: byState.idle },
    { m: 'pg.sessions_idle_in_transaction', v: byState.idle_in_transaction },
    { m: 'pg.long_queries', v: cur.activity.filter((r) => !r.self && isLong(r, longQueryS)).length },
    { m: 'pg.blocked_sessions', v: cur.activity.filter((r) => (r.blocked_by?.length ?? 0) > 0).length },
    { m: 'pg.uptime', v: round(server.uptime_s, 0) },
    { m: 'pg.in_recovery', v: server.in_recovery ? 1 : 0 },
  );
  for (const db of cur.databases)
    s.push({ m: 'pg.connections', l: { database: db.datname }, v: db.numbackends });
  if (cur.sizes) {
    for (const db of cur.sizes.databases) {
      s.push({ m: 'pg.database_size_bytes', l: { database: db.name }, v: db.size_bytes });
    }
  }
  if (cur.replicas) {
    s.push({ m: 'pg.replicas', v: cur.replicas.length });
    for (const r of cur.replicas) {
      const l = { replica: r.application_name || r.client || 'unknown' };
      if (r.lag_s !== null) s.push({ m: 'pg.replica_replay_lag', l, v: round(r.lag_s) });
      if (r.lag_bytes !== null) s.push({ m: 'pg.replica_lag_bytes', l, v: r.lag_bytes });
    }
  }
  if (cur.standby?.lag_s !== null && cur.standby?.lag_s !== undefined) {
    s.push({ m: 'pg.replication_lag', v: round(Math.max(0, cur.standby.lag_s)) });
  }
  if (!prev || !(seconds > 0)) return s;

  const before = new Map(prev.databases.map((d) => [d.datname, d]));
  // Server-wide figures add up the databases present in both readings, so a database created or
  // dropped in between does not make them jump.
  const then: Record<string, number> = {
    xact_commit: 0,
    xact_rollback: 0,
    deadlocks: 0,
    blks_read: 0,
    blks_hit: 0,
  };
  const now: Record<string, number> = { ...then };
  let common = 0;
  for (const db of cur.databases) {
    const old = before.get(db.datname);
    if (
      !old ||
      DB_RATES.some(([k]) => (db[k] as number) < (old[k] as number)) ||
      db.blks_hit < old.blks_hit
    ) {
      continue;
    }
    const l = { database: db.datname };
    pushRates(s, DB_RATES, db as unknown as Counters, old as unknown as Counters, seconds, l);
    const ratio = hitRatio(old.blks_hit, db.blks_hit, old.blks_read, db.blks_read);
    if (ratio !== undefined) s.push({ m: 'pg.cache_hit_ratio', l, v: ratio });
    common++;
    for (const k of TOTALS) {
      then[k] = (then[k] ?? 0) + old[k];
      now[k] = (now[k] ?? 0) + db[k];
    }
  }
  if (common > 0) {
    pushRates(s, DB_RATES.slice(0, 3), now, then, seconds);
    const ratio = hitRatio(then.blks_hit, now.blks_hit, then.blks_read, now.blks_read);
    if (ratio !== undefined) s.push({ m: 'pg.cache_hit_ratio', v: ratio });
  }
  if (cur.bgwriter && prev.bgwriter) {
    pushRates(
      s,
      BGWRITER_RATES,
      cur.bgwriter as unknown as Counters,
      prev.bgwriter as unknown as Counters,
      seconds,
    );
  }
  if (cur.wal && prev.wal) {
    pushRates(s, WAL_RATES, cur.wal as unknown as Counters, prev.wal as unknown as Counters, seconds);
  }
  return s;
}

function session(row: PgActivityRow): DbSession {
  return {
    id: row.pid,
    user: row.usename,
    database: row.datname,
    client: row.client,
    application: row.application_name || null,
    state: row.state,
    wait: row.wait_event_type ? `${row.wait_event_type}:${row.wait_event ?? ''}` : null,
    duration_s: (row.state === 'active' ? row.query_s : row.state_s) ?? null,
    query: row.query,
  };
}

function unknownSession(pid: number): DbSession {
  return {
    id: pid,
    user: null,
    database: null,
    client: null,
    application: null,
    state: null,
    wait: null,
    duration_s: null,
    query: null,
  };
}

const byDuration = (a: DbSession, b: DbSession) => (b.duration_s ?? -1) - (a.duration_s ?? -1);

/**
 * The sessions of pg_stat_activity rows, the reader's own left out: every client session and the
 * long-running statements, each longest-running first, and the sessions waiting for a lock, each
 * with the sessions blocking it.
 */
export function pgSessionLists(
  activity: readonly PgActivityRow[],
  longQueryS: number,
): { sessions: DbSession[]; long_queries: DbSession[]; blocked: BlockedSession[] } {
  const others = activity.filter((r) => !r.self);
  const byPid = new Map(activity.map((r) => [r.pid, r]));
  const blocked: BlockedSession[] = others
    .filter((r) => (r.blocked_by?.length ?? 0) > 0)
    .map((r) => ({
      ...session(r),
      wait_s: r.wait_s === null ? null : round(r.wait_s),
      blocked_by: (r.blocked_by ?? []).map((pid) => {
        const holder = byPid.get(pid);
        return holder ? session(holder) : unknownSession(pid);
      }),
    }));
  return {
    sessions: others.map(session).sort(byDuration),
    long_queries: others
      .filter((r) => isLong(r, longQueryS))
      .map(session)
      .sort(byDuration),
    blocked,
  };
}

/**
 * The lists of a reading: client sessions (the poller's own left out), long-running statements
 * and blocked sessions each with the sessions blocking it, replication, server facts and, when
 * this poll read them, sizes.
 */
export function pgExtras(cur: PgReading, longQueryS: number): PollerExtras {
  const lists = pgSessionLists(cur.activity, longQueryS);
  const extras: PollerExtras = {
    server: {
      version: cur.server.version,
      uptime_s: round(cur.server.uptime_s, 0),
      max_connections: cur.server.max_connections,
    },
    sessions: lists.sessions.slice(0, MAX_LISTED_SESSIONS),
    long_queries: lists.long_queries,
    blocked_sessions: lists.blocked,
    replication: pgReplication(cur),
  };
  if (cur.sizes) {
    extras.databases = cur.sizes.databases;
    extras.tables = cur.sizes.tables;
  }
  return extras;
}

/** Replication as the reading shows it: a standby, a primary with replicas, or neither. */
export function pgReplication(cur: PgReading): ReplicationStatus {
  if (cur.server.in_recovery) {
    return {
      role: 'replica',
      state: cur.standby?.state ?? null,
      lag_s: cur.standby?.lag_s == null ? null : round(Math.max(0, cur.standby.lag_s)),
      source: cur.standby?.source ?? null,
      last_error: null,
      replicas: [],
    };
  }
  const replicas = (cur.replicas ?? []).map((r) => ({
    name: r.application_name || r.client || 'unknown',
    address: r.client,
    state: r.state,
    sync_state: r.sync_state,
    lag_s: r.lag_s === null ? null : round(r.lag_s),
    lag_bytes: r.lag_bytes,
  }));
  return {
    role: replicas.length > 0 ? 'primary' : 'standalone',
    state: null,
    lag_s: null,
    source: null,
    last_error: null,
    replicas,
  };
}
