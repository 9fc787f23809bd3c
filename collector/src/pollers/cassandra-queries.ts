import { types } from 'cassandra-driver';
import { num, str } from './rates';

/**
 * The CQL of the Cassandra poller (Cassandra 4.0 and later) and the readers that turn the
 * driver's rows into typed rows. The driver answers bigint columns as Long objects, inet as
 * InetAddress, uuid as Uuid; the readers convert each once, here. The virtual tables of
 * system_views differ between versions, so the poller reads only those the node lists.
 */

/** How the poller's connections name themselves (STARTUP's APPLICATION_NAME). */
export const CASSANDRA_APPLICATION_NAME = 'flightdeck-poller';

export const LOCAL_CQL = `SELECT cluster_name, release_version, data_center, rack, host_id, gossip_generation,
  broadcast_address, rpc_address FROM system.local`;
export const PEERS_V2_CQL =
  'SELECT peer, peer_port, data_center, rack, host_id, release_version, native_address FROM system.peers_v2';
/** Before Cassandra 4.0 and on servers that do not list peers_v2. */
export const PEERS_CQL =
  'SELECT peer, data_center, rack, host_id, release_version, rpc_address FROM system.peers';
export const VIEWS_CQL =
  "SELECT table_name FROM system_virtual_schema.tables WHERE keyspace_name = 'system_views'";
export const CLIENTS_CQL = 'SELECT * FROM system_views.clients';
export const THREAD_POOLS_CQL = `SELECT name, active_tasks, pending_tasks, completed_tasks, blocked_tasks,
  blocked_tasks_all_time FROM system_views.thread_pools`;
export const CACHES_CQL =
  'SELECT name, capacity_bytes, size_bytes, entry_count, request_count, hit_count FROM system_views.caches';
export const MAX_CONNECTIONS_CQL =
  "SELECT value FROM system_views.settings WHERE name = 'native_transport_max_concurrent_connections'";
export const SSTABLE_TASKS_CQL =
  'SELECT keyspace_name, table_name, kind, progress, total, unit FROM system_views.sstable_tasks';
/** Columns changed between versions (duration_micros; queued_micros and running_micros later). */
export const QUERIES_CQL = 'SELECT * FROM system_views.queries';
export const DISK_USAGE_CQL = 'SELECT keyspace_name, table_name, mebibytes FROM system_views.disk_usage';
export const MAX_PARTITION_CQL =
  'SELECT keyspace_name, table_name, mebibytes FROM system_views.max_partition_size';

/** Keyspaces of the server itself, left out of the largest tables. */
export const SYSTEM_KEYSPACES: ReadonlySet<string> = new Set([
  'system',
  'system_auth',
  'system_distributed',
  'system_schema',
  'system_traces',
  'system_views',
  'system_virtual_schema',
]);

type Row = types.Row;

/** A number from a driver value: Long objects (bigint), numbers, numeric strings. */
export function cqlNum(value: unknown): number | undefined {
  if (value instanceof types.Long) return value.toNumber();
  return num(value);
}

function col(row: Row, name: string): unknown {
  return row.get(name);
}

const text = (row: Row, name: string) => {
  const v = str(col(row, name));
  return v === '' ? null : v;
};

/** The node itself, from system.local. */
export interface CassandraLocal {
  cluster_name: string | null;
  release_version: string;
  data_center: string | null;
  rack: string | null;
  host_id: string | null;
  /** Unix seconds the node started: its gossip generation. */
  gossip_generation: number | null;
  address: string | null;
}

export function readLocal(row: Row): CassandraLocal {
  return {
    cluster_name: text(row, 'cluster_name'),
    release_version: str(col(row, 'release_version')) ?? '',
    data_center: text(row, 'data_center'),
    rack: text(row, 'rack'),
    host_id: text(row, 'host_id'),
    gossip_generation: cqlNum(col(row, 'gossip_generation')) ?? null,
    address: text(row, 'broadcast_address') ?? text(row, 'rpc_address'),
  };
}

/** Another node of the cluster, from system.peers_v2 or system.peers. */
export interface CassandraPeer {
  address: string;
  data_center: string | null;
  rack: string | null;
  host_id: string | null;
  release_version: string | null;
}

export function readPeer(row: Row): CassandraPeer {
  return {
    address: text(row, 'native_address') ?? text(row, 'rpc_address') ?? text(row, 'peer') ?? '',
    data_center: text(row, 'data_center'),
    rack: text(row, 'rack'),
    host_id: text(row, 'host_id'),
    release_version: text(row, 'release_version'),
  };
}

/** A connected client, from system_views.clients. */
export interface CassandraClientRow {
  address: string | null;
  port: number;
  username: string | null;
  stage: string | null;
  driver: string | null;
  /** Its STARTUP options (4.1 and later): APPLICATION_NAME tells the poller's own connections. */
  application: string | null;
  requests: number | null;
}

export function readClient(row: Row): CassandraClientRow {
  const options = row.keys().includes('client_options') ? col(row, 'client_options') : null;
  const application =
    options && typeof options === 'object'
      ? str((options as Record<string, unknown>).APPLICATION_NAME)
      : null;
  const driver = [text(row, 'driver_name'), text(row, 'driver_version')].filter(Boolean).join(' ');
  return {
    address: text(row, 'address'),
    port: cqlNum(col(row, 'port')) ?? 0,
    username: text(row, 'username'),
    stage: text(row, 'connection_stage'),
    driver: driver === '' ? null : driver,
    application,
    requests: cqlNum(col(row, 'request_count')) ?? null,
  };
}

/** One thread pool, from system_views.thread_pools. */
export interface CassandraPoolRow {
  name: string;
  active: number;
  pending: number;
  completed: number;
  blocked: number;
  blockedAllTime: number;
}

export function readPool(row: Row): CassandraPoolRow {
  return {
    name: str(col(row, 'name')) ?? '',
    active: cqlNum(col(row, 'active_tasks')) ?? 0,
    pending: cqlNum(col(row, 'pending_tasks')) ?? 0,
    completed: cqlNum(col(row, 'completed_tasks')) ?? 0,
    blocked: cqlNum(col(row, 'blocked_tasks')) ?? 0,
    blockedAllTime: cqlNum(col(row, 'blocked_tasks_all_time')) ?? 0,
  };
}

/** One cache (keys, rows, counters, chunks), from system_views.caches. */
export interface CassandraCacheRow {
  name: string;
  capacityBytes: number | null;
  sizeBytes: number | null;
  requests: number | null;
  hits: number | null;
}

export function readCache(row: Row): CassandraCacheRow {
  return {
    name: str(col(row, 'name')) ?? '',
    capacityBytes: cqlNum(col(row, 'capacity_bytes')) ?? null,
    sizeBytes: cqlNum(col(row, 'size_bytes')) ?? null,
    requests: cqlNum(col(row, 'request_count')) ?? null,
    hits: cqlNum(col(row, 'hit_count')) ?? null,
  };
}

/** The connection limit setting; -1 (the default) means none. */
export function readMaxConnections(rows: readonly Row[]): number | null {
  const value = rows[0] ? cqlNum(col(rows[0], 'value')) : undefined;
  return value !== undefined && value > 0 ? value : null;
}

/** A running compaction, cleanup, index build..., from system_views.sstable_tasks. */
export interface CassandraTaskRow {
  keyspace: string | null;
  table: string | null;
  kind: string | null;
  progress: number;
  total: number;
  unit: string | null;
}

export function readTask(row: Row): CassandraTaskRow {
  return {
    keyspace: text(row, 'keyspace_name'),
    table: text(row, 'table_name'),
    kind: text(row, 'kind'),
    progress: cqlNum(col(row, 'progress')) ?? 0,
    total: cqlNum(col(row, 'total')) ?? 0,
    unit: text(row, 'unit'),
  };
}

/** A request being served, from system_views.queries. */
export interface CassandraQueryRow {
  /** The thread serving it, e.g. `Native-Transport-Requests-17`. */
  thread: string;
  running_s: number | null;
  task: string | null;
}

export function readQuery(row: Row): CassandraQueryRow {
  const keys = row.keys();
  const micros = cqlNum(col(row, keys.includes('running_micros') ? 'running_micros' : 'duration_micros'));
  const task = text(row, 'task');
  return {
    thread: str(col(row, 'thread_id')) ?? '',
    running_s: micros === undefined ? null : micros / 1e6,
    task: task === null ? null : task.trim().slice(0, 2048),
  };
}

/** A table's figure in mebibytes (disk_usage, max_partition_size), as bytes. */
export interface CassandraTableBytes {
  keyspace: string;
  table: string;
  bytes: number;
}

export function readTableBytes(row: Row): CassandraTableBytes {
  return {
    keyspace: str(col(row, 'keyspace_name')) ?? '',
    table: str(col(row, 'table_name')) ?? '',
    bytes: (cqlNum(col(row, 'mebibytes')) ?? 0) * 1024 * 1024,
  };
}
