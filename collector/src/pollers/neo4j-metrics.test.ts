import { PollerExtras } from '@flightdeck/schemas';
import { int, Record, types } from 'neo4j-driver';
import { describe, expect, it } from 'vitest';
import * as f from './__fixtures__/neo4j/neo4j-5';
import { type Neo4jReading, neo4jExtras, neo4jReplication, neo4jSamples } from './neo4j-metrics';
import {
  durationSeconds,
  neoNum,
  readComponents,
  readConnections,
  readCount,
  readDatabase,
  readJmx,
  readTransaction,
} from './neo4j-queries';
import { outsideCatalogue, sampleValue } from './testing/catalogue';

const server = readComponents(f.components);
const databases = f.databases.map(readDatabase);
const first: Neo4jReading = {
  server,
  database: 'neo4j',
  address: 'server2:7687',
  databases,
  transactions: [],
  jmx: readJmx(f.jmx1),
};
const second: Neo4jReading = {
  server,
  database: 'neo4j',
  address: 'server2:7687',
  databases,
  transactions: f.transactions.map(readTransaction),
  connections: readConnections(f.connections),
  jmx: readJmx(f.jmx2),
  counts: { nodes: readCount(f.nodeCount), relationships: readCount(f.relationshipCount) },
};
const LONG_QUERY_S = 60;

describe('Neo4j records', () => {
  it('converts Integer objects to numbers, approximately past 2^53 rather than throwing', () => {
    expect(neoNum(int(42))).toBe(42);
    expect(neoNum(f.hugeInteger)).toBeCloseTo(9_007_199_254_740_992, -2);
    expect(neoNum('12')).toBe(12);
    expect(neoNum(null)).toBeUndefined();
  });

  it('reads durations as seconds', () => {
    expect(durationSeconds(new types.Duration(int(0), int(1), int(30), int(500_000_000)))).toBe(86_430.5);
    expect(durationSeconds(int(2500))).toBe(2.5);
    expect(durationSeconds(null)).toBeNull();
  });

  it('reads the kernel version and edition', () => {
    expect(server).toEqual({ version: '5.26.0', edition: 'enterprise' });
  });

  it('reads SHOW DATABASES rows, the replication lag as a positive count', () => {
    expect(databases[1]).toEqual({
      name: 'neo4j',
      type: 'standard',
      address: 'server2:7687',
      role: 'primary',
      writer: false,
      requestedStatus: 'online',
      currentStatus: 'online',
      statusMessage: null,
      isDefault: true,
      replicationLag: 3,
    });
  });

  it('reads SHOW TRANSACTIONS rows: who blocks whom, and which are the poller own', () => {
    const [holder, waiter, , own] = second.transactions;
    expect(waiter).toMatchObject({
      transactionId: 'neo4j-transaction-39',
      username: 'batch',
      blockedBy: ['neo4j-transaction-38'],
      wait_s: 71.9,
      own: false,
    });
    expect(waiter?.elapsed_s).toBeCloseTo(72.5);
    expect(holder).toMatchObject({ query: null, activeLocks: 2, blockedBy: [] });
    expect(own?.own).toBe(true);
  });

  it('reads the JMX beans, whatever the metrics prefix', () => {
    const jmx = second.jmx;
    expect(jmx).toMatchObject({
      heapUsed: 734_003_200,
      heapMax: 2_147_483_648,
      uptimeMs: 86_400_000,
      pageCacheHits: 9_090_000,
      pageCacheFaults: 51_000,
      boltRunning: 3,
      boltIdle: 2,
    });
    expect(jmx?.committed.get('neo4j')).toBe(121_200);
    expect(jmx?.storeSize.get('system')).toBe(52_428_800);
    const custom = readJmx([
      new Record(
        ['name', 'attributes'],
        [
          'neo4j.metrics:name=acme.graph.database.my.db.transaction.committed',
          { Count: { description: '', value: int(7) } },
        ],
      ),
    ]);
    expect(custom.committed.get('my.db')).toBe(7);
  });
});

describe('Neo4j samples and lists', () => {
  const samples = neo4jSamples(second, first, 60, LONG_QUERY_S);

  it('are all in the catalogue', () => {
    expect(outsideCatalogue(samples)).toEqual([]);
  });

  it('count open, long-running and blocked transactions without the poller own', () => {
    expect(sampleValue(samples, 'neo4j.transactions_open')).toBe(4);
    expect(sampleValue(samples, 'neo4j.long_queries')).toBe(2);
    expect(sampleValue(samples, 'neo4j.blocked_transactions')).toBe(1);
    expect(sampleValue(samples, 'neo4j.connections')).toBe(6);
  });

  it('count the databases online on this server', () => {
    expect(sampleValue(samples, 'neo4j.databases')).toBe(3);
    expect(sampleValue(samples, 'neo4j.databases_online')).toBe(2);
    expect(sampleValue(samples, 'neo4j.database_online', { database: 'sales' })).toBe(0);
    expect(sampleValue(samples, 'neo4j.database_online', { database: 'neo4j' })).toBe(1);
  });

  it('give the cluster role and lag of the target database', () => {
    expect(sampleValue(samples, 'neo4j.cluster_members')).toBe(3);
    expect(sampleValue(samples, 'neo4j.writer')).toBe(0);
    expect(sampleValue(samples, 'neo4j.replication_lag_transactions')).toBe(3);
  });

  it('turn the metrics counters into rates and a page cache hit ratio', () => {
    expect(sampleValue(samples, 'neo4j.transactions_committed_rate', { database: 'neo4j' })).toBe(20);
    expect(sampleValue(samples, 'neo4j.transactions_rolled_back_rate', { database: 'neo4j' })).toBe(0.5);
    expect(sampleValue(samples, 'neo4j.page_cache_hit_ratio')).toBe(0.989);
    expect(sampleValue(samples, 'neo4j.store_size_bytes', { database: 'neo4j' })).toBe(4_831_838_208);
    expect(sampleValue(samples, 'neo4j.uptime')).toBe(86_400);
    expect(sampleValue(samples, 'neo4j.nodes', { database: 'neo4j' })).toBe(120_000);
    expect(sampleValue(samples, 'neo4j.relationships', { database: 'neo4j' })).toBe(480_000);
  });

  it('has no rates on the first poll, nor without the metrics beans (Community Edition)', () => {
    const alone = neo4jSamples(first, undefined, 0, LONG_QUERY_S);
    expect(alone.some((s) => s.m.endsWith('_rate') || s.m === 'neo4j.page_cache_hit_ratio')).toBe(false);
    const community = neo4jSamples(
      { ...second, jmx: undefined },
      { ...first, jmx: undefined },
      60,
      LONG_QUERY_S,
    );
    expect(community.some((s) => s.m.endsWith('_rate'))).toBe(false);
    expect(sampleValue(community, 'neo4j.transactions_open')).toBe(4);
  });

  it('list sessions, long queries and blocked transactions with their blocker', () => {
    const extras = PollerExtras.parse(neo4jExtras(second, LONG_QUERY_S));
    expect(extras.server).toEqual({ version: '5.26.0', uptime_s: 86_400, max_connections: null });
    expect(extras.sessions?.map((s) => s.id)).toEqual([40, 38, 39, 7]);
    expect(extras.long_queries?.map((s) => s.id)).toEqual([40, 39]);
    expect(extras.blocked_sessions).toHaveLength(1);
    expect(extras.blocked_sessions?.[0]).toMatchObject({
      id: 39,
      user: 'batch',
      state: 'Blocked by: [neo4j-transaction-38]',
      wait: 'lock',
      wait_s: 71.9,
      blocked_by: [{ id: 38, user: 'app', client: '10.1.0.20:51544', query: null }],
    });
    expect(extras.databases?.[0]).toEqual({ name: 'neo4j', size_bytes: 4_831_838_208 });
  });

  it('name a blocker that ended between the two lists by its id alone', () => {
    const reading = {
      ...second,
      transactions: second.transactions.filter((t) => t.transactionId !== 'neo4j-transaction-38'),
    };
    const blocked = neo4jExtras(reading, LONG_QUERY_S).blocked_sessions?.[0];
    expect(blocked?.blocked_by).toEqual([
      expect.objectContaining({ id: 38, database: 'neo4j', user: null, query: null }),
    ]);
  });

  it('show the replication role of this server: a follower of the writer, the writer, or alone', () => {
    expect(neo4jReplication(second)).toMatchObject({
      role: 'replica',
      source: 'server1:7687',
      state: 'online',
    });
    const writer = neo4jReplication({ ...second, address: 'server1:7687' });
    expect(writer?.role).toBe('primary');
    expect(writer?.replicas.map((r) => [r.address, r.sync_state])).toEqual([
      ['server2:7687', 'primary'],
      ['server3:7687', 'secondary'],
    ]);
    const single = neo4jReplication({
      ...second,
      databases: databases.filter((d) => d.address === 'server1:7687'),
    });
    expect(single?.role).toBe('standalone');
    expect(neo4jReplication({ ...second, address: '10.0.0.12:7687' })).toBeUndefined();
  });
});
