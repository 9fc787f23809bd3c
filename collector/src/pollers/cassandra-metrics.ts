import {
  type DbSession,
  MAX_LISTED_SESSIONS,
  type PollerExtras,
  type ReplicationStatus,
  type TableSize,
} from '@flightdeck/schemas';
import {
  CASSANDRA_APPLICATION_NAME,
  type CassandraCacheRow,
  type CassandraClientRow,
  type CassandraLocal,
  type CassandraPeer,
  type CassandraPoolRow,
  type CassandraQueryRow,
  type CassandraTableBytes,
  type CassandraTaskRow,
  SYSTEM_KEYSPACES,
} from './cassandra-queries';
import type { PollSample } from './contract';
import { hitRatio, ratePerSecond, round } from './rates';

/** A node as the driver sees it; `up` is null for a node it did not try (another data center). */
export interface CassandraHost {
  address: string;
  datacenter: string | null;
  up: boolean | null;
}

/** Everything one poll of a Cassandra node read. Optional parts are absent when unread. */
export interface CassandraReading {
  /** Unix ms of the poll, for the uptime. */
  at: number;
  local: CassandraLocal;
  peers: CassandraPeer[];
  hosts: CassandraHost[];
  /** Round trip of the system.local read, in ms. */
  latencyMs: number;
  clients?: CassandraClientRow[] | undefined;
  pools?: CassandraPoolRow[] | undefined;
  caches?: CassandraCacheRow[] | undefined;
  maxConnections?: number | null | undefined;
  tasks?: CassandraTaskRow[] | undefined;
  queries?: CassandraQueryRow[] | undefined;
  sizes?: { tables: CassandraTableBytes[]; maxPartitionBytes: number | null } | undefined;
}

/** Thread pools whose completed tasks count requests, reads and writes. */
const POOL_RATES: readonly [string, string][] = [
  ['Native-Transport-Requests', 'cassandra.requests_rate'],
  ['ReadStage', 'cassandra.reads_rate'],
  ['MutationStage', 'cassandra.writes_rate'],
];

const ownClient = (c: CassandraClientRow) => c.application === CASSANDRA_APPLICATION_NAME;
/** The read of system_views.queries shows itself among the running requests. */
const ownQuery = (q: CassandraQueryRow) => /system_views\.queries/i.test(q.task ?? '');

function isLong(q: CassandraQueryRow, longQueryS: number): boolean {
  return q.running_s !== null && q.running_s >= longQueryS;
}

/** Seconds since the node started, from its gossip generation (unix seconds at start). */
export function cassandraUptime(r: CassandraReading): number | null {
  const started = r.local.gossip_generation;
  if (started === null || started <= 0) return null;
  const uptime = Math.round(r.at / 1000 - started);
  return uptime >= 0 ? uptime : null;
}

/** Bytes per keyspace, from the tables' disk usage. */
export function keyspaceSizes(tables: readonly CassandraTableBytes[]): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const t of tables) sizes.set(t.keyspace, (sizes.get(t.keyspace) ?? 0) + t.bytes);
  return sizes;
}

/**
 * Samples of a reading: gauges always; request, read, write and blocked-task rates and the cache
 * hit ratios when an earlier reading is `seconds` before. A counter that went backwards (the node
 * restarted) has no rate this time.
 */
export function cassandraSamples(
  cur: CassandraReading,
  prev: CassandraReading | undefined,
  seconds: number,
  longQueryS: number,
): PollSample[] {
  const s: PollSample[] = [];
  const uptime = cassandraUptime(cur);
  if (uptime !== null) s.push({ m: 'cassandra.uptime', v: uptime });
  s.push({ m: 'cassandra.request_latency_ms', v: round(cur.latencyMs, 1) });
  const local = cur.hosts.filter((h) => h.up !== null);
  s.push(
    { m: 'cassandra.nodes', v: 1 + cur.peers.length },
    { m: 'cassandra.nodes_up', v: local.filter((h) => h.up).length },
    { m: 'cassandra.nodes_down', v: local.filter((h) => h.up === false).length },
  );
  if (cur.clients) {
    s.push({ m: 'cassandra.connections', v: cur.clients.length });
    const byUser = new Map<string, number>();
    for (const c of cur.clients) {
      const user = c.username ?? 'anonymous';
      byUser.set(user, (byUser.get(user) ?? 0) + 1);
    }
    for (const [user, v] of byUser) s.push({ m: 'cassandra.user_connections', l: { user }, v });
  }
  if (cur.maxConnections) s.push({ m: 'cassandra.max_connections', v: cur.maxConnections });
  if (cur.pools) {
    let pending = 0;
    let blocked = 0;
    for (const p of cur.pools) {
      pending += p.pending;
      blocked += p.blocked;
      s.push(
        { m: 'cassandra.pool_pending_tasks', l: { pool: p.name }, v: p.pending },
        { m: 'cassandra.pool_active_tasks', l: { pool: p.name }, v: p.active },
      );
    }
    s.push({ m: 'cassandra.pending_tasks', v: pending }, { m: 'cassandra.blocked_tasks', v: blocked });
  }
  if (cur.caches) {
    for (const c of cur.caches) {
      if (c.sizeBytes !== null)
        s.push({ m: 'cassandra.cache_size_bytes', l: { cache: c.name }, v: c.sizeBytes });
      if (c.capacityBytes !== null) {
        s.push({ m: 'cassandra.cache_capacity_bytes', l: { cache: c.name }, v: c.capacityBytes });
      }
    }
  }
  if (cur.tasks) {
    s.push({ m: 'cassandra.compactions_running', v: cur.tasks.length });
    const remaining = cur.tasks
      .filter((t) => t.unit === 'bytes')
      .reduce((sum, t) => sum + Math.max(0, t.total - t.progress), 0);
    s.push({ m: 'cassandra.compaction_remaining_bytes', v: remaining });
  }
  if (cur.queries) {
    const running = cur.queries.filter((q) => !ownQuery(q));
    s.push(
      { m: 'cassandra.queries_running', v: running.length },
      { m: 'cassandra.long_queries', v: running.filter((q) => isLong(q, longQueryS)).length },
    );
  }
  if (cur.sizes) {
    for (const [keyspace, bytes] of keyspaceSizes(cur.sizes.tables)) {
      s.push({ m: 'cassandra.keyspace_size_bytes', l: { keyspace }, v: bytes });
    }
    if (cur.sizes.maxPartitionBytes !== null) {
      s.push({ m: 'cassandra.max_partition_bytes', v: cur.sizes.maxPartitionBytes });
    }
  }
  if (!prev || !(seconds > 0)) return s;
  if (cur.pools && prev.pools) {
    const before = new Map(prev.pools.map((p) => [p.name, p]));
    for (const [pool, m] of POOL_RATES) {
      const now = cur.pools.find((p) => p.name === pool);
      const v = ratePerSecond(before.get(pool)?.completed, now?.completed, seconds);
      if (v !== undefined) s.push({ m, v });
    }
    const total = (pools: readonly CassandraPoolRow[]) => pools.reduce((sum, p) => sum + p.blockedAllTime, 0);
    const v = ratePerSecond(total(prev.pools), total(cur.pools), seconds);
    if (v !== undefined) s.push({ m: 'cassandra.blocked_tasks_rate', v });
  }
  if (cur.caches && prev.caches) {
    const before = new Map(prev.caches.map((c) => [c.name, c]));
    for (const c of cur.caches) {
      const b = before.get(c.name);
      if (!b || c.requests === null || c.hits === null || b.requests === null || b.hits === null) continue;
      const ratio = hitRatio(b.hits, c.hits, b.requests - b.hits, c.requests - c.hits);
      if (ratio !== undefined) s.push({ m: 'cassandra.cache_hit_ratio', l: { cache: c.name }, v: ratio });
    }
  }
  return s;
}

/** The number ending a thread name (`ReadStage-3`), the id the lists show. */
function threadNumber(thread: string): number {
  const n = /(\d+)$/.exec(thread)?.[1];
  return n === undefined ? 0 : Number(n);
}

function querySession(q: CassandraQueryRow): DbSession {
  return {
    id: threadNumber(q.thread),
    user: null,
    database: null,
    client: null,
    application: null,
    state: q.thread.replace(/-\d+$/, '') || null,
    wait: null,
    duration_s: q.running_s === null ? null : round(q.running_s),
    query: q.task,
  };
}

function clientSession(c: CassandraClientRow): DbSession {
  return {
    id: c.port,
    user: c.username,
    database: null,
    client: c.address === null ? null : `${c.address}:${c.port}`,
    application: c.application ?? c.driver,
    state: c.stage,
    wait: null,
    duration_s: null,
    query: null,
  };
}

const byDuration = (a: DbSession, b: DbSession) => (b.duration_s ?? -1) - (a.duration_s ?? -1);

/**
 * The cluster as this node sees it. Cassandra has no single primary: every node takes writes and
 * replicates to its peers, so a node with peers is shown as `primary` with its peers as replicas
 * (state up or down as the driver found them, unknown for another data center), and a node alone
 * as `standalone`.
 */
export function cassandraReplication(cur: CassandraReading): ReplicationStatus {
  const hostUp = new Map(cur.hosts.map((h) => [h.address, h.up]));
  const state = (address: string) => {
    const up = hostUp.get(address);
    return up === true ? 'up' : up === false ? 'down' : null;
  };
  return {
    role: cur.peers.length > 0 ? 'primary' : 'standalone',
    state: null,
    lag_s: null,
    source: null,
    last_error: null,
    replicas: cur.peers.map((p) => ({
      name: p.host_id ?? p.address,
      address: p.address,
      state: state(p.address),
      sync_state: [p.data_center, p.rack].filter(Boolean).join('/') || null,
      lag_s: null,
      lag_bytes: null,
    })),
  };
}

/**
 * The lists of a reading. Cassandra takes no locks a client waits on, so no session is ever
 * blocked; the poller's own connections and its read of the running requests are left out.
 */
export function cassandraExtras(
  cur: CassandraReading,
  longQueryS: number,
  topTables: number,
  keyspace: string | undefined,
): PollerExtras {
  const queries = (cur.queries ?? []).filter((q) => !ownQuery(q));
  const extras: PollerExtras = {
    server: {
      version: cur.local.release_version,
      uptime_s: cassandraUptime(cur),
      max_connections: cur.maxConnections ?? null,
    },
    sessions: [
      ...queries.map(querySession),
      ...(cur.clients ?? []).filter((c) => !ownClient(c)).map(clientSession),
    ]
      .sort(byDuration)
      .slice(0, MAX_LISTED_SESSIONS),
    long_queries: queries
      .filter((q) => isLong(q, longQueryS))
      .map(querySession)
      .sort(byDuration),
    blocked_sessions: [],
    replication: cassandraReplication(cur),
  };
  if (cur.sizes) {
    extras.databases = [...keyspaceSizes(cur.sizes.tables)]
      .map(([name, size_bytes]) => ({ name, size_bytes }))
      .sort((a, b) => b.size_bytes - a.size_bytes);
    extras.tables = cur.sizes.tables
      .filter((t) => (keyspace ? t.keyspace === keyspace : !SYSTEM_KEYSPACES.has(t.keyspace)))
      .sort((a, b) => b.bytes - a.bytes)
      .slice(0, topTables)
      .map(
        (t): TableSize => ({
          database: t.keyspace,
          schema: null,
          name: t.table,
          size_bytes: t.bytes,
          data_bytes: null,
          index_bytes: null,
          rows: null,
        }),
      );
  }
  return extras;
}
