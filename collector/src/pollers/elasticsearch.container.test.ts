import { ElasticsearchPollerConfig, PollerExtras } from '@flightdeck/schemas';
import pino from 'pino';
import { GenericContainer, type StartedTestContainer, Wait } from 'testcontainers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noDockerEngine } from '../testing/docker';
import type { Poller } from './contract';
import { createElasticsearchPoller } from './elasticsearch';
import { outsideCatalogue, sampleValue } from './testing/catalogue';
import { ok } from './testing/poll';

/**
 * The Elasticsearch poller against Elasticsearch 8 (Elastic's image) as a single node with security
 * off, through testcontainers. It runs where a Docker engine answers; elsewhere the suite is
 * reported as skipped with the reason.
 */

const IMAGE = 'docker.elastic.co/elasticsearch/elasticsearch:8.15.3';
const INDEX = 'fd-logs';
const logger = pino({ level: 'silent' });

const noDocker = await noDockerEngine('Elasticsearch container suite');

(noDocker ? describe.skip : describe)('Elasticsearch poller against Elasticsearch 8 (single node)', () => {
  let container: StartedTestContainer;
  let base: string;
  const pollers: Poller[] = [];

  const poller = (over: Record<string, unknown> = {}) => {
    const config = ElasticsearchPollerConfig.parse({
      host: container.getHost(),
      port: container.getMappedPort(9200),
      connect_timeout_ms: 5000,
      query_timeout_ms: 10_000,
      ...over,
    });
    const p = createElasticsearchPoller(config, { logger });
    pollers.push(p);
    return p;
  };

  /** Indexes `count` documents in one bulk request and makes them searchable. */
  async function index(count: number, from: number): Promise<void> {
    const lines = Array.from({ length: count }, (_, i) => [
      JSON.stringify({ index: { _index: INDEX } }),
      JSON.stringify({ n: from + i, host: `web-${(from + i) % 5}`, '@timestamp': new Date().toISOString() }),
    ]).flat();
    const res = await fetch(`${base}/_bulk?refresh=true`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson' },
      body: `${lines.join('\n')}\n`,
    });
    expect(res.status).toBe(200);
  }

  beforeAll(async () => {
    container = await new GenericContainer(IMAGE)
      .withEnvironment({
        'discovery.type': 'single-node',
        'xpack.security.enabled': 'false',
        ES_JAVA_OPTS: '-Xms512m -Xmx512m',
      })
      .withExposedPorts(9200)
      .withWaitStrategy(Wait.forHttp('/_cluster/health?wait_for_status=yellow', 9200).forStatusCode(200))
      .withStartupTimeout(180_000)
      .start();
    base = `http://${container.getHost()}:${container.getMappedPort(9200)}`;
    const created = await fetch(`${base}/${INDEX}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ settings: { number_of_shards: 1, number_of_replicas: 0 } }),
    });
    expect(created.status).toBe(200);
    await index(200, 0);
  }, 240_000);

  afterAll(async () => {
    await Promise.all(pollers.map((p) => p.close()));
    await container?.stop();
  });

  it('tests the connection: version, cluster and status', async () => {
    const result = await poller().testConnection();
    expect(result).toMatchObject({
      ok: true,
      version: '8.15.3',
      details: { engine: 'Elasticsearch', nodes: 1 },
    });
  });

  it('polls cluster health, the node, indexing and search rates, and index sizes', async () => {
    const p = poller({ long_query_s: 1 });
    const first = ok(await p.poll(Date.now()));
    await index(300, 200);
    const searched = await fetch(`${base}/${INDEX}/_search?q=host:web-1`);
    expect(searched.status).toBe(200);
    await new Promise((r) => setTimeout(r, 1100));
    const second = ok(await p.poll(Date.now()));
    for (const result of [first, second]) {
      expect(outsideCatalogue(result.samples)).toEqual([]);
      expect(PollerExtras.safeParse(result.extras).success).toBe(true);
    }
    expect(sampleValue(first.samples, 'elasticsearch.cluster_status')).toBe(0);
    expect(sampleValue(first.samples, 'elasticsearch.nodes')).toBe(1);
    expect(sampleValue(first.samples, 'elasticsearch.shards_unassigned')).toBe(0);
    const node = second.samples.find((s) => s.m === 'elasticsearch.jvm_heap_used_pct');
    expect(node?.l?.node).toBeTruthy();
    expect(node?.v).toBeGreaterThan(0);
    expect(sampleValue(second.samples, 'elasticsearch.indexing_rate')).toBeGreaterThan(0);
    expect(sampleValue(second.samples, 'elasticsearch.search_queries_rate')).toBeGreaterThan(0);
    expect(sampleValue(second.samples, 'elasticsearch.long_queries')).toBe(0);
    expect(first.extras?.tables?.find((t) => t.name === INDEX)).toMatchObject({ rows: 200, schema: null });
    expect(sampleValue(first.samples, 'elasticsearch.index_size_bytes', { index: INDEX })).toBeGreaterThan(0);
    expect(second.extras?.server?.version).toBe('8.15.3');
  });
});
