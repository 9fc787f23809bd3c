import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PollerExtras, ReplicationMembersData } from '@flightdeck/schemas';
import { BSON } from 'mongodb';
import { describe, expect, it } from 'vitest';
import {
  type Doc,
  holdsLockFor,
  type MongoReading,
  memberLags,
  mongoExtras,
  mongoReplication,
  mongoSamples,
  mongoSessionLists,
  readDbStats,
  readOperation,
  readReplSetStatus,
  readServerStatus,
  replicationMembers,
} from './mongodb-metrics';
import { outsideCatalogue, sampleValue } from './testing/catalogue';

/** A fixture as the driver hands it over: Extended JSON parsed into numbers, Dates and Timestamps. */
function fixture(name: string): Doc {
  const text = readFileSync(join(import.meta.dirname, '__fixtures__', 'mongodb', name), 'utf8');
  return BSON.EJSON.parse(text, { relaxed: true }) as Doc;
}

const status1 = readServerStatus(fixture('server-status-1.json').document as Doc);
const status2 = readServerStatus(fixture('server-status-2.json').document as Doc);
const replDoc = fixture('repl-set-get-status.json').document as Doc;
const replSet = readReplSetStatus(replDoc);
const operations = (fixture('current-op.json').documents as Doc[]).map(readOperation);
const sizes = (fixture('db-stats.json').documents as Doc[]).map(readDbStats);
const first: MongoReading = { status: status1, replSet, operations: [] };
const second: MongoReading = { status: status2, replSet, operations, sizes };
const LONG_QUERY_S = 5;

/** The replica set as the lagging secondary mongo-c sees it. */
function fromMember(name: string, state: number): Doc {
  return {
    ...replDoc,
    myState: state,
    members: (replDoc.members as Doc[]).map((m) => {
      const { self: _self, ...rest } = m;
      return m.name === name ? { ...rest, self: true } : rest;
    }),
  };
}

describe('MongoDB serverStatus', () => {
  it('reads the version, the replica set and the figures by path, as the driver gives them', () => {
    expect(status2).toMatchObject({ version: '7.0.14', process: 'mongod', uptime_s: 86410, set_name: 'rs0' });
    expect(status2.values.get('connections.current')).toBe(61);
    expect(status2.values.get('network.bytesIn')).toBe(12355918901);
    expect(status2.values.get('wiredTiger.cache.pages requested from the cache')).toBe(98334100);
    expect(readServerStatus({ version: '7.0.14', uptime: 5 }).set_name).toBeNull();
  });

  it('gives gauges only on the first poll', () => {
    const samples = mongoSamples(first, undefined, 0, LONG_QUERY_S);
    expect(sampleValue(samples, 'mongodb.connections_current')).toBe(57);
    expect(sampleValue(samples, 'mongodb.connections_available')).toBe(838803);
    expect(sampleValue(samples, 'mongodb.cache_used_bytes')).toBe(1503238553);
    expect(sampleValue(samples, 'mongodb.mem_resident_bytes')).toBe(1874 * 1024 * 1024);
    expect(sampleValue(samples, 'mongodb.uptime')).toBe(86400);
    expect(samples.filter((s) => s.m.endsWith('_rate'))).toEqual([]);
    expect(sampleValue(samples, 'mongodb.cache_hit_ratio')).toBeUndefined();
  });

  it('turns the counters of two readings 10 s apart into rates, mean latencies and the cache hit ratio', () => {
    const samples = mongoSamples(second, first, 10, LONG_QUERY_S);
    expect(outsideCatalogue(samples)).toEqual([]);
    const expected: Record<string, number> = {
      'mongodb.inserts_rate': 500,
      'mongodb.queries_rate': 1200,
      'mongodb.updates_rate': 80,
      'mongodb.deletes_rate': 5,
      'mongodb.getmores_rate': 30,
      'mongodb.commands_rate': 900,
      'mongodb.requests_rate': 2100,
      'mongodb.connections_created_rate': 1.2,
      'mongodb.documents_returned_rate': 12000,
      'mongodb.documents_inserted_rate': 500,
      'mongodb.read_latency_ms': 0.25,
      'mongodb.write_latency_ms': 0.2,
      'mongodb.command_latency_ms': 0.5,
      'mongodb.cache_hit_ratio': 0.99,
      'mongodb.cache_read_bytes_rate': 4_096_000,
      'mongodb.cache_written_bytes_rate': 2_048_000,
      'mongodb.write_conflicts_rate': 0.5,
      'mongodb.asserts_user_rate': 1,
      'mongodb.asserts_regular_rate': 0,
      'mongodb.network_in_bytes_rate': 1_024_000,
      'mongodb.network_out_bytes_rate': 5_120_000,
      'mongodb.repl_ops_rate': 0,
      'mongodb.queued_readers': 1,
      'mongodb.queued_writers': 2,
      'mongodb.active_readers': 3,
      'mongodb.cursors_open': 6,
      'mongodb.connections_used_pct': 0.01,
    };
    for (const [m, v] of Object.entries(expected)) expect(sampleValue(samples, m), m).toBe(v);
  });

  it('gives no rate for an interval in which the server restarted', () => {
    const samples = mongoSamples(first, second, 10, LONG_QUERY_S);
    expect(sampleValue(samples, 'mongodb.inserts_rate')).toBeUndefined();
    expect(sampleValue(samples, 'mongodb.read_latency_ms')).toBeUndefined();
    expect(sampleValue(samples, 'mongodb.connections_current')).toBe(57);
  });
});

describe('MongoDB replica set', () => {
  it('reads every member with its state, health, optime and sync source', () => {
    expect(replSet.set_name).toBe('rs0');
    expect(replSet.my_state).toBe(1);
    expect(replSet.members.map((m) => [m.name, m.state_str, m.self])).toEqual([
      ['mongo-a:27017', 'PRIMARY', true],
      ['mongo-b:27017', 'SECONDARY', false],
      ['mongo-c:27017', 'SECONDARY', false],
    ]);
    expect(replSet.members[2]).toMatchObject({
      healthy: true,
      ping_ms: 38,
      sync_source: 'mongo-b:27017',
      optime_ms: Date.parse('2024-11-05T09:59:28.000Z'),
      message: null,
    });
  });

  it("counts each secondary's lag from the optimes, none for the primary", () => {
    expect(Object.fromEntries(memberLags(replSet))).toEqual({
      'mongo-a:27017': null,
      'mongo-b:27017': 1,
      'mongo-c:27017': 42,
    });
  });

  it('gives the primary its role, members and per-member lag', () => {
    const samples = mongoSamples(second, first, 10, LONG_QUERY_S);
    expect(sampleValue(samples, 'mongodb.is_primary')).toBe(1);
    expect(sampleValue(samples, 'mongodb.members')).toBe(3);
    expect(sampleValue(samples, 'mongodb.members_healthy')).toBe(3);
    expect(sampleValue(samples, 'mongodb.member_lag', { member: 'mongo-c:27017' })).toBe(42);
    expect(sampleValue(samples, 'mongodb.member_lag', { member: 'mongo-b:27017' })).toBe(1);
    expect(sampleValue(samples, 'mongodb.member_lag', { member: 'mongo-a:27017' })).toBeUndefined();
    expect(sampleValue(samples, 'mongodb.replication_lag')).toBeUndefined();
    const replication = mongoReplication(replSet);
    expect(replication).toMatchObject({ role: 'primary', state: 'PRIMARY', lag_s: null });
    expect(replication.replicas).toEqual([
      {
        name: 'mongo-b:27017',
        address: 'mongo-b:27017',
        state: 'SECONDARY',
        sync_state: 'healthy',
        lag_s: 1,
        lag_bytes: null,
      },
      {
        name: 'mongo-c:27017',
        address: 'mongo-c:27017',
        state: 'SECONDARY',
        sync_state: 'healthy',
        lag_s: 42,
        lag_bytes: null,
      },
    ]);
  });

  it('gives a lagging secondary its own lag and sync source', () => {
    const set = readReplSetStatus(fromMember('mongo-c:27017', 2));
    const samples = mongoSamples({ status: status2, replSet: set }, undefined, 0, LONG_QUERY_S);
    expect(sampleValue(samples, 'mongodb.is_primary')).toBe(0);
    expect(sampleValue(samples, 'mongodb.replication_lag')).toBe(42);
    expect(mongoReplication(set)).toEqual({
      role: 'replica',
      state: 'SECONDARY',
      lag_s: 42,
      source: 'mongo-b:27017',
      last_error: null,
      replicas: [],
    });
  });

  it('measures lag against the most recent member when the primary is unreachable', () => {
    const members = (replDoc.members as Doc[]).map((m) =>
      m.name === 'mongo-a:27017'
        ? {
            ...m,
            health: 0,
            state: 8,
            stateStr: '(not reachable/healthy)',
            optimeDate: new Date(0),
            lastHeartbeatMessage: 'Error connecting to mongo-a:27017 :: caused by :: Connection refused',
            self: false,
          }
        : m.name === 'mongo-b:27017'
          ? { ...m, self: true }
          : m,
    );
    const set = readReplSetStatus({ ...replDoc, myState: 2, members });
    const data = ReplicationMembersData.parse({
      ts: 1,
      set_name: set.set_name,
      members: replicationMembers(set),
    });
    expect(data.members.map((m) => [m.name, m.healthy, m.lag_s, m.optime_ms === null])).toEqual([
      ['mongo-a:27017', false, null, true],
      ['mongo-b:27017', true, 0, false],
      ['mongo-c:27017', true, 41, false],
    ]);
    expect(data.members[0]?.message).toMatch(/Connection refused/);
    const samples = mongoSamples({ status: status2, replSet: set }, undefined, 0, LONG_QUERY_S);
    expect(sampleValue(samples, 'mongodb.members_healthy')).toBe(2);
  });

  it('calls a server outside a replica set standalone, and an unread one unknown', () => {
    expect(mongoReplication(null)).toMatchObject({ role: 'standalone', replicas: [] });
    expect(mongoExtras({ status: status2, replSet: null }, LONG_QUERY_S).replication?.role).toBe(
      'standalone',
    );
    expect(mongoExtras({ status: status2 }, LONG_QUERY_S).replication).toBeUndefined();
    const samples = mongoSamples({ status: status2, replSet: null }, undefined, 0, LONG_QUERY_S);
    expect(sampleValue(samples, 'mongodb.members')).toBeUndefined();
  });
});

describe('MongoDB operations', () => {
  it('reads an operation of $currentOp: who, where, how long, and the command without its session', () => {
    const find = operations.find((o) => o.opid === 884312)!;
    expect(find).toMatchObject({
      client: '10.0.4.21:51544',
      app: 'orders-api',
      user: 'orders',
      database: 'shop',
      ns: 'shop.orders',
      op: 'query',
      active: true,
      duration_s: 95.232,
      waiting_for_lock: false,
    });
    const lists = mongoSessionLists(operations, LONG_QUERY_S);
    expect(lists.sessions[0]).toEqual({
      id: 884312,
      user: 'orders',
      database: 'shop',
      client: '10.0.4.21:51544',
      application: 'orders-api',
      state: 'query',
      wait: null,
      duration_s: 95.232,
      query:
        '{"find":"orders","filter":{"status":"open","total":{"$gt":100}},"sort":{"created":-1},"$db":"shop"}',
    });
  });

  it("lists client operations, leaving out the server's own threads and the poller's", () => {
    const ids = mongoSessionLists(operations, LONG_QUERY_S).sessions.map((s) => s.id);
    expect(ids).toEqual([884312, 884401, 884420, 884101, 884455, 884431, 884440]);
  });

  it('counts as long the operations past the threshold, not a streaming hello nor the oplog tail', () => {
    const long = mongoSessionLists(operations, LONG_QUERY_S).long.map((s) => [s.id, s.duration_s]);
    expect(long).toEqual([
      [884312, 95.232],
      [884401, 14.082],
      [884420, 9.411],
    ]);
    expect(mongoSessionLists(operations, 100).long).toEqual([]);
  });

  it('lists the operations waiting for a lock with the one holding a conflicting lock', () => {
    const blocked = mongoSessionLists(operations, LONG_QUERY_S).blocked;
    expect(blocked.map((b) => [b.id, b.state, b.wait, b.blocked_by.map((h) => h.id)])).toEqual([
      [884420, 'update', 'lock', [884401]],
      [884431, 'insert', 'lock', [884401]],
    ]);
    expect(blocked[1]?.blocked_by[0]).toMatchObject({ user: 'dba', application: 'mongosh 2.3.2' });
  });

  it('matches lock holders by mode and by the database or collection locked', () => {
    const holder = operations.find((o) => o.opid === 884401)!;
    const waiter = operations.find((o) => o.opid === 884420)!;
    expect(holdsLockFor(holder, waiter)).toBe(true);
    expect(holdsLockFor({ ...holder, ns: 'shop.orders' }, waiter)).toBe(false);
    expect(holdsLockFor({ ...holder, locks: { Global: 'w', Database: 'W' }, database: 'crm' }, waiter)).toBe(
      false,
    );
    expect(holdsLockFor({ ...holder, locks: { Global: 'W' } }, waiter)).toBe(true);
    const reader = operations.find((o) => o.opid === 884312)!;
    expect(holdsLockFor(reader, waiter)).toBe(false);
  });

  it('counts long and blocked operations in the samples', () => {
    const samples = mongoSamples(second, first, 10, LONG_QUERY_S);
    expect(sampleValue(samples, 'mongodb.long_queries')).toBe(3);
    expect(sampleValue(samples, 'mongodb.blocked_sessions')).toBe(2);
  });
});

describe('MongoDB sizes and lists', () => {
  it('reads each database size from dbStats, and the sum of storage and indexes where totalSize is absent', () => {
    expect(sizes).toEqual([
      { name: 'admin', size_bytes: 204800 },
      { name: 'config', size_bytes: 221184 },
      { name: 'local', size_bytes: 409812992 },
      { name: 'shop', size_bytes: 826720256 },
    ]);
    expect(readDbStats({ db: 'old', storageSize: 100, indexSize: 20 })).toEqual({
      name: 'old',
      size_bytes: 120,
    });
  });

  it('gives the lists the api expects, the largest database first', () => {
    const extras = mongoExtras(second, LONG_QUERY_S);
    expect(PollerExtras.safeParse(extras).success).toBe(true);
    expect(extras.server).toEqual({ version: '7.0.14', uptime_s: 86410, max_connections: 838860 });
    expect(extras.databases?.map((d) => d.name)).toEqual(['shop', 'local', 'config', 'admin']);
    expect(extras.long_queries).toHaveLength(3);
    expect(extras.blocked_sessions).toHaveLength(2);
    const samples = mongoSamples(second, first, 10, LONG_QUERY_S);
    expect(sampleValue(samples, 'mongodb.database_size_bytes', { database: 'shop' })).toBe(826720256);
  });
});
