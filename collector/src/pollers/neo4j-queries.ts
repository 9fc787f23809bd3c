import { isDuration, isInt, type Record as Neo4jRecord } from 'neo4j-driver';
import { str } from './rates';

/**
 * The Cypher of the Neo4j poller (Neo4j 5) and the readers that turn the driver's records into
 * typed rows. The driver answers integers as its own Integer objects (64-bit), durations as
 * Duration objects and maps as plain objects; the readers convert each once, here.
 */

/** Metadata the poller's transactions carry, so they are left out of the lists they show up in. */
export const NEO4J_POLLER_METADATA = { app: 'flightdeck-poller' } as const;

export const COMPONENTS_CYPHER = 'CALL dbms.components() YIELD name, versions, edition';
/** Run against the `system` database, where administration commands are served. */
export const DATABASES_CYPHER = 'SHOW DATABASES YIELD *';
export const TRANSACTIONS_CYPHER = 'SHOW TRANSACTIONS YIELD *';
export const CONNECTIONS_CYPHER =
  'CALL dbms.listConnections() YIELD connectionId RETURN count(*) AS connections';
export const NODE_COUNT_CYPHER = 'MATCH (n) RETURN count(n) AS count';
export const RELATIONSHIP_COUNT_CYPHER = 'MATCH ()-[r]->() RETURN count(r) AS count';

/**
 * JMX beans the poller reads through dbms.queryJmx: the JVM's memory and runtime beans, which
 * every edition has, and the few metrics beans it charts, which only Enterprise Edition publishes
 * (with server.metrics.jmx.enabled, the default there). The name filter keeps the answer small.
 */
export const JMX_CYPHER = `UNWIND ['java.lang:type=Memory', 'java.lang:type=Runtime', 'neo4j.metrics:*'] AS q
CALL dbms.queryJmx(q) YIELD name, attributes
WITH name, attributes
WHERE name STARTS WITH 'java.lang:'
  OR name =~ '.*\\\\.(page_cache\\\\.(hits|page_faults)|transaction\\\\.(committed|rollbacks)|store\\\\.size\\\\.total|bolt\\\\.connections_(running|idle))$'
RETURN name, attributes`;

/** A number from a driver value: Integer objects, numbers, bigints, numeric strings. */
export function neoNum(value: unknown): number | undefined {
  if (isInt(value)) {
    // Past 2^53 the value is approximate, never a thrown error.
    return value.inSafeRange() ? value.toNumber() : Number(value.toString());
  }
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

/** Seconds of a Cypher DURATION (SHOW TRANSACTIONS' elapsedTime), or of a number of milliseconds. */
export function durationSeconds(value: unknown): number | null {
  if (isDuration(value)) {
    const part = (v: unknown) => neoNum(v) ?? 0;
    // Elapsed times carry no months; a month is counted as 30 days should one appear.
    return (
      part(value.months) * 30 * 86_400 +
      part(value.days) * 86_400 +
      part(value.seconds) +
      part(value.nanoseconds) / 1e9
    );
  }
  const ms = neoNum(value);
  return ms === undefined ? null : ms / 1000;
}

function field(record: Neo4jRecord, key: string): unknown {
  return record.has(key) ? record.get(key) : undefined;
}

const text = (record: Neo4jRecord, key: string) => {
  const v = str(field(record, key));
  return v === '' ? null : v;
};

/** The server as dbms.components() describes it. */
export interface Neo4jServer {
  version: string;
  edition: string;
}

/** The kernel component's version and edition. */
export function readComponents(records: readonly Neo4jRecord[]): Neo4jServer {
  const kernel = records.find((r) => str(field(r, 'name')) === 'Neo4j Kernel') ?? records[0];
  if (!kernel) throw new Error('dbms.components() answered no row');
  const versions = field(kernel, 'versions');
  return {
    version: str(Array.isArray(versions) ? versions[0] : versions) ?? '',
    edition: str(field(kernel, 'edition')) ?? '',
  };
}

/** One row of SHOW DATABASES: one database on one server of the cluster. */
export interface Neo4jDatabaseRow {
  name: string;
  type: string | null;
  /** The Bolt address of the server hosting this copy. */
  address: string | null;
  /** `primary`, `secondary` or `unknown`. */
  role: string | null;
  /** Whether this copy accepts writes: the leader of a clustered database. */
  writer: boolean;
  requestedStatus: string | null;
  currentStatus: string | null;
  statusMessage: string | null;
  isDefault: boolean;
  /** Transactions this copy is behind the writer (Neo4j reports it as 0 or negative). */
  replicationLag: number | null;
}

export function readDatabase(record: Neo4jRecord): Neo4jDatabaseRow {
  const lag = neoNum(field(record, 'replicationLag'));
  return {
    name: str(field(record, 'name')) ?? '',
    type: text(record, 'type'),
    address: text(record, 'address'),
    role: text(record, 'role'),
    writer: field(record, 'writer') === true,
    requestedStatus: text(record, 'requestedStatus'),
    currentStatus: text(record, 'currentStatus'),
    statusMessage: text(record, 'statusMessage'),
    isDefault: field(record, 'default') === true,
    replicationLag: lag === undefined ? null : Math.abs(lag),
  };
}

/** One row of SHOW TRANSACTIONS. */
export interface Neo4jTransactionRow {
  /** `<database>-transaction-<n>`. */
  transactionId: string;
  database: string | null;
  username: string | null;
  clientAddress: string | null;
  protocol: string | null;
  query: string | null;
  /** `Running`, `Blocked by: [...]`, `Closing`, `Terminated with reason: ...`. */
  status: string | null;
  elapsed_s: number | null;
  /** Time spent waiting for locks. */
  wait_s: number | null;
  activeLocks: number | null;
  /** Transactions this one waits for, from its status. */
  blockedBy: string[];
  /** One of the poller's own transactions. */
  own: boolean;
}

const TRANSACTION_ID = /[^\s,[\]]+-transaction-\d+/g;

export function readTransaction(record: Neo4jRecord): Neo4jTransactionRow {
  const status = text(record, 'status');
  const meta = field(record, 'metaData');
  const query = text(record, 'currentQuery');
  return {
    transactionId: str(field(record, 'transactionId')) ?? '',
    database: text(record, 'database'),
    username: text(record, 'username'),
    clientAddress: text(record, 'clientAddress'),
    protocol: text(record, 'protocol'),
    query: query === null ? null : query.slice(0, 2048),
    status,
    elapsed_s: durationSeconds(field(record, 'elapsedTime')),
    wait_s: durationSeconds(field(record, 'waitTime')),
    activeLocks: neoNum(field(record, 'activeLockCount')) ?? null,
    blockedBy: status?.startsWith('Blocked') ? (status.match(TRANSACTION_ID) ?? []) : [],
    own:
      typeof meta === 'object' &&
      meta !== null &&
      (meta as { app?: unknown }).app === NEO4J_POLLER_METADATA.app,
  };
}

/** What the JMX beans told, each figure only when its bean was there. */
export interface Neo4jJmx {
  heapUsed?: number;
  heapMax?: number;
  uptimeMs?: number;
  pageCacheHits?: number;
  pageCacheFaults?: number;
  boltRunning?: number;
  boltIdle?: number;
  /** Per database, from the database metrics. */
  committed: Map<string, number>;
  rollbacks: Map<string, number>;
  storeSize: Map<string, number>;
}

/** An attribute's value: dbms.queryJmx answers each attribute as `{description, value}`. */
function attribute(attributes: unknown, name: string): unknown {
  const attr = (attributes as Record<string, unknown> | null)?.[name];
  return typeof attr === 'object' && attr !== null ? (attr as { value?: unknown }).value : undefined;
}

const DATABASE_METRIC =
  /\.database\.(.+)\.(transaction\.committed|transaction\.rollbacks|store\.size\.total)$/;

/**
 * Reads the answer of {@link JMX_CYPHER}. Metrics bean names are `neo4j.metrics:name=` plus the
 * metric name, whose prefix is configurable (server.metrics.prefix), so they are matched by the end.
 */
export function readJmx(records: readonly Neo4jRecord[]): Neo4jJmx {
  const jmx: Neo4jJmx = { committed: new Map(), rollbacks: new Map(), storeSize: new Map() };
  for (const record of records) {
    const name = str(field(record, 'name')) ?? '';
    const attributes = field(record, 'attributes');
    if (name === 'java.lang:type=Memory') {
      const heap = attribute(attributes, 'HeapMemoryUsage') as Record<string, unknown> | undefined;
      const used = neoNum(heap?.used);
      const max = neoNum(heap?.max);
      if (used !== undefined) jmx.heapUsed = used;
      // -1 means no limit was set.
      if (max !== undefined && max > 0) jmx.heapMax = max;
      continue;
    }
    if (name === 'java.lang:type=Runtime') {
      const uptime = neoNum(attribute(attributes, 'Uptime'));
      if (uptime !== undefined) jmx.uptimeMs = uptime;
      continue;
    }
    const metric = name.replace(/^neo4j\.metrics:name=/, '');
    // Counters publish Count, gauges Value.
    const value = neoNum(attribute(attributes, 'Count')) ?? neoNum(attribute(attributes, 'Value'));
    if (value === undefined) continue;
    const db = DATABASE_METRIC.exec(metric);
    if (db) {
      const [, database = '', kind] = db;
      const into =
        kind === 'transaction.committed'
          ? jmx.committed
          : kind === 'transaction.rollbacks'
            ? jmx.rollbacks
            : jmx.storeSize;
      into.set(database, value);
    } else if (metric.endsWith('.page_cache.hits')) jmx.pageCacheHits = value;
    else if (metric.endsWith('.page_cache.page_faults')) jmx.pageCacheFaults = value;
    else if (metric.endsWith('.bolt.connections_running')) jmx.boltRunning = value;
    else if (metric.endsWith('.bolt.connections_idle')) jmx.boltIdle = value;
  }
  return jmx;
}

/** The single `count` of a count query. */
export function readCount(records: readonly Neo4jRecord[]): number {
  return neoNum(records[0] ? field(records[0], 'count') : undefined) ?? 0;
}

/** The `connections` of {@link CONNECTIONS_CYPHER}. */
export function readConnections(records: readonly Neo4jRecord[]): number {
  return neoNum(records[0] ? field(records[0], 'connections') : undefined) ?? 0;
}
