import { type DbSession, MAX_LISTED_SESSIONS, type PollerExtras, type TableSize } from '@flightdeck/schemas';
import type { PollSample } from './contract';
import { hitRatio, num, ratePerSecond, round, str } from './rates';

/**
 * Pure reading of what the Elasticsearch client answers (GET /, _cluster/health, _nodes/stats,
 * _cat/indices in JSON with bytes as numbers, _tasks) into typed readings, samples and the poll's
 * lists. Counters of every node become cluster rates from each node's own change, so a node that
 * restarts or joins does not make a spike.
 */

export type Doc = Record<string, unknown>;

function at(doc: unknown, path: readonly string[]): unknown {
  let node: unknown = doc;
  for (const key of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Doc)[key];
  }
  return node;
}

/** GET / : who answered. */
export interface EsInfo {
  version: string;
  cluster_name: string;
  node_name: string;
  build_flavor: string | null;
}

export function readInfo(doc: Doc): EsInfo {
  return {
    version: str(at(doc, ['version', 'number'])) ?? '',
    cluster_name: str(doc.cluster_name) ?? '',
    node_name: str(doc.name) ?? '',
    build_flavor: str(at(doc, ['version', 'build_flavor'])),
  };
}

/** Health status as a number: 0 green, 1 yellow, 2 red. */
export const CLUSTER_STATUS: Readonly<Record<string, number>> = { green: 0, yellow: 1, red: 2 };

/** _cluster/health. */
export interface EsHealth {
  cluster_name: string;
  status: string;
  values: ReadonlyMap<string, number>;
}

const HEALTH_FIELDS = [
  'number_of_nodes',
  'number_of_data_nodes',
  'active_shards',
  'active_primary_shards',
  'relocating_shards',
  'initializing_shards',
  'unassigned_shards',
  'delayed_unassigned_shards',
  'number_of_pending_tasks',
  'active_shards_percent_as_number',
] as const;

export function readClusterHealth(doc: Doc): EsHealth {
  const values = new Map<string, number>();
  for (const field of HEALTH_FIELDS) {
    const v = num(doc[field]);
    if (v !== undefined) values.set(field, v);
  }
  return { cluster_name: str(doc.cluster_name) ?? '', status: str(doc.status) ?? '', values };
}

/** One node of _nodes/stats: its numbers by dotted path, and its thread pools. */
export interface EsNode {
  id: string;
  name: string;
  values: ReadonlyMap<string, number>;
  pools: ReadonlyMap<string, { rejected: number; queue: number }>;
}

const NODE_PATHS: readonly (readonly string[])[] = [
  ['jvm', 'mem', 'heap_used_percent'],
  ['jvm', 'mem', 'heap_used_in_bytes'],
  ['jvm', 'mem', 'heap_max_in_bytes'],
  ['jvm', 'uptime_in_millis'],
  ...['young', 'old'].flatMap((g) => [
    ['jvm', 'gc', 'collectors', g, 'collection_count'],
    ['jvm', 'gc', 'collectors', g, 'collection_time_in_millis'],
  ]),
  ['os', 'cpu', 'percent'],
  ['process', 'cpu', 'percent'],
  ['fs', 'total', 'total_in_bytes'],
  ['fs', 'total', 'available_in_bytes'],
  ['indices', 'store', 'size_in_bytes'],
  ['indices', 'indexing', 'index_total'],
  ['indices', 'indexing', 'index_time_in_millis'],
  ['indices', 'search', 'query_total'],
  ['indices', 'search', 'query_time_in_millis'],
  ['indices', 'search', 'fetch_total'],
  ['indices', 'search', 'fetch_time_in_millis'],
  ['indices', 'query_cache', 'hit_count'],
  ['indices', 'query_cache', 'miss_count'],
  ['indices', 'request_cache', 'hit_count'],
  ['indices', 'request_cache', 'miss_count'],
  ['http', 'current_open'],
];

export function readNodesStats(doc: Doc): EsNode[] {
  const nodes = doc.nodes && typeof doc.nodes === 'object' ? (doc.nodes as Record<string, Doc>) : {};
  return Object.entries(nodes).map(([id, node]) => {
    const values = new Map<string, number>();
    for (const path of NODE_PATHS) {
      const v = num(at(node, path));
      if (v !== undefined) values.set(path.join('.'), v);
    }
    const pools = new Map<string, { rejected: number; queue: number }>();
    const threadPool =
      node.thread_pool && typeof node.thread_pool === 'object' ? (node.thread_pool as Doc) : {};
    for (const [pool, stats] of Object.entries(threadPool)) {
      const rejected = num(at(stats, ['rejected']));
      const queue = num(at(stats, ['queue']));
      if (rejected !== undefined && queue !== undefined) pools.set(pool, { rejected, queue });
    }
    return { id, name: str(node.name) ?? id, values, pools };
  });
}

/** One row of _cat/indices?format=json&bytes=b (every value a string, or null for a closed index). */
export interface EsIndexRow {
  index: string;
  health: string | null;
  status: string | null;
  docs: number | null;
  size_bytes: number;
}

export function readCatIndex(row: Doc): EsIndexRow {
  return {
    index: str(row.index) ?? '',
    health: str(row.health),
    status: str(row.status),
    docs: num(row['docs.count']) ?? null,
    size_bytes: num(row['store.size']) ?? 0,
  };
}

/** A search task of _tasks (detailed), the top-level ones only: shard phases are its children. */
export interface EsTask {
  id: number;
  node: string;
  action: string;
  description: string | null;
  running_s: number | null;
  opaque_id: string | null;
}

export function readTasks(doc: Doc): EsTask[] {
  const nodes = doc.nodes && typeof doc.nodes === 'object' ? (doc.nodes as Record<string, Doc>) : {};
  const tasks: EsTask[] = [];
  for (const node of Object.values(nodes)) {
    const list = node.tasks && typeof node.tasks === 'object' ? (node.tasks as Record<string, Doc>) : {};
    for (const task of Object.values(list)) {
      if (task.parent_task_id !== undefined) continue;
      const nanos = num(task.running_time_in_nanos);
      tasks.push({
        id: num(task.id) ?? 0,
        node: str(node.name) ?? str(task.node) ?? '',
        action: str(task.action) ?? '',
        description: str(task.description),
        running_s: nanos === undefined ? null : round(nanos / 1e9),
        opaque_id: str(at(task, ['headers', 'X-Opaque-Id'])),
      });
    }
  }
  return tasks;
}

/** Everything one poll read. */
export interface EsReading {
  info: EsInfo;
  health: EsHealth;
  nodes: EsNode[];
  tasks?: EsTask[] | undefined;
  indices?: EsIndexRow[] | undefined;
}

/**
 * The change of a counter summed over the nodes in both readings, each node's own change; a node
 * whose counter went backwards (it restarted) or that was not in the earlier reading is left out.
 */
function clusterDelta(cur: readonly EsNode[], prev: readonly EsNode[], key: string): number | undefined {
  const before = new Map(prev.map((n) => [n.id, n]));
  let total: number | undefined;
  for (const node of cur) {
    const a = before.get(node.id)?.values.get(key);
    const b = node.values.get(key);
    if (a === undefined || b === undefined || b < a) continue;
    total = (total ?? 0) + (b - a);
  }
  return total;
}

function sumOf(nodes: readonly EsNode[], key: string): number | undefined {
  let total: number | undefined;
  for (const n of nodes) {
    const v = n.values.get(key);
    if (v !== undefined) total = (total ?? 0) + v;
  }
  return total;
}

const HEALTH_SAMPLES: readonly [string, string][] = [
  ['number_of_nodes', 'elasticsearch.nodes'],
  ['number_of_data_nodes', 'elasticsearch.data_nodes'],
  ['active_shards', 'elasticsearch.shards_active'],
  ['active_primary_shards', 'elasticsearch.shards_primary_active'],
  ['relocating_shards', 'elasticsearch.shards_relocating'],
  ['initializing_shards', 'elasticsearch.shards_initializing'],
  ['unassigned_shards', 'elasticsearch.shards_unassigned'],
  ['delayed_unassigned_shards', 'elasticsearch.shards_delayed_unassigned'],
  ['number_of_pending_tasks', 'elasticsearch.pending_tasks'],
  ['active_shards_percent_as_number', 'elasticsearch.shards_active_pct'],
];

const NODE_GAUGES: readonly [string, string][] = [
  ['jvm.mem.heap_used_percent', 'elasticsearch.jvm_heap_used_pct'],
  ['jvm.mem.heap_used_in_bytes', 'elasticsearch.jvm_heap_used_bytes'],
  ['jvm.mem.heap_max_in_bytes', 'elasticsearch.jvm_heap_max_bytes'],
  ['os.cpu.percent', 'elasticsearch.cpu_pct'],
  ['process.cpu.percent', 'elasticsearch.process_cpu_pct'],
  ['fs.total.total_in_bytes', 'elasticsearch.fs_total_bytes'],
  ['fs.total.available_in_bytes', 'elasticsearch.fs_available_bytes'],
];

const CLUSTER_RATES: readonly [string, string][] = [
  ['indices.indexing.index_total', 'elasticsearch.indexing_rate'],
  ['indices.search.query_total', 'elasticsearch.search_queries_rate'],
  ['indices.search.fetch_total', 'elasticsearch.search_fetches_rate'],
];

const LATENCIES: readonly [string, string, string][] = [
  [
    'indices.indexing.index_time_in_millis',
    'indices.indexing.index_total',
    'elasticsearch.indexing_latency_ms',
  ],
  [
    'indices.search.query_time_in_millis',
    'indices.search.query_total',
    'elasticsearch.search_query_latency_ms',
  ],
  [
    'indices.search.fetch_time_in_millis',
    'indices.search.fetch_total',
    'elasticsearch.search_fetch_latency_ms',
  ],
];

const CACHES: readonly [string, string][] = [
  ['indices.query_cache', 'elasticsearch.query_cache_hit_ratio'],
  ['indices.request_cache', 'elasticsearch.request_cache_hit_ratio'],
];

/** Top-level searches running at least `longQueryS`. */
function longSearches(tasks: readonly EsTask[], longQueryS: number): EsTask[] {
  return tasks.filter((t) => t.running_s !== null && t.running_s >= longQueryS);
}

/** Uptime of the longest-running node: how long the cluster has been up. */
function uptimeSeconds(nodes: readonly EsNode[]): number | null {
  const ms = nodes
    .map((n) => n.values.get('jvm.uptime_in_millis'))
    .filter((v): v is number => v !== undefined);
  return ms.length > 0 ? Math.round(Math.max(...ms) / 1000) : null;
}

/** The largest indices first, at most `top`. */
function largest(indices: readonly EsIndexRow[], top: number): EsIndexRow[] {
  return [...indices].sort((a, b) => b.size_bytes - a.size_bytes).slice(0, top);
}

/**
 * Samples of a reading: cluster health and node gauges always; rates, latencies, garbage
 * collection and cache ratios when an earlier reading is `seconds` before.
 */
export function esSamples(
  cur: EsReading,
  prev: EsReading | undefined,
  seconds: number,
  options: { longQueryS: number; topIndices: number },
): PollSample[] {
  const s: PollSample[] = [];
  const status = CLUSTER_STATUS[cur.health.status];
  if (status !== undefined) s.push({ m: 'elasticsearch.cluster_status', v: status });
  for (const [key, m] of HEALTH_SAMPLES) {
    const v = cur.health.values.get(key);
    if (v !== undefined) s.push({ m, v: m.endsWith('_pct') ? round(v, 2) : v });
  }
  for (const node of cur.nodes) {
    const l = { node: node.name };
    for (const [key, m] of NODE_GAUGES) {
      const v = node.values.get(key);
      if (v !== undefined) s.push({ m, l, v });
    }
    const total = node.values.get('fs.total.total_in_bytes');
    const available = node.values.get('fs.total.available_in_bytes');
    if (total !== undefined && available !== undefined && total > 0) {
      s.push({ m: 'elasticsearch.fs_used_pct', l, v: round(((total - available) / total) * 100, 2) });
    }
  }
  const http = sumOf(cur.nodes, 'http.current_open');
  if (http !== undefined) s.push({ m: 'elasticsearch.http_connections', v: http });
  const store = sumOf(cur.nodes, 'indices.store.size_in_bytes');
  if (store !== undefined) s.push({ m: 'elasticsearch.store_size_bytes', v: store });
  const pools = new Map<string, number>();
  for (const node of cur.nodes) {
    for (const [pool, t] of node.pools) pools.set(pool, (pools.get(pool) ?? 0) + t.queue);
  }
  for (const [pool, queue] of pools) s.push({ m: 'elasticsearch.thread_pool_queue', l: { pool }, v: queue });
  const uptime = uptimeSeconds(cur.nodes);
  if (uptime !== null) s.push({ m: 'elasticsearch.uptime', v: uptime });
  if (cur.tasks)
    s.push({ m: 'elasticsearch.long_queries', v: longSearches(cur.tasks, options.longQueryS).length });
  if (cur.indices) {
    let docs = 0;
    for (const i of cur.indices) docs += i.docs ?? 0;
    s.push({ m: 'elasticsearch.docs', v: docs });
    for (const i of largest(cur.indices, options.topIndices)) {
      s.push({ m: 'elasticsearch.index_size_bytes', l: { index: i.index }, v: i.size_bytes });
    }
  }
  if (!prev || !(seconds > 0)) return s;
  for (const [key, m] of CLUSTER_RATES) {
    const delta = clusterDelta(cur.nodes, prev.nodes, key);
    if (delta !== undefined) s.push({ m, v: round(delta / seconds) });
  }
  for (const [time, count, m] of LATENCIES) {
    const ms = clusterDelta(cur.nodes, prev.nodes, time);
    const n = clusterDelta(cur.nodes, prev.nodes, count);
    if (ms !== undefined && n !== undefined && n > 0) s.push({ m, v: round(ms / n) });
  }
  for (const [cache, m] of CACHES) {
    const hits = clusterDelta(cur.nodes, prev.nodes, `${cache}.hit_count`);
    const misses = clusterDelta(cur.nodes, prev.nodes, `${cache}.miss_count`);
    const ratio = hits === undefined || misses === undefined ? undefined : hitRatio(0, hits, 0, misses);
    if (ratio !== undefined) s.push({ m, v: ratio });
  }
  const before = new Map(prev.nodes.map((n) => [n.id, n]));
  for (const node of cur.nodes) {
    const old = before.get(node.id);
    if (!old) continue;
    const l = { node: node.name };
    let gcMs: number | undefined = 0;
    for (const gen of ['young', 'old'] as const) {
      const count = `jvm.gc.collectors.${gen}.collection_count`;
      const rate = ratePerSecond(old.values.get(count), node.values.get(count), seconds);
      if (rate !== undefined) s.push({ m: `elasticsearch.gc_${gen}_rate`, l, v: rate });
      const time = `jvm.gc.collectors.${gen}.collection_time_in_millis`;
      const spent = ratePerSecond(old.values.get(time), node.values.get(time), 1);
      gcMs = spent === undefined || gcMs === undefined ? undefined : gcMs + spent;
    }
    if (gcMs !== undefined)
      s.push({ m: 'elasticsearch.gc_time_pct', l, v: round((gcMs / (seconds * 1000)) * 100, 2) });
  }
  const rejected = new Map<string, number>();
  for (const node of cur.nodes) {
    const old = before.get(node.id);
    for (const [pool, t] of node.pools) {
      const was = old?.pools.get(pool)?.rejected;
      if (was === undefined || t.rejected < was) continue;
      rejected.set(pool, (rejected.get(pool) ?? 0) + (t.rejected - was));
    }
  }
  for (const [pool, n] of rejected) {
    s.push({ m: 'elasticsearch.thread_pool_rejections_rate', l: { pool }, v: round(n / seconds) });
  }
  return s;
}

function session(task: EsTask): DbSession {
  return {
    id: task.id,
    user: null,
    database: null,
    client: task.node,
    application: task.opaque_id,
    state: task.action,
    wait: null,
    duration_s: task.running_s,
    query: task.description ? task.description.slice(0, 2048) : null,
  };
}

const byDuration = (a: DbSession, b: DbSession) => (b.duration_s ?? -1) - (a.duration_s ?? -1);

/** The lists of a reading: running searches, the long ones, and the largest indices. */
export function esExtras(cur: EsReading, options: { longQueryS: number; topIndices: number }): PollerExtras {
  const extras: PollerExtras = {
    server: { version: cur.info.version, uptime_s: uptimeSeconds(cur.nodes), max_connections: null },
  };
  if (cur.tasks) {
    extras.sessions = cur.tasks.map(session).sort(byDuration).slice(0, MAX_LISTED_SESSIONS);
    extras.long_queries = longSearches(cur.tasks, options.longQueryS).map(session).sort(byDuration);
  }
  if (cur.indices) {
    extras.tables = largest(cur.indices, options.topIndices).map(
      (i): TableSize => ({
        database: cur.health.cluster_name || cur.info.cluster_name,
        schema: null,
        name: i.index,
        size_bytes: i.size_bytes,
        data_bytes: null,
        index_bytes: null,
        rows: i.docs,
      }),
    );
  }
  return extras;
}
