import { PollerExtras } from '@flightdeck/schemas';
import { types } from 'cassandra-driver';
import { describe, expect, it } from 'vitest';
import * as f from './__fixtures__/cassandra/cassandra-4.1';
import {
  type CassandraReading,
  cassandraExtras,
  cassandraReplication,
  cassandraSamples,
  cassandraUptime,
} from './cassandra-metrics';
import {
  cqlNum,
  readCache,
  readClient,
  readLocal,
  readMaxConnections,
  readPeer,
  readPool,
  readQuery,
  readTableBytes,
  readTask,
} from './cassandra-queries';
import { outsideCatalogue, sampleValue } from './testing/catalogue';

const AT = 1_741_600_000_000;
const local = readLocal(f.local[0] as types.Row);
const peers = f.peersV2.map(readPeer);
const hosts = [
  { address: '10.0.0.11', datacenter: 'dc1', up: true },
  { address: '10.0.0.12', datacenter: 'dc1', up: false },
  { address: '10.0.1.21', datacenter: 'dc2', up: null },
];
const first: CassandraReading = {
  at: AT - 60_000,
  local,
  peers,
  hosts,
  latencyMs: 1.8,
  pools: f.pools1.map(readPool),
  caches: f.caches1.map(readCache),
};
const second: CassandraReading = {
  at: AT,
  local,
  peers,
  hosts,
  latencyMs: 2.26,
  clients: f.clients.map(readClient),
  pools: f.pools2.map(readPool),
  caches: f.caches2.map(readCache),
  maxConnections: readMaxConnections(f.maxConnections),
  tasks: f.sstableTasks.map(readTask),
  queries: f.queries.map(readQuery),
  sizes: {
    tables: f.diskUsage.map(readTableBytes),
    maxPartitionBytes: Math.max(...f.maxPartitionSize.map(readTableBytes).map((t) => t.bytes)),
  },
};
const LONG_QUERY_S = 60;
const MiB = 1024 * 1024;

describe('Cassandra rows', () => {
  it('converts Long, InetAddress and Uuid values', () => {
    expect(cqlNum(types.Long.fromString('123456789012'))).toBe(123_456_789_012);
    expect(local).toEqual({
      cluster_name: 'Shop Cluster',
      release_version: '4.1.5',
      data_center: 'dc1',
      rack: 'rack1',
      host_id: '5f2c9a1e-3b7d-4e8f-9a0b-1c2d3e4f5a6b',
      gossip_generation: 1_741_500_000,
      address: '10.0.0.11',
    });
    expect(peers[1]).toMatchObject({ address: '10.0.1.21', data_center: 'dc2' });
  });

  it('reads the peers of Cassandra before 4.0, which have rpc_address', () => {
    const RowClass = (types as unknown as { Row: new (c: { name: string }[]) => types.Row }).Row;
    const old = Object.assign(new RowClass([{ name: 'peer' }, { name: 'rpc_address' }]), {
      peer: types.InetAddress.fromString('10.0.0.7'),
      rpc_address: types.InetAddress.fromString('192.168.0.7'),
      data_center: 'dc1',
    });
    expect(readPeer(old).address).toBe('192.168.0.7');
  });

  it('reads clients with their application name, when the node gives the STARTUP options', () => {
    expect(second.clients?.map((c) => [c.username, c.application, c.requests])).toEqual([
      ['shop', null, 18_240],
      ['shop', null, 17_902],
      ['monitor', 'flightdeck-poller', 12],
    ]);
  });

  it('reads the running requests in seconds, and a connection limit only when one is set', () => {
    expect(second.queries?.[0]).toEqual({
      thread: 'Native-Transport-Requests-7',
      running_s: 95.25,
      task: 'QUERY SELECT * FROM shop.orders WHERE status = ? ALLOW FILTERING; [pageSize = 5000]',
    });
    expect(second.maxConnections).toBeNull();
    const RowClass = (types as unknown as { Row: new (c: { name: string }[]) => types.Row }).Row;
    const set = Object.assign(new RowClass([{ name: 'value' }]), { value: '2048' });
    expect(readMaxConnections([set])).toBe(2048);
  });
});

describe('Cassandra samples and lists', () => {
  const samples = cassandraSamples(second, first, 60, LONG_QUERY_S);

  it('are all in the catalogue', () => {
    expect(outsideCatalogue(samples)).toEqual([]);
  });

  it('count connections, per user too', () => {
    expect(sampleValue(samples, 'cassandra.connections')).toBe(3);
    expect(sampleValue(samples, 'cassandra.user_connections', { user: 'shop' })).toBe(2);
    expect(sampleValue(samples, 'cassandra.max_connections')).toBeUndefined();
  });

  it('turn thread pool counters into request, read, write and blocked rates', () => {
    expect(sampleValue(samples, 'cassandra.requests_rate')).toBe(500);
    expect(sampleValue(samples, 'cassandra.reads_rate')).toBe(300);
    expect(sampleValue(samples, 'cassandra.writes_rate')).toBe(200);
    expect(sampleValue(samples, 'cassandra.blocked_tasks_rate')).toBe(0.5);
    expect(sampleValue(samples, 'cassandra.pending_tasks')).toBe(10);
    expect(sampleValue(samples, 'cassandra.blocked_tasks')).toBe(2);
    expect(sampleValue(samples, 'cassandra.pool_pending_tasks', { pool: 'Native-Transport-Requests' })).toBe(
      6,
    );
  });

  it('give the cache hit ratios over the interval, none for a cache nobody used', () => {
    expect(sampleValue(samples, 'cassandra.cache_hit_ratio', { cache: 'keys' })).toBe(0.95);
    expect(sampleValue(samples, 'cassandra.cache_hit_ratio', { cache: 'chunks' })).toBe(0.9);
    expect(sampleValue(samples, 'cassandra.cache_hit_ratio', { cache: 'rows' })).toBeUndefined();
    expect(sampleValue(samples, 'cassandra.cache_size_bytes', { cache: 'keys' })).toBe(52_400_000);
  });

  it('count nodes, up and down as the driver found those of the local data center', () => {
    expect(sampleValue(samples, 'cassandra.nodes')).toBe(3);
    expect(sampleValue(samples, 'cassandra.nodes_up')).toBe(1);
    expect(sampleValue(samples, 'cassandra.nodes_down')).toBe(1);
  });

  it('give compactions, running and long queries without the poller own, sizes and uptime', () => {
    expect(sampleValue(samples, 'cassandra.compactions_running')).toBe(1);
    expect(sampleValue(samples, 'cassandra.compaction_remaining_bytes')).toBe(62_914_560);
    expect(sampleValue(samples, 'cassandra.queries_running')).toBe(2);
    expect(sampleValue(samples, 'cassandra.long_queries')).toBe(1);
    expect(sampleValue(samples, 'cassandra.keyspace_size_bytes', { keyspace: 'shop' })).toBe(1_512 * MiB);
    expect(sampleValue(samples, 'cassandra.max_partition_bytes')).toBe(96 * MiB);
    expect(sampleValue(samples, 'cassandra.uptime')).toBe(100_000);
    expect(sampleValue(samples, 'cassandra.request_latency_ms')).toBe(2.3);
  });

  it('has no rates on the first poll, nor after a restart that reset the counters', () => {
    const alone = cassandraSamples(first, undefined, 0, LONG_QUERY_S);
    expect(alone.some((s) => s.m.endsWith('_rate') || s.m === 'cassandra.cache_hit_ratio')).toBe(false);
    const restarted = cassandraSamples(first, second, 60, LONG_QUERY_S);
    expect(sampleValue(restarted, 'cassandra.requests_rate')).toBeUndefined();
  });

  it('has no uptime when the gossip generation is missing or ahead of the clock', () => {
    expect(cassandraUptime({ ...second, local: { ...local, gossip_generation: null } })).toBeNull();
    expect(cassandraUptime({ ...second, at: 1_741_400_000_000 })).toBeNull();
  });

  it('list sessions and long queries, none blocked, and the largest tables out of the system keyspaces', () => {
    const extras = PollerExtras.parse(cassandraExtras(second, LONG_QUERY_S, 2, undefined));
    expect(extras.server).toEqual({ version: '4.1.5', uptime_s: 100_000, max_connections: null });
    expect(extras.long_queries).toEqual([
      {
        id: 7,
        user: null,
        database: null,
        client: null,
        application: null,
        state: 'Native-Transport-Requests',
        wait: null,
        duration_s: 95.25,
        query: 'QUERY SELECT * FROM shop.orders WHERE status = ? ALLOW FILTERING; [pageSize = 5000]',
      },
    ]);
    expect(extras.sessions?.map((s) => [s.id, s.user, s.client])).toEqual([
      [7, null, null],
      [3, null, null],
      [50412, 'shop', '10.1.0.30:50412'],
      [50418, 'shop', '10.1.0.30:50418'],
    ]);
    expect(extras.blocked_sessions).toEqual([]);
    expect(extras.tables?.map((t) => [t.database, t.name, t.size_bytes])).toEqual([
      ['shop', 'orders', 1_200 * MiB],
      ['shop', 'customers', 300 * MiB],
    ]);
    expect(extras.databases?.[0]).toEqual({ name: 'shop', size_bytes: 1_512 * MiB });
    const onlySystem = cassandraExtras(second, LONG_QUERY_S, 10, 'system');
    expect(onlySystem.tables?.map((t) => t.name)).toEqual(['local', 'peers_v2']);
  });

  it('show the peers as replicas with the state the driver found', () => {
    expect(cassandraReplication(second)).toMatchObject({
      role: 'primary',
      replicas: [
        {
          name: '7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d',
          address: '10.0.0.12',
          state: 'down',
          sync_state: 'dc1/rack2',
        },
        {
          name: '0d9c8b7a-6f5e-4d4c-8b3a-2f1e0d9c8b7a',
          address: '10.0.1.21',
          state: null,
          sync_state: 'dc2/rack1',
        },
      ],
    });
    expect(cassandraReplication({ ...second, peers: [] }).role).toBe('standalone');
  });
});
