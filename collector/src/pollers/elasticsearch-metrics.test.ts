import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PollerExtras } from '@flightdeck/schemas';
import { describe, expect, it } from 'vitest';
import {
  type Doc,
  type EsReading,
  esExtras,
  esSamples,
  readCatIndex,
  readClusterHealth,
  readInfo,
  readNodesStats,
  readTasks,
} from './elasticsearch-metrics';
import { outsideCatalogue, sampleValue } from './testing/catalogue';

/** A fixture's response body, as the client parses it from JSON. */
function fixture(name: string): unknown {
  const text = readFileSync(join(import.meta.dirname, '__fixtures__', 'elasticsearch', name), 'utf8');
  return (JSON.parse(text) as { document: unknown }).document;
}

const info = readInfo(fixture('info.json') as Doc);
const health = readClusterHealth(fixture('cluster-health.json') as Doc);
const nodes1 = readNodesStats(fixture('nodes-stats-1.json') as Doc);
const nodes2 = readNodesStats(fixture('nodes-stats-2.json') as Doc);
const indices = (fixture('cat-indices.json') as Doc[]).map(readCatIndex);
const tasks = readTasks(fixture('tasks.json') as Doc);
const first: EsReading = { info, health, nodes: nodes1 };
const second: EsReading = { info, health, nodes: nodes2, tasks, indices };
const OPTIONS = { longQueryS: 60, topIndices: 3 };

describe('Elasticsearch answers', () => {
  it('reads the version and the cluster from GET /', () => {
    expect(info).toEqual({
      version: '8.15.3',
      cluster_name: 'logs-prod',
      node_name: 'es-1',
      build_flavor: 'default',
    });
  });

  it('reads each node by id with its figures and thread pools', () => {
    expect(nodes2.map((n) => n.name)).toEqual(['es-1', 'es-2', 'es-3']);
    const es1 = nodes2[0]!;
    expect(es1.id).toBe('aCBjn2sqQ5WfYq8JyJDgcA');
    expect(es1.values.get('jvm.mem.heap_used_percent')).toBe(64);
    expect(es1.values.get('jvm.gc.collectors.young.collection_count')).toBe(1210);
    expect(es1.values.get('indices.indexing.index_total')).toBe(5012000);
    expect(es1.pools.get('write')).toEqual({ rejected: 5, queue: 4 });
  });

  it('reads _cat/indices strings as numbers, a closed index with no size', () => {
    expect(indices[0]).toEqual({
      index: 'logs-2024.11.05',
      health: 'yellow',
      status: 'open',
      docs: 48211033,
      size_bytes: 9663676416,
    });
    expect(indices[3]).toEqual({
      index: 'archive-2023',
      health: 'green',
      status: 'close',
      docs: null,
      size_bytes: 0,
    });
  });

  it('keeps the top-level searches of _tasks, not their shard phases', () => {
    expect(tasks).toEqual([
      {
        id: 912004,
        node: 'es-1',
        action: 'indices:data/read/search',
        description: expect.stringMatching(/^indices\[logs-\*\], search_type\[QUERY_THEN_FETCH\]/),
        running_s: 72.141,
        opaque_id: 'dashboard-hosts',
      },
      {
        id: 55012,
        node: 'es-2',
        action: 'indices:data/read/search',
        description: expect.stringMatching(/^indices\[metrics-2024\.11\]/),
        running_s: 1.2,
        opaque_id: null,
      },
    ]);
  });
});

describe('Elasticsearch samples', () => {
  it('gives the cluster health with the status as a number, and node gauges, on the first poll', () => {
    const samples = esSamples(first, undefined, 0, OPTIONS);
    expect(outsideCatalogue(samples)).toEqual([]);
    const expected: Record<string, number> = {
      'elasticsearch.cluster_status': 1,
      'elasticsearch.nodes': 3,
      'elasticsearch.data_nodes': 3,
      'elasticsearch.shards_active': 44,
      'elasticsearch.shards_primary_active': 24,
      'elasticsearch.shards_relocating': 0,
      'elasticsearch.shards_initializing': 2,
      'elasticsearch.shards_unassigned': 2,
      'elasticsearch.shards_delayed_unassigned': 2,
      'elasticsearch.pending_tasks': 1,
      'elasticsearch.shards_active_pct': 91.67,
      'elasticsearch.http_connections': 31,
      'elasticsearch.uptime': 864000,
    };
    for (const [m, v] of Object.entries(expected)) expect(sampleValue(samples, m), m).toBe(v);
    expect(sampleValue(samples, 'elasticsearch.jvm_heap_used_pct', { node: 'es-1' })).toBe(62);
    expect(sampleValue(samples, 'elasticsearch.cpu_pct', { node: 'es-2' })).toBe(30);
    expect(sampleValue(samples, 'elasticsearch.fs_used_pct', { node: 'es-1' })).toBe(40);
    expect(samples.filter((s) => s.m.endsWith('_rate'))).toEqual([]);
    expect(sampleValue(samples, 'elasticsearch.long_queries')).toBeUndefined();
  });

  it('sums each node’s own change into cluster rates, leaving out the node that restarted', () => {
    const samples = esSamples(second, first, 10, OPTIONS);
    expect(outsideCatalogue(samples)).toEqual([]);
    const expected: Record<string, number> = {
      'elasticsearch.indexing_rate': 2000,
      'elasticsearch.search_queries_rate': 300,
      'elasticsearch.search_fetches_rate': 300,
      'elasticsearch.indexing_latency_ms': 0.15,
      'elasticsearch.search_query_latency_ms': 3.333,
      'elasticsearch.search_fetch_latency_ms': 0.533,
      'elasticsearch.query_cache_hit_ratio': 0.85,
      'elasticsearch.request_cache_hit_ratio': 0.8095,
      'elasticsearch.http_connections': 27,
      'elasticsearch.uptime': 864010,
    };
    for (const [m, v] of Object.entries(expected)) expect(sampleValue(samples, m), m).toBe(v);
  });

  it('gives each node its garbage collections and the share of time they took', () => {
    const samples = esSamples(second, first, 10, OPTIONS);
    expect(sampleValue(samples, 'elasticsearch.gc_young_rate', { node: 'es-1' })).toBe(1);
    expect(sampleValue(samples, 'elasticsearch.gc_old_rate', { node: 'es-1' })).toBe(0);
    expect(sampleValue(samples, 'elasticsearch.gc_time_pct', { node: 'es-1' })).toBe(1.5);
    expect(sampleValue(samples, 'elasticsearch.gc_old_rate', { node: 'es-2' })).toBe(0.1);
    expect(sampleValue(samples, 'elasticsearch.gc_time_pct', { node: 'es-2' })).toBe(5);
    expect(sampleValue(samples, 'elasticsearch.gc_young_rate', { node: 'es-3' })).toBeUndefined();
    expect(sampleValue(samples, 'elasticsearch.gc_time_pct', { node: 'es-3' })).toBeUndefined();
    expect(sampleValue(samples, 'elasticsearch.jvm_heap_used_pct', { node: 'es-3' })).toBe(20);
  });

  it('counts thread pool rejections per pool over the nodes, and the tasks queued', () => {
    const samples = esSamples(second, first, 10, OPTIONS);
    expect(sampleValue(samples, 'elasticsearch.thread_pool_rejections_rate', { pool: 'write' })).toBe(0.3);
    expect(sampleValue(samples, 'elasticsearch.thread_pool_rejections_rate', { pool: 'search' })).toBe(0);
    expect(sampleValue(samples, 'elasticsearch.thread_pool_queue', { pool: 'write' })).toBe(5);
    expect(sampleValue(samples, 'elasticsearch.thread_pool_queue', { pool: 'search' })).toBe(2);
  });

  it('gives the long searches, the documents and the largest indices when they were read', () => {
    const samples = esSamples(second, first, 10, OPTIONS);
    expect(sampleValue(samples, 'elasticsearch.long_queries')).toBe(1);
    expect(sampleValue(samples, 'elasticsearch.docs')).toBe(48211033 + 51200311 + 1203311 + 812);
    expect(samples.filter((s) => s.m === 'elasticsearch.index_size_bytes').map((s) => s.l?.index)).toEqual([
      'logs-2024.11.04',
      'logs-2024.11.05',
      'metrics-2024.11',
    ]);
  });

  it('has no status number for a status it does not know', () => {
    const samples = esSamples({ ...first, health: { ...health, status: 'purple' } }, undefined, 0, OPTIONS);
    expect(sampleValue(samples, 'elasticsearch.cluster_status')).toBeUndefined();
  });
});

describe('Elasticsearch lists', () => {
  it('lists running searches, the long ones, and the largest indices as tables of the cluster', () => {
    const extras = esExtras(second, OPTIONS);
    expect(PollerExtras.safeParse(extras).success).toBe(true);
    expect(extras.server).toEqual({ version: '8.15.3', uptime_s: 864010, max_connections: null });
    expect(extras.sessions?.map((s) => s.id)).toEqual([912004, 55012]);
    expect(extras.long_queries).toEqual([
      {
        id: 912004,
        user: null,
        database: null,
        client: 'es-1',
        application: 'dashboard-hosts',
        state: 'indices:data/read/search',
        wait: null,
        duration_s: 72.141,
        query: expect.stringContaining('"by_host"'),
      },
    ]);
    expect(extras.tables?.[0]).toEqual({
      database: 'logs-prod',
      schema: null,
      name: 'logs-2024.11.04',
      size_bytes: 10737418240,
      data_bytes: null,
      index_bytes: null,
      rows: 51200311,
    });
    expect(extras.tables).toHaveLength(3);
    expect(esExtras(first, OPTIONS)).not.toHaveProperty('tables');
  });
});
