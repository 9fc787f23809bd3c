import {
  type BlockedSession,
  type DbSession,
  MAX_LISTED_SESSIONS,
  type PollerExtras,
  type ReplicationStatus,
} from '@flightdeck/schemas';
import type { PollSample } from './contract';
import type { Neo4jDatabaseRow, Neo4jJmx, Neo4jServer, Neo4jTransactionRow } from './neo4j-queries';
import { hitRatio, ratePerSecond, round } from './rates';

/** Everything one poll of a Neo4j server read. Optional parts are absent when they could not be read. */
export interface Neo4jReading {
  server: Neo4jServer;
  /** The database the target names: whose cluster role and counts are reported. */
  database: string;
  /** The Bolt address the driver reached, as the server's rows in SHOW DATABASES name it. */
  address: string;
  databases: Neo4jDatabaseRow[];
  transactions: Neo4jTransactionRow[];
  connections?: number | undefined;
  jmx?: Neo4jJmx | undefined;
  counts?: { nodes: number; relationships: number } | undefined;
}

/** Transactions of other clients than the poller. */
function others(r: Neo4jReading): Neo4jTransactionRow[] {
  return r.transactions.filter((t) => !t.own);
}

function isLong(t: Neo4jTransactionRow, longQueryS: number): boolean {
  return t.query !== null && t.elapsed_s !== null && t.elapsed_s >= longQueryS;
}

const isBlocked = (t: Neo4jTransactionRow) => t.blockedBy.length > 0 || /^Blocked/.test(t.status ?? '');

/** The rows of the target database, one per server hosting it, and this server's own row. */
export function neo4jMembers(r: Neo4jReading): {
  members: Neo4jDatabaseRow[];
  own: Neo4jDatabaseRow | undefined;
} {
  const members = r.databases.filter((d) => d.name === r.database);
  const own = members.find((d) => d.address === r.address) ?? (members.length === 1 ? members[0] : undefined);
  return { members, own };
}

/**
 * Samples of a reading: gauges always; commit and rollback rates and the page cache hit ratio when
 * the metrics beans are there and an earlier reading is `seconds` before.
 */
export function neo4jSamples(
  cur: Neo4jReading,
  prev: Neo4jReading | undefined,
  seconds: number,
  longQueryS: number,
): PollSample[] {
  const s: PollSample[] = [];
  const tx = others(cur);
  s.push(
    { m: 'neo4j.transactions_open', v: tx.length },
    { m: 'neo4j.long_queries', v: tx.filter((t) => isLong(t, longQueryS)).length },
    { m: 'neo4j.blocked_transactions', v: tx.filter(isBlocked).length },
    { m: 'neo4j.databases', v: new Set(cur.databases.map((d) => d.name)).size },
  );
  const { members, own } = neo4jMembers(cur);
  // A database is online on this server when this server's copy is; on a single server, its only row.
  const ownRows = cur.databases.filter(
    (d) => d.address === cur.address || cur.databases.filter((x) => x.name === d.name).length === 1,
  );
  s.push({ m: 'neo4j.databases_online', v: ownRows.filter((d) => d.currentStatus === 'online').length });
  for (const d of ownRows) {
    s.push({ m: 'neo4j.database_online', l: { database: d.name }, v: d.currentStatus === 'online' ? 1 : 0 });
  }
  s.push({ m: 'neo4j.cluster_members', v: members.length });
  if (own) {
    s.push({ m: 'neo4j.writer', v: own.writer ? 1 : 0 });
    if (!own.writer && own.replicationLag !== null) {
      s.push({ m: 'neo4j.replication_lag_transactions', v: own.replicationLag });
    }
  }
  if (cur.connections !== undefined) s.push({ m: 'neo4j.connections', v: cur.connections });
  if (cur.counts) {
    s.push(
      { m: 'neo4j.nodes', l: { database: cur.database }, v: cur.counts.nodes },
      { m: 'neo4j.relationships', l: { database: cur.database }, v: cur.counts.relationships },
    );
  }
  const jmx = cur.jmx;
  if (jmx) {
    if (jmx.uptimeMs !== undefined) s.push({ m: 'neo4j.uptime', v: round(jmx.uptimeMs / 1000, 0) });
    if (jmx.heapUsed !== undefined) s.push({ m: 'neo4j.heap_used_bytes', v: jmx.heapUsed });
    if (jmx.heapMax !== undefined) s.push({ m: 'neo4j.heap_max_bytes', v: jmx.heapMax });
    if (jmx.boltRunning !== undefined) s.push({ m: 'neo4j.bolt_connections_running', v: jmx.boltRunning });
    if (jmx.boltIdle !== undefined) s.push({ m: 'neo4j.bolt_connections_idle', v: jmx.boltIdle });
    for (const [database, bytes] of jmx.storeSize) {
      s.push({ m: 'neo4j.store_size_bytes', l: { database }, v: bytes });
    }
  }
  const before = prev?.jmx;
  if (!jmx || !before || !(seconds > 0)) return s;
  for (const [database, committed] of jmx.committed) {
    const v = ratePerSecond(before.committed.get(database), committed, seconds);
    if (v !== undefined) s.push({ m: 'neo4j.transactions_committed_rate', l: { database }, v });
  }
  for (const [database, rolledBack] of jmx.rollbacks) {
    const v = ratePerSecond(before.rollbacks.get(database), rolledBack, seconds);
    if (v !== undefined) s.push({ m: 'neo4j.transactions_rolled_back_rate', l: { database }, v });
  }
  const ratio = hitRatio(
    before.pageCacheHits,
    jmx.pageCacheHits,
    before.pageCacheFaults,
    jmx.pageCacheFaults,
  );
  if (ratio !== undefined) s.push({ m: 'neo4j.page_cache_hit_ratio', v: ratio });
  return s;
}

/** The number of `<database>-transaction-<n>`, the id the lists show. */
export function transactionNumber(id: string): number {
  const n = /-transaction-(\d+)$/.exec(id)?.[1];
  return n === undefined ? 0 : Number(n);
}

function session(t: Neo4jTransactionRow): DbSession {
  return {
    id: transactionNumber(t.transactionId),
    user: t.username,
    database: t.database,
    client: t.clientAddress,
    application: t.protocol,
    state: t.status,
    wait: isBlocked(t) ? 'lock' : null,
    duration_s: t.elapsed_s === null ? null : round(t.elapsed_s),
    query: t.query,
  };
}

function unknownTransaction(id: string): DbSession {
  const database = /^(.+)-transaction-\d+$/.exec(id)?.[1] ?? null;
  return {
    id: transactionNumber(id),
    user: null,
    database,
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
 * Replication of the target database as this server sees it: the writer is `primary`, another
 * copy a `replica` of it, a database hosted on one server only `standalone`. Undefined when this
 * server's row cannot be told among several (the address the driver used is not the advertised one).
 */
export function neo4jReplication(cur: Neo4jReading): ReplicationStatus | undefined {
  const { members, own } = neo4jMembers(cur);
  if (members.length <= 1) {
    return {
      role: 'standalone',
      state: own?.currentStatus ?? null,
      lag_s: null,
      source: null,
      last_error: own?.statusMessage ?? null,
      replicas: [],
    };
  }
  if (!own) return undefined;
  const writer = members.find((m) => m.writer);
  if (own.writer) {
    return {
      role: 'primary',
      state: own.currentStatus,
      lag_s: null,
      source: null,
      last_error: own.statusMessage,
      replicas: members
        .filter((m) => m !== own)
        .map((m) => ({
          name: m.address ?? m.name,
          address: m.address,
          state: m.currentStatus,
          sync_state: m.role,
          lag_s: null,
          lag_bytes: null,
        })),
    };
  }
  return {
    role: 'replica',
    state: own.currentStatus,
    lag_s: null,
    source: writer?.address ?? null,
    last_error: own.statusMessage,
    replicas: [],
  };
}

/** The lists of a reading, the poller's own transactions left out. */
export function neo4jExtras(cur: Neo4jReading, longQueryS: number): PollerExtras {
  const tx = others(cur);
  const byId = new Map(tx.map((t) => [t.transactionId, t]));
  const blocked: BlockedSession[] = tx.filter(isBlocked).map((t) => ({
    ...session(t),
    wait_s: t.wait_s === null ? null : round(t.wait_s),
    blocked_by: t.blockedBy.map((id) => {
      const holder = byId.get(id);
      return holder ? session(holder) : unknownTransaction(id);
    }),
  }));
  const extras: PollerExtras = {
    server: {
      version: cur.server.version,
      uptime_s: cur.jmx?.uptimeMs === undefined ? null : round(cur.jmx.uptimeMs / 1000, 0),
      max_connections: null,
    },
    sessions: tx.map(session).sort(byDuration).slice(0, MAX_LISTED_SESSIONS),
    long_queries: tx
      .filter((t) => isLong(t, longQueryS))
      .map(session)
      .sort(byDuration),
    blocked_sessions: blocked,
  };
  const replication = neo4jReplication(cur);
  if (replication) extras.replication = replication;
  if (cur.jmx && cur.jmx.storeSize.size > 0) {
    extras.databases = [...cur.jmx.storeSize]
      .map(([name, size_bytes]) => ({ name, size_bytes }))
      .sort((a, b) => b.size_bytes - a.size_bytes);
  }
  return extras;
}
