import { Neo4jPollerConfig, PollerExtras } from '@flightdeck/schemas';
import { auth, type Driver, driver as neo4jDriver } from 'neo4j-driver';
import pino from 'pino';
import { GenericContainer, type StartedTestContainer, Wait } from 'testcontainers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noDockerEngine } from '../testing/docker';
import type { Poller, PollSuccess } from './contract';
import { createNeo4jPoller } from './neo4j';
import { outsideCatalogue, sampleValue } from './testing/catalogue';
import { waitFor } from './testing/net';
import { ok } from './testing/poll';

/**
 * The Neo4j poller against Neo4j 5 Community Edition (the official `neo4j:5` image), through
 * testcontainers. It runs where a Docker engine answers; elsewhere the suite is reported as
 * skipped with the reason.
 */

const IMAGE = 'neo4j:5';
const PASSWORD = 'flightdeck-secret';
const logger = pino({ level: 'silent' });

const noDocker = await noDockerEngine('Neo4j container suite');

(noDocker ? describe.skip : describe)('Neo4j poller against Neo4j 5', () => {
  let container: StartedTestContainer;
  let client: Driver;
  const pollers: Poller[] = [];

  const poller = (over: Record<string, unknown> = {}) => {
    const p = createNeo4jPoller(
      Neo4jPollerConfig.parse({
        host: container.getHost(),
        port: container.getMappedPort(7687),
        user: 'neo4j',
        password: PASSWORD,
        connect_timeout_ms: 5_000,
        query_timeout_ms: 10_000,
        long_query_s: 1,
        ...over,
      }),
      { logger },
    );
    pollers.push(p);
    return p;
  };

  beforeAll(async () => {
    container = await new GenericContainer(IMAGE)
      .withEnvironment({ NEO4J_AUTH: `neo4j/${PASSWORD}`, NEO4J_server_memory_heap_max__size: '512m' })
      .withExposedPorts(7687)
      .withWaitStrategy(Wait.forLogMessage(/Started\./))
      .withStartupTimeout(180_000)
      .start();
    client = neo4jDriver(
      `bolt://${container.getHost()}:${container.getMappedPort(7687)}`,
      auth.basic('neo4j', PASSWORD),
    );
    await client.executeQuery(
      'UNWIND range(1, 50) AS i CREATE (:Account {id: i, balance: 100})-[:OWNS]->(:Card)',
    );
  }, 240_000);

  afterAll(async () => {
    await Promise.all(pollers.map((p) => p.close()));
    await client?.close();
    await container?.stop();
  });

  it('passes the connection test with the version and edition', async () => {
    const result = await poller().testConnection();
    expect(result).toMatchObject({
      ok: true,
      details: { engine: 'Neo4j', edition: 'community', database: 'neo4j', role: 'standalone' },
    });
    if (result.ok) expect(result.version).toMatch(/^5\./);
  });

  it('refuses a wrong password and an unknown database', async () => {
    expect(await poller({ password: 'wrong-secret' }).testConnection()).toMatchObject({
      ok: false,
      code: 'auth_failed',
    });
    expect(await poller({ database: 'nosuchdb' }).testConnection()).toMatchObject({
      ok: false,
      code: 'not_found',
    });
  });

  it('polls databases, counts and a transaction blocked by another, with catalogue samples', async () => {
    const p = poller();
    const holder = client.session();
    const waiter = client.session();
    const held = holder.beginTransaction();
    const waiting = waiter.beginTransaction();
    try {
      await held.run('MATCH (a:Account {id: 1}) SET a.balance = a.balance - 10');
      const blocked = waiting.run('MATCH (a:Account {id: 1}) SET a.balance = a.balance + 5');
      blocked.summary().catch(() => {});
      let result: PollSuccess | undefined;
      await waitFor(
        async () => {
          result = ok(await p.poll(Date.now()));
          return sampleValue(result.samples, 'neo4j.blocked_transactions') === 1;
        },
        15_000,
        'the waiting transaction to show as blocked',
        500,
      );
      const samples = result?.samples ?? [];
      expect(outsideCatalogue(samples)).toEqual([]);
      expect(sampleValue(samples, 'neo4j.database_online', { database: 'neo4j' })).toBe(1);
      expect(sampleValue(samples, 'neo4j.nodes', { database: 'neo4j' })).toBe(100);
      expect(sampleValue(samples, 'neo4j.relationships', { database: 'neo4j' })).toBe(50);
      expect(sampleValue(samples, 'neo4j.transactions_open')).toBeGreaterThanOrEqual(2);
      const extras = PollerExtras.parse(result?.extras);
      expect(extras.replication?.role).toBe('standalone');
      expect(extras.blocked_sessions?.[0]?.blocked_by.length).toBe(1);
      expect(extras.sessions?.every((s) => !/SHOW TRANSACTIONS/.test(s.query ?? ''))).toBe(true);
    } finally {
      await waiting.rollback().catch(() => {});
      await held.rollback().catch(() => {});
      await holder.close();
      await waiter.close();
    }
  }, 60_000);
});
