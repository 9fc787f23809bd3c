import {
  MongodbPollerConfig,
  PollerExtras,
  ProcessListData,
  ReplicationMembersData,
} from '@flightdeck/schemas';
import { MongoClient } from 'mongodb';
import pino from 'pino';
import { GenericContainer, type StartedTestContainer, Wait } from 'testcontainers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMongodbInspector } from '../dbtools/mongodb';
import { noDockerEngine } from '../testing/docker';
import type { Poller, PollSuccess } from './contract';
import { createMongodbPoller } from './mongodb';
import { outsideCatalogue, sampleValue } from './testing/catalogue';
import { waitFor } from './testing/net';
import { ok } from './testing/poll';

/**
 * The MongoDB poller and inspections against MongoDB 7 (the official image) started as a
 * single-member replica set, through testcontainers. It runs where a Docker engine answers;
 * elsewhere the suite is reported as skipped with the reason.
 */

const IMAGE = 'mongo:7.0';
const SET = 'rs0';
const DB = 'fd_shop';
const logger = pino({ level: 'silent' });

const noDocker = await noDockerEngine('MongoDB container suite');

(noDocker ? describe.skip : describe)('MongoDB poller against MongoDB 7 (single-member replica set)', () => {
  let container: StartedTestContainer;
  let admin: MongoClient;
  let url: string;
  const pollers: Poller[] = [];

  const config = (over: Record<string, unknown> = {}) =>
    MongodbPollerConfig.parse({
      host: container.getHost(),
      port: container.getMappedPort(27017),
      replica_set: SET,
      connect_timeout_ms: 5000,
      query_timeout_ms: 10_000,
      long_query_s: 1,
      ...over,
    });
  const poller = (over: Record<string, unknown> = {}) => {
    const p = createMongodbPoller(config(over), { logger });
    pollers.push(p);
    return p;
  };

  beforeAll(async () => {
    container = await new GenericContainer(IMAGE)
      .withCommand(['mongod', '--replSet', SET, '--bind_ip_all'])
      .withExposedPorts(27017)
      .withWaitStrategy(Wait.forLogMessage(/Waiting for connections/))
      .withStartupTimeout(120_000)
      .start();
    url = `mongodb://${container.getHost()}:${container.getMappedPort(27017)}/?directConnection=true`;
    admin = new MongoClient(url);
    await admin.connect();
    // rs.initiate(): the member names itself as the container sees it.
    await admin
      .db('admin')
      .command({ replSetInitiate: { _id: SET, members: [{ _id: 0, host: 'localhost:27017' }] } });
    await waitFor(
      async () => (await admin.db('admin').command({ hello: 1 })).isWritablePrimary === true,
      60_000,
      'the member to become primary',
      500,
    );
    await admin
      .db(DB)
      .collection('orders')
      .insertMany(Array.from({ length: 40 }, (_, i) => ({ n: i, status: i % 2 ? 'open' : 'closed' })));
  }, 180_000);

  afterAll(async () => {
    await Promise.all(pollers.map((p) => p.close()));
    await admin?.close();
    await container?.stop();
  });

  it('tests the connection: version, role and replica set', async () => {
    const result = await poller().testConnection();
    expect(result).toMatchObject({
      ok: true,
      details: { engine: 'MongoDB', role: 'primary', replica_set: SET, user: null },
    });
    if (result.ok) expect(result.version).toMatch(/^7\./);
  });

  it('gives auth_failed for a user the server does not know', async () => {
    const result = await poller({ user: 'fd_nobody', password: 'wrong' }).testConnection();
    expect(result).toMatchObject({ ok: false, code: 'auth_failed' });
  });

  it('refuses to poll a member of another replica set than the one configured', async () => {
    const result = await poller({ replica_set: 'other' }).testConnection();
    expect(result.ok).toBe(false);
    // The driver keeps the set it found when it can: then the message names both.
    if (!result.ok) expect(['not_found', 'timeout']).toContain(result.code);
  });

  it('polls connections, operation rates, the cache, the replica set and database sizes', async () => {
    const p = poller();
    const first = ok(await p.poll(Date.now()));
    await admin
      .db(DB)
      .collection('orders')
      .insertMany(Array.from({ length: 500 }, (_, i) => ({ n: 100 + i })));
    await new Promise((r) => setTimeout(r, 1100));
    const second = ok(await p.poll(Date.now()));
    for (const result of [first, second]) {
      expect(outsideCatalogue(result.samples)).toEqual([]);
      expect(PollerExtras.safeParse(result.extras).success).toBe(true);
    }
    expect(sampleValue(second.samples, 'mongodb.connections_current')).toBeGreaterThanOrEqual(1);
    expect(sampleValue(second.samples, 'mongodb.inserts_rate')).toBeGreaterThan(0);
    expect(sampleValue(second.samples, 'mongodb.cache_max_bytes')).toBeGreaterThan(0);
    expect(sampleValue(second.samples, 'mongodb.is_primary')).toBe(1);
    expect(sampleValue(second.samples, 'mongodb.members')).toBe(1);
    expect(first.extras?.replication).toMatchObject({ role: 'primary', state: 'PRIMARY', replicas: [] });
    expect(first.extras?.databases?.map((d) => d.name)).toEqual(
      expect.arrayContaining(['admin', 'local', DB]),
    );
    expect(sampleValue(first.samples, 'mongodb.database_size_bytes', { database: DB })).toBeGreaterThan(0);
    // Sizes are read again only after size_interval_s.
    expect(second.extras?.databases).toBeUndefined();
  });

  it('lists a long-running query and a write waiting for a lock', async () => {
    const sleeper = new MongoClient(url, { appName: 'fd-sleeper' });
    const writer = new MongoClient(url, { appName: 'fd-writer' });
    await Promise.all([sleeper.connect(), writer.connect()]);
    // 40 documents, 150 ms each: a find of about 6 s.
    const slow = sleeper
      .db(DB)
      .collection('orders')
      .find({ $where: 'sleep(150) || true', status: { $exists: true } })
      .toArray()
      .catch((e: Error) => e);
    await admin.db('admin').command({ fsync: 1, lock: true });
    const blockedWrite = writer
      .db(DB)
      .collection('orders')
      .insertOne({ n: -1 })
      .catch((e: Error) => e);
    try {
      const p = poller();
      let last: PollSuccess | undefined;
      await waitFor(
        async () => {
          last = ok(await p.poll(Date.now()));
          return (
            (last.extras?.long_queries ?? []).some((q) => q.application === 'fd-sleeper') &&
            (last.extras?.blocked_sessions ?? []).some((b) => b.application === 'fd-writer')
          );
        },
        20_000,
        'the slow find and the blocked insert to show',
        250,
      );
      const long = last!.extras!.long_queries!.find((q) => q.application === 'fd-sleeper')!;
      expect(long).toMatchObject({ database: DB, state: 'query' });
      expect(long.query).toContain('$where');
      expect(sampleValue(last!.samples, 'mongodb.blocked_sessions')).toBeGreaterThanOrEqual(1);
      const list = await createMongodbInspector(config(), { logger }).inspect({ inspection: 'process_list' });
      expect(list.ok).toBe(true);
      if (list.ok) {
        const data = ProcessListData.parse(list.data);
        expect(data.blocked.some((b) => b.application === 'fd-writer')).toBe(true);
      }
    } finally {
      await admin.db('admin').command({ fsyncUnlock: 1 });
      await Promise.all([slow, blockedWrite]);
      await Promise.all([sleeper.close(), writer.close()]);
    }
  }, 60_000);

  it('lists the replica set members through the inspection', async () => {
    const result = await createMongodbInspector(config(), { logger }).inspect({
      inspection: 'replication_members',
    });
    expect(result.ok).toBe(true);
    if (result.ok) {
      const data = ReplicationMembersData.parse(result.data);
      expect(data.set_name).toBe(SET);
      expect(data.members).toEqual([
        expect.objectContaining({
          id: 0,
          name: 'localhost:27017',
          state: 'PRIMARY',
          healthy: true,
          self: true,
        }),
      ]);
    }
  });
});
