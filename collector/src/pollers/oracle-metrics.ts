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

/** V$INSTANCE, with the poller's own session and container. */
export interface OracleInstanceRow {
  instance_name: string;
  host_name: string | null;
  /** VERSION_FULL (18c and later: `19.22.0.0.0`), else VERSION. */
  version: string;
  /** STARTED, MOUNTED, OPEN... */
  status: string | null;
  database_status: string | null;
  uptime_s: number | null;
  /** The poller's own SID, left out of the lists. */
  self_sid: number | null;
  /** The container the poller is connected to (CDB$ROOT, a PDB), or the database name. */
  container: string | null;
}

/** V$DATABASE. */
export interface OracleDatabaseRow {
  name: string;
  db_unique_name: string | null;
  /** PRIMARY, PHYSICAL STANDBY, LOGICAL STANDBY, SNAPSHOT STANDBY, FAR SYNC. */
  role: string;
  /** READ WRITE, READ ONLY, READ ONLY WITH APPLY, MOUNTED. */
  open_mode: string | null;
  protection_mode: string | null;
}

/** The sessions and processes parameters, and fal_server (where a standby fetches redo from). */
export interface OracleLimits {
  sessions_limit: number | null;
  processes_limit: number | null;
  fal_server: string | null;
}

/** Sessions of every kind (V$SESSION) and processes (V$PROCESS). */
export interface OracleCounts {
  sessions: number;
  processes: number;
}

/** V$SYSSTAT values by lower-case statistic name. */
export type OracleStats = ReadonlyMap<string, number>;

/** Centiseconds waited since startup by wait class (V$SYSTEM_WAIT_CLASS). */
export type OracleWaits = ReadonlyMap<string, number>;

/** One user session of V$SESSION. */
export interface OracleSessionRow {
  sid: number;
  username: string | null;
  /** ACTIVE (in a call), INACTIVE, KILLED, CACHED, SNIPED. */
  status: string | null;
  type: string | null;
  service: string | null;
  machine: string | null;
  program: string | null;
  module: string | null;
  /** Seconds the current call has run (active) or the session has been idle (inactive). */
  last_call_et: number | null;
  blocking_session: number | null;
  /** WAITING, or one of the WAITED... states while on CPU. */
  state: string | null;
  event: string | null;
  wait_class: string | null;
  /** Seconds in the current wait, or since the last one ended. */
  wait_s: number | null;
  sql_text: string | null;
}

export interface OracleMemory {
  sga_bytes: number | null;
  pga_allocated_bytes: number | null;
}

/** A standby's lags (V$DATAGUARD_STATS) and the primary it follows when the view names it. */
export interface OracleDataguardRow {
  apply_lag_s: number | null;
  transport_lag_s: number | null;
  source: string | null;
}

/** A standby destination of a primary (V$ARCHIVE_DEST). */
export interface OracleStandbyRow {
  name: string;
  destination: string | null;
  status: string | null;
  transmit_mode: string | null;
  error: string | null;
}

export interface OracleTablespaceRow {
  name: string;
  /** PERMANENT, UNDO, TEMPORARY. */
  contents: string | null;
  used_bytes: number;
  size_bytes: number;
  used_pct: number;
}

/** Everything one poll read. Optional sections are undefined when they could not be read. */
export interface OracleReading {
  instance: OracleInstanceRow;
  database: OracleDatabaseRow;
  limits: OracleLimits;
  counts: OracleCounts;
  stats: OracleStats;
  sessions: OracleSessionRow[];
  waits?: OracleWaits | undefined;
  memory?: OracleMemory | undefined;
  /** On a standby; null when it shows no Data Guard statistics. */
  dataguard?: OracleDataguardRow | null | undefined;
  /** On a primary. */
  standbys?: OracleStandbyRow[] | undefined;
  /** Read every size interval, like `sizes`, but on its own: a slow segment scan does not hide it. */
  tablespaces?: OracleTablespaceRow[] | undefined;
  sizes?: { schemas: DatabaseSize[]; tables: TableSize[] } | undefined;
}

const RATES: readonly [string, string][] = [
  ['user commits', 'oracle.commits_rate'],
  ['user rollbacks', 'oracle.rollbacks_rate'],
  ['execute count', 'oracle.executions_rate'],
  ['parse count (total)', 'oracle.parses_rate'],
  ['parse count (hard)', 'oracle.hard_parses_rate'],
  ['user calls', 'oracle.user_calls_rate'],
  ['logons cumulative', 'oracle.logons_rate'],
  ['session logical reads', 'oracle.logical_reads_rate'],
  ['physical reads', 'oracle.physical_reads_rate'],
  ['physical writes', 'oracle.physical_writes_rate'],
  ['redo size', 'oracle.redo_bytes_rate'],
  ['bytes received via sql*net from client', 'oracle.bytes_received_rate'],
  ['bytes sent via sql*net to client', 'oracle.bytes_sent_rate'],
  ['enqueue waits', 'oracle.enqueue_waits_rate'],
  ['enqueue deadlocks', 'oracle.deadlocks_rate'],
];

/** Whether the database is a standby of some kind (physical, logical, snapshot, far sync). */
export const isStandby = (db: OracleDatabaseRow) => db.role !== 'PRIMARY';

/** User sessions other than the poller's own. */
function clients(cur: OracleReading): OracleSessionRow[] {
  return cur.sessions.filter((s) => s.sid !== cur.instance.self_sid && s.type !== 'BACKGROUND');
}

function isLong(s: OracleSessionRow, longQueryS: number): boolean {
  return s.status === 'ACTIVE' && s.last_call_et !== null && s.last_call_et >= longQueryS;
}

const pct = (used: number, limit: number | null) =>
  limit !== null && limit > 0 ? round((used / limit) * 100, 2) : undefined;

/**
 * Block reads served from the buffer cache over the interval. Oracle's own formula where the
 * cache statistics exist (1 - physical reads cache / (db block gets + consistent gets from cache)),
 * else from session logical reads and physical reads, which count direct-path reads too.
 */
function bufferCacheHitRatio(cur: OracleStats, prev: OracleStats): number | undefined {
  const cacheGets = (s: OracleStats) => {
    const db = s.get('db block gets from cache');
    const consistent = s.get('consistent gets from cache');
    return db === undefined || consistent === undefined ? undefined : db + consistent;
  };
  const precise = cacheGets(cur) !== undefined && cur.has('physical reads cache');
  const gets = precise ? cacheGets : (s: OracleStats) => s.get('session logical reads');
  const misses = (s: OracleStats) => s.get(precise ? 'physical reads cache' : 'physical reads');
  const hits = (s: OracleStats) => {
    const g = gets(s);
    const m = misses(s);
    return g === undefined || m === undefined ? undefined : Math.max(0, g - m);
  };
  return hitRatio(hits(prev), hits(cur), misses(prev), misses(cur));
}

/**
 * Samples of a reading: gauges always, per-second rates, the buffer cache hit ratio and the time
 * waited per wait class when an earlier reading is `seconds` before. A statistic that went
 * backwards (the instance restarted) has no rate this time.
 */
export function oracleSamples(
  cur: OracleReading,
  prev: OracleReading | undefined,
  seconds: number,
  longQueryS: number,
): PollSample[] {
  const s: PollSample[] = [];
  const users = clients(cur);
  const { sessions, processes } = cur.counts;
  const { sessions_limit, processes_limit } = cur.limits;
  s.push(
    { m: 'oracle.sessions_active', v: users.filter((u) => u.status === 'ACTIVE').length },
    { m: 'oracle.sessions_inactive', v: users.filter((u) => u.status === 'INACTIVE').length },
    { m: 'oracle.sessions', v: sessions },
    { m: 'oracle.processes', v: processes },
    { m: 'oracle.long_queries', v: users.filter((u) => isLong(u, longQueryS)).length },
    { m: 'oracle.blocked_sessions', v: users.filter((u) => u.blocking_session !== null).length },
    { m: 'oracle.is_standby', v: isStandby(cur.database) ? 1 : 0 },
  );
  if (sessions_limit !== null) s.push({ m: 'oracle.sessions_limit', v: sessions_limit });
  if (processes_limit !== null) s.push({ m: 'oracle.processes_limit', v: processes_limit });
  const sessionsPct = pct(sessions, sessions_limit);
  if (sessionsPct !== undefined) s.push({ m: 'oracle.sessions_used_pct', v: sessionsPct });
  const processesPct = pct(processes, processes_limit);
  if (processesPct !== undefined) s.push({ m: 'oracle.processes_used_pct', v: processesPct });
  if (cur.instance.uptime_s !== null) s.push({ m: 'oracle.uptime', v: cur.instance.uptime_s });
  if (cur.memory?.sga_bytes != null) s.push({ m: 'oracle.sga_bytes', v: cur.memory.sga_bytes });
  if (cur.memory?.pga_allocated_bytes != null) {
    s.push({ m: 'oracle.pga_allocated_bytes', v: cur.memory.pga_allocated_bytes });
  }
  if (cur.standbys && !isStandby(cur.database)) {
    s.push({ m: 'oracle.standby_destinations', v: cur.standbys.length });
  }
  if (cur.dataguard?.apply_lag_s != null) s.push({ m: 'oracle.apply_lag', v: cur.dataguard.apply_lag_s });
  if (cur.dataguard?.transport_lag_s != null) {
    s.push({ m: 'oracle.transport_lag', v: cur.dataguard.transport_lag_s });
  }
  for (const t of cur.tablespaces ?? []) {
    const l = { tablespace: t.name };
    s.push(
      { m: 'oracle.tablespace_used_pct', l, v: t.used_pct },
      { m: 'oracle.tablespace_used_bytes', l, v: t.used_bytes },
      { m: 'oracle.tablespace_size_bytes', l, v: t.size_bytes },
    );
  }
  for (const schema of cur.sizes?.schemas ?? []) {
    s.push({ m: 'oracle.schema_size_bytes', l: { schema: schema.name }, v: schema.size_bytes });
  }
  if (!prev || !(seconds > 0)) return s;
  for (const [key, m] of RATES) {
    const v = ratePerSecond(prev.stats.get(key), cur.stats.get(key), seconds);
    if (v !== undefined) s.push({ m, v });
  }
  const ratio = bufferCacheHitRatio(cur.stats, prev.stats);
  if (ratio !== undefined) s.push({ m: 'oracle.buffer_cache_hit_ratio', v: ratio });
  if (cur.waits && prev.waits) {
    for (const [waitClass, centiseconds] of cur.waits) {
      const perSecond = ratePerSecond(prev.waits.get(waitClass), centiseconds, seconds);
      if (perSecond === undefined) continue;
      s.push({ m: 'oracle.wait_class_sessions', l: { wait_class: waitClass }, v: round(perSecond / 100) });
    }
  }
  return s;
}

function session(row: OracleSessionRow): DbSession {
  return {
    id: row.sid,
    user: row.username,
    database: row.service,
    client: row.machine,
    application: row.program ?? row.module,
    state: row.status,
    // Idle waits (SQL*Net message from client) say nothing; a session on CPU waits for nothing.
    wait: row.state === 'WAITING' && row.wait_class !== 'Idle' ? row.event : null,
    duration_s: row.last_call_et,
    query: row.sql_text ? row.sql_text.slice(0, 2048) : null,
  };
}

function unknownSession(sid: number): DbSession {
  return {
    id: sid,
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
 * Replication as the reading shows it: a standby (any role but PRIMARY) is a replica whose state
 * is its open mode; a primary shipping redo to standby destinations is a primary.
 */
export function oracleReplication(cur: OracleReading): ReplicationStatus {
  if (isStandby(cur.database)) {
    return {
      role: 'replica',
      state: cur.database.open_mode,
      lag_s: cur.dataguard?.apply_lag_s ?? null,
      source: cur.dataguard?.source ?? cur.limits.fal_server,
      last_error: null,
      replicas: [],
    };
  }
  const standbys = cur.standbys ?? [];
  return {
    role: standbys.length > 0 ? 'primary' : 'standalone',
    state: null,
    lag_s: null,
    source: null,
    last_error: standbys.find((d) => d.error)?.error ?? null,
    replicas: standbys.map((d) => ({
      name: d.name,
      address: d.destination,
      state: d.status,
      sync_state: d.transmit_mode,
      lag_s: null,
      lag_bytes: null,
    })),
  };
}

/** The lists of a reading, the poller's own session left out. */
export function oracleExtras(cur: OracleReading, longQueryS: number): PollerExtras {
  const users = clients(cur);
  const bySid = new Map(cur.sessions.map((row) => [row.sid, row]));
  const blocked: BlockedSession[] = users
    .filter((u) => u.blocking_session !== null)
    .map((u) => {
      const holder = bySid.get(u.blocking_session!);
      return {
        ...session(u),
        wait_s: u.state === 'WAITING' ? u.wait_s : null,
        blocked_by: [holder ? session(holder) : unknownSession(u.blocking_session!)],
      };
    });
  const extras: PollerExtras = {
    server: {
      version: cur.instance.version,
      uptime_s: cur.instance.uptime_s,
      max_connections: cur.limits.sessions_limit,
    },
    sessions: users.map(session).sort(byDuration).slice(0, MAX_LISTED_SESSIONS),
    long_queries: users
      .filter((u) => isLong(u, longQueryS))
      .map(session)
      .sort(byDuration),
    blocked_sessions: blocked,
    replication: oracleReplication(cur),
  };
  if (cur.sizes) {
    extras.databases = cur.sizes.schemas;
    extras.tables = cur.sizes.tables;
  }
  return extras;
}
