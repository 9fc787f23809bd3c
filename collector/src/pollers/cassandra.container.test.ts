import { CassandraPollerConfig, PollerExtras } from '@flightdeck/schemas';
import { Client } from 'cassandra-driver';
import pino from 'pino';
import { GenericContainer, type StartedTestContainer, Wait } from 'testcontainers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noDockerEngine } from '../testing/docker';
import { createCassandraPoller } from './cassandra';
import type { Poller } from './contract';
import { outsideCatalogue, sampleValue } from './testing/catalogue';
import { ok } from './testing/poll';

/**
 * The Cassandra poller against Apache Cassandra 4.1 (the official `cassandra:4.1` image), through
 * testcontainers. It runs where a Docker engine answers; elsewhere the suite is reported as
 * skipped with the reason.
 */

const IMAGE = 'cassandra:4.1';
const logger = pino({ level: 'silent' });

const noDocker = await noDockerEngine('Cassandra container suite');

(noDocker ? describe.skip : describe)('Cassandra poller against Cassandra 4.1', () => {
  let container: StartedTestContainer;
  let client: Client;
  const pollers: Poller[] = [];

  const poller = (over: Record<string, unknown> = {}) => {
    const p = createCassandraPoller(
      CassandraPollerConfig.parse({
        host: container.getHost(),
        port: container.getMappedPort(9042),
        connect_timeout_ms: 10_000,
        query_timeout_ms: 10_000,
        ...over,
      }),
      { logger },
    );
    pollers.push(p);
    return p;
  };

  beforeAll(async () => {
    container = await new GenericContainer(IMAGE)
      .withEnvironment({ MAX_HEAP_SIZE: '512M', HEAP_NEWSIZE: '128M' })
      .withExposedPorts(9042)
      .withWaitStrategy(Wait.forLogMessage(/Starting listening for CQL clients/))
      .withStartupTimeout(240_000)
      .start();
    client = new Client({
      contactPoints: [`${container.getHost()}:${container.getMappedPort(9042)}`],
      localDataCenter: 'datacenter1',
    });
    await client.execute(
      "CREATE KEYSPACE shop WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}",
    );
    await client.execute('CREATE TABLE shop.orders (id int PRIMARY KEY, status text, total double)');
    for (let i = 0; i < 200; i++) {
      await client.execute(
        'INSERT INTO shop.orders (id, status, total) VALUES (?, ?, ?)',
        [i, 'open', i * 1.5],
        {
          prepare: true,
        },
      );
    }
  }, 300_000);

  afterAll(async () => {
    await Promise.all(pollers.map((p) => p.close()));
    await client?.shutdown();
    await container?.stop();
  });

  it('passes the connection test with the version, cluster and data center', async () => {
    const result = await poller().testConnection();
    expect(result).toMatchObject({
      ok: true,
      details: { engine: 'Cassandra', data_center: 'datacenter1', nodes: 1 },
    });
    if (result.ok) expect(result.version).toMatch(/^4\.1\./);
  });

  it('tells a wrong data center and a missing keyspace', async () => {
    expect(await poller({ local_datacenter: 'dc9' }).testConnection()).toMatchObject({
      ok: false,
      code: 'not_found',
    });
    expect(await poller({ keyspace: 'nosuchkeyspace' }).testConnection()).toMatchObject({
      ok: false,
      code: 'not_found',
    });
  });

  it('polls the node twice: connections, thread pools, rates, caches and sizes, all in the catalogue', async () => {
    const p = poller({ keyspace: 'shop' });
    const started = Date.now();
    ok(await p.poll(started));
    for (let i = 0; i < 50; i++)
      await client.execute('SELECT * FROM shop.orders WHERE id = ?', [i], { prepare: true });
    const second = ok(await p.poll(started + 10_000));
    expect(outsideCatalogue(second.samples)).toEqual([]);
    expect(sampleValue(second.samples, 'cassandra.nodes')).toBe(1);
    expect(sampleValue(second.samples, 'cassandra.nodes_up')).toBe(1);
    expect(sampleValue(second.samples, 'cassandra.connections')).toBeGreaterThanOrEqual(2);
    expect(sampleValue(second.samples, 'cassandra.requests_rate')).toBeGreaterThan(0);
    expect(sampleValue(second.samples, 'cassandra.uptime')).toBeGreaterThan(0);
    expect(
      second.samples.some((s) => s.m === 'cassandra.pool_pending_tasks' && s.l?.pool === 'ReadStage'),
    ).toBe(true);
    const extras = PollerExtras.parse(second.extras);
    expect(extras.server?.version).toMatch(/^4\.1\./);
    expect(extras.replication?.role).toBe('standalone');
    expect(extras.blocked_sessions).toEqual([]);
    expect(extras.sessions?.some((s) => s.application === 'flightdeck-poller')).toBe(false);
    expect(extras.tables?.every((t) => t.database === 'shop')).toBe(true);
  }, 60_000);
});
