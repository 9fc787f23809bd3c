import { types } from 'cassandra-driver';

/**
 * Answers of a Cassandra 4.1 node to the Cassandra poller's queries, written by hand in the shape
 * cassandra-driver 4 returns them (Row objects; bigint as Long, inet as InetAddress, uuid as
 * Uuid, map<text, text> as a plain object), with the columns the Cassandra 4.1 documentation and
 * the virtual table definitions of its system_views keyspace give (clients, thread_pools, caches,
 * settings, sstable_tasks, queries, disk_usage, max_partition_size). They are not recordings.
 *
 * The situation: node 10.0.0.11 of a cluster with a second node in its data center (dc1, found
 * down by the driver) and a third in dc2. The second reading is 60 s after the first; meanwhile
 * a compaction of shop.orders runs, one client query has run for 95 s and the poller's own read
 * of system_views.queries shows among the running requests.
 */

const RowClass = (types as unknown as { Row: new (columns: { name: string }[]) => types.Row }).Row;

/** A row as the driver builds it: its columns, then each value decoded. */
function row(values: { [column: string]: unknown }): types.Row {
  const r = new RowClass(Object.keys(values).map((name) => ({ name })));
  Object.assign(r, values);
  return r;
}

const long = (n: number) => types.Long.fromNumber(n);
const inet = (ip: string) => types.InetAddress.fromString(ip);

export const local = [
  row({
    cluster_name: 'Shop Cluster',
    release_version: '4.1.5',
    data_center: 'dc1',
    rack: 'rack1',
    host_id: types.Uuid.fromString('5f2c9a1e-3b7d-4e8f-9a0b-1c2d3e4f5a6b'),
    gossip_generation: 1_741_500_000,
    broadcast_address: inet('10.0.0.11'),
    rpc_address: inet('10.0.0.11'),
  }),
];

export const peersV2 = [
  row({
    peer: inet('10.0.0.12'),
    peer_port: 7000,
    data_center: 'dc1',
    rack: 'rack2',
    host_id: types.Uuid.fromString('7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d'),
    release_version: '4.1.5',
    native_address: inet('10.0.0.12'),
  }),
  row({
    peer: inet('10.0.1.21'),
    peer_port: 7000,
    data_center: 'dc2',
    rack: 'rack1',
    host_id: types.Uuid.fromString('0d9c8b7a-6f5e-4d4c-8b3a-2f1e0d9c8b7a'),
    release_version: '4.1.5',
    native_address: inet('10.0.1.21'),
  }),
];

export const views = [
  'caches',
  'clients',
  'coordinator_read_latency',
  'disk_usage',
  'gossip_info',
  'internode_inbound',
  'internode_outbound',
  'local_read_latency',
  'max_partition_size',
  'queries',
  'settings',
  'sstable_tasks',
  'system_properties',
  'thread_pools',
].map((table_name) => row({ table_name }));

function client(over: { [column: string]: unknown }) {
  return row({
    address: inet('10.1.0.30'),
    port: 50412,
    client_options: { CQL_VERSION: '3.0.0', DRIVER_NAME: 'DataStax Java driver for Apache Cassandra(R)' },
    connection_stage: 'ready',
    driver_name: 'DataStax Java driver for Apache Cassandra(R)',
    driver_version: '4.17.0',
    hostname: '10.1.0.30',
    protocol_version: 5,
    request_count: long(18_240),
    ssl_cipher_suite: null,
    ssl_enabled: false,
    ssl_protocol: null,
    username: 'shop',
    ...over,
  });
}

export const clients = [
  client({}),
  client({ port: 50418, request_count: long(17_902) }),
  client({
    address: inet('10.9.0.4'),
    port: 39120,
    client_options: {
      APPLICATION_NAME: 'flightdeck-poller',
      CQL_VERSION: '3.0.0',
      DRIVER_NAME: 'DataStax Node.js Driver for Apache Cassandra',
    },
    driver_name: 'DataStax Node.js Driver for Apache Cassandra',
    driver_version: '4.10.0',
    hostname: '10.9.0.4',
    protocol_version: 5,
    request_count: long(12),
    username: 'monitor',
  }),
];

function pool(
  name: string,
  p: { active?: number; pending?: number; completed: number; blocked?: number; blockedAll?: number },
) {
  return row({
    name,
    active_tasks: p.active ?? 0,
    active_tasks_limit: 32,
    blocked_tasks: long(p.blocked ?? 0),
    blocked_tasks_all_time: long(p.blockedAll ?? 0),
    completed_tasks: long(p.completed),
    pending_tasks: p.pending ?? 0,
  });
}

export const pools1 = [
  pool('CompactionExecutor', { completed: 8_400 }),
  pool('MutationStage', { completed: 3_000_000 }),
  pool('Native-Transport-Requests', { completed: 5_000_000, blockedAll: 10 }),
  pool('ReadStage', { completed: 1_800_000 }),
];

export const pools2 = [
  pool('CompactionExecutor', { active: 1, pending: 3, completed: 8_406 }),
  pool('MutationStage', { active: 2, pending: 1, completed: 3_012_000 }),
  pool('Native-Transport-Requests', {
    active: 4,
    pending: 6,
    completed: 5_030_000,
    blocked: 2,
    blockedAll: 40,
  }),
  pool('ReadStage', { active: 3, completed: 1_818_000 }),
];

function cache(
  name: string,
  c: { capacity: number; size: number; entries: number; requests: number; hits: number },
) {
  return row({
    name,
    capacity_bytes: long(c.capacity),
    entry_count: c.entries,
    hit_count: long(c.hits),
    hit_ratio: c.requests === 0 ? Number.NaN : c.hits / c.requests,
    recent_hit_rate_per_second: long(0),
    recent_request_rate_per_second: long(0),
    request_count: long(c.requests),
    size_bytes: long(c.size),
  });
}

export const caches1 = [
  cache('chunks', {
    capacity: 503_316_480,
    size: 400_000_000,
    entries: 6_100,
    requests: 9_000_000,
    hits: 8_600_000,
  }),
  cache('counters', { capacity: 25_165_824, size: 0, entries: 0, requests: 0, hits: 0 }),
  cache('keys', {
    capacity: 104_857_600,
    size: 52_000_000,
    entries: 410_000,
    requests: 2_000_000,
    hits: 1_900_000,
  }),
  cache('rows', { capacity: 0, size: 0, entries: 0, requests: 0, hits: 0 }),
];

export const caches2 = [
  cache('chunks', {
    capacity: 503_316_480,
    size: 401_000_000,
    entries: 6_120,
    requests: 9_100_000,
    hits: 8_690_000,
  }),
  cache('counters', { capacity: 25_165_824, size: 0, entries: 0, requests: 0, hits: 0 }),
  cache('keys', {
    capacity: 104_857_600,
    size: 52_400_000,
    entries: 412_000,
    requests: 2_020_000,
    hits: 1_919_000,
  }),
  cache('rows', { capacity: 0, size: 0, entries: 0, requests: 0, hits: 0 }),
];

/** native_transport_max_concurrent_connections left at its default. */
export const maxConnections = [row({ value: '-1' })];

export const sstableTasks = [
  row({
    keyspace_name: 'shop',
    table_name: 'orders',
    task_id: types.Uuid.fromString('c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f'),
    completion_ratio: 0.4,
    kind: 'compaction',
    progress: long(41_943_040),
    total: long(104_857_600),
    unit: 'bytes',
  }),
];

export const queries = [
  row({
    thread_id: 'Native-Transport-Requests-7',
    duration_micros: long(95_250_000),
    task: 'QUERY SELECT * FROM shop.orders WHERE status = ? ALLOW FILTERING; [pageSize = 5000]',
  }),
  row({
    thread_id: 'ReadStage-3',
    duration_micros: long(1_200),
    task: 'SELECT * FROM shop.customers WHERE id = 42 LIMIT 5000',
  }),
  row({
    thread_id: 'Native-Transport-Requests-2',
    duration_micros: long(640),
    task: 'QUERY SELECT * FROM system_views.queries; [pageSize = 5000]',
  }),
];

const MiB = (keyspace_name: string, table_name: string, mebibytes: number) =>
  row({ keyspace_name, table_name, mebibytes: long(mebibytes) });

export const diskUsage = [
  MiB('shop', 'orders', 1_200),
  MiB('shop', 'customers', 300),
  MiB('shop', 'carts', 12),
  MiB('system', 'local', 1),
  MiB('system', 'peers_v2', 1),
  MiB('system_schema', 'tables', 1),
];

export const maxPartitionSize = [
  MiB('shop', 'orders', 96),
  MiB('shop', 'customers', 2),
  MiB('system', 'local', 1),
];
