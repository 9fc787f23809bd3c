import { z } from 'zod';
import { LABEL_KEY_RE, MetricName } from './wire';

/**
 * The metrics catalogue (DESIGN section 3): every metric a producer may publish, with its unit, its
 * kind and the chart that draws it. Names are dotted and stable. Producers turn counters into rates
 * before publishing, so the catalogue holds gauges and rates: `*_rate` names are per second.
 *
 * Host metrics (`cpu.`, `mem.`, `swap.`, `disk.`, `disk_io.`, `net.`, `tcp.`, `proc.`, `system.`)
 * are the same on every OS where the source exists; descriptions say "Linux" where it does not on
 * Windows. On Windows `swap.*` is the page file and `disk.*` is per drive (`mount` = "C:").
 */

/** Units of metric values. `ratio` is a fraction from 0 to 1; `percent` runs from 0 to 100. */
export const METRIC_UNITS = [
  'percent',
  'ratio',
  'bytes',
  'bytes_per_second',
  'per_second',
  'count',
  'seconds',
  'milliseconds',
  'celsius',
] as const;
/** A metric unit. */
export const MetricUnit = z.enum(METRIC_UNITS);
/** A metric unit. */
export type MetricUnit = z.infer<typeof MetricUnit>;

/** Metric kinds: a value at an instant, a running total, or a per-second rate over the interval. */
export const METRIC_KINDS = ['gauge', 'counter', 'rate'] as const;
/** A metric kind. */
export const MetricKind = z.enum(METRIC_KINDS);
/** A metric kind. */
export type MetricKind = z.infer<typeof MetricKind>;

/** Charts the catalogue's metrics are drawn in; every metric of a chart has the chart's unit. */
export const CHARTS = [
  { id: 'cpu', title: 'CPU usage', unit: 'percent' },
  { id: 'load', title: 'Load', unit: 'count' },
  { id: 'memory', title: 'Memory', unit: 'bytes' },
  { id: 'memory_usage', title: 'Memory and swap usage', unit: 'percent' },
  { id: 'swap', title: 'Swap', unit: 'bytes' },
  { id: 'paging', title: 'Paging', unit: 'per_second' },
  { id: 'filesystem', title: 'File system usage', unit: 'percent' },
  { id: 'filesystem_space', title: 'File system space', unit: 'bytes' },
  { id: 'filesystem_inodes', title: 'File system inodes', unit: 'count' },
  { id: 'disk_io', title: 'Disk operations', unit: 'per_second' },
  { id: 'disk_throughput', title: 'Disk throughput', unit: 'bytes_per_second' },
  { id: 'disk_busy', title: 'Disk busy time', unit: 'percent' },
  { id: 'network', title: 'Network traffic', unit: 'bytes_per_second' },
  { id: 'network_packets', title: 'Network packets', unit: 'per_second' },
  { id: 'network_errors', title: 'Network errors and drops', unit: 'per_second' },
  { id: 'tcp', title: 'TCP connections', unit: 'count' },
  { id: 'processes', title: 'Processes', unit: 'count' },
  { id: 'uptime', title: 'Uptime', unit: 'seconds' },
  { id: 'mysql_threads', title: 'MySQL threads', unit: 'count' },
  { id: 'mysql_queries', title: 'MySQL queries', unit: 'per_second' },
  { id: 'mysql_buffer_pool', title: 'MySQL buffer pool hit ratio', unit: 'ratio' },
  { id: 'mysql_replication', title: 'MySQL replication lag', unit: 'seconds' },
  { id: 'pg_connections', title: 'PostgreSQL connections', unit: 'count' },
  { id: 'pg_transactions', title: 'PostgreSQL transactions', unit: 'per_second' },
  { id: 'pg_cache', title: 'PostgreSQL cache hit ratio', unit: 'ratio' },
  { id: 'pg_replication', title: 'PostgreSQL replication lag', unit: 'seconds' },
] as const satisfies readonly { id: string; title: string; unit: MetricUnit }[];

/** Id of a catalogue chart. */
export type ChartId = (typeof CHARTS)[number]['id'];
/** Ids of the catalogue charts, in display order. */
export const CHART_IDS: readonly ChartId[] = CHARTS.map((c) => c.id);
/** Id of a catalogue chart. */
export const ChartId = z.enum(CHART_IDS as [ChartId, ...ChartId[]]);

/** A catalogue chart: id, English title and the unit of all its metrics. */
export type ChartDefinition = (typeof CHARTS)[number];

/** TCP connection states, as the `state` label of `tcp.connections` spells them. */
export const TCP_STATES = [
  'established',
  'syn_sent',
  'syn_recv',
  'fin_wait1',
  'fin_wait2',
  'time_wait',
  'close',
  'close_wait',
  'last_ack',
  'listen',
  'closing',
] as const;
/** A TCP connection state. */
export const TcpState = z.enum(TCP_STATES);
/** A TCP connection state. */
export type TcpState = z.infer<typeof TcpState>;

/**
 * One catalogue entry. `labels` lists the label keys a series of the metric may carry; a series
 * without them is the whole host (e.g. `cpu.user` is all cores, `cpu.user{core=3}` one core).
 */
export const MetricDefinition = z.object({
  name: MetricName,
  unit: MetricUnit,
  kind: MetricKind,
  chart: ChartId,
  description: z.string().min(1),
  labels: z.array(z.string().regex(LABEL_KEY_RE)).readonly().optional(),
});
/** One catalogue entry. */
export type MetricDefinition = z.infer<typeof MetricDefinition>;

/**
 * Entries of one chart: they share its unit, and here also a kind and label keys. `descriptions`
 * maps each metric name to its English description.
 */
function chartMetrics<const N extends string>(
  chart: ChartId,
  kind: MetricKind,
  labels: readonly string[] | undefined,
  descriptions: Record<N, string>,
): (MetricDefinition & { name: N })[] {
  const unit = CHARTS.find((c) => c.id === chart)!.unit;
  return (Object.entries(descriptions) as [N, string][]).map(([name, description]) => ({
    name,
    unit,
    kind,
    chart,
    description,
    ...(labels ? { labels } : {}),
  }));
}

const CORE = ['core'] as const;
const MOUNT = ['mount'] as const;
const DEVICE = ['device'] as const;
const IFACE = ['interface'] as const;
const DB = ['database'] as const;

/** Every metric producers may publish, grouped by chart in chart order. */
export const METRICS = [
  // CPU: shares of CPU time over the interval, 0-100; without `core`, all cores together.
  ...chartMetrics('cpu', 'gauge', CORE, {
    'cpu.user': 'Time in user space, nice included.',
    'cpu.system': 'Time in the kernel (privileged time on Windows).',
    'cpu.iowait': 'Idle time with disk I/O outstanding (Linux).',
    'cpu.steal': 'Time the hypervisor gave to other guests (Linux).',
    'cpu.idle': 'Idle time, I/O wait excluded.',
    'cpu.total': 'Busy time: everything but idle and I/O wait.',
  }),
  ...chartMetrics('load', 'gauge', undefined, {
    'load.1m': 'Load average over 1 minute (Linux).',
    'load.5m': 'Load average over 5 minutes (Linux).',
    'load.15m': 'Load average over 15 minutes (Linux).',
    'win.processor_queue_length': 'Threads waiting for a processor (Windows).',
  }),
  ...chartMetrics('memory', 'gauge', undefined, {
    'mem.total_bytes': 'Physical memory installed.',
    'mem.used_bytes': 'Memory in use: total minus available.',
    'mem.available_bytes': 'Memory available to new programs without swapping.',
    'mem.cached_bytes': 'Page cache (Linux).',
    'mem.buffers_bytes': 'Block device buffers (Linux).',
    'win.committed_bytes': 'Committed virtual memory (Windows).',
    'win.commit_limit_bytes': 'Commit limit: memory plus page files (Windows).',
  }),
  ...chartMetrics('memory_usage', 'gauge', undefined, {
    'mem.used_pct': 'Memory in use as a share of the total.',
    'swap.used_pct': 'Swap in use as a share of the total.',
  }),
  ...chartMetrics('swap', 'gauge', undefined, {
    'swap.total_bytes': 'Swap space configured.',
    'swap.used_bytes': 'Swap space in use.',
    'swap.free_bytes': 'Swap space free.',
  }),
  ...chartMetrics('paging', 'rate', undefined, {
    'swap.in_pages_rate': 'Pages swapped in (Linux).',
    'swap.out_pages_rate': 'Pages swapped out (Linux).',
    'win.page_faults_rate': 'Page faults (Windows).',
  }),
  ...chartMetrics('filesystem', 'gauge', MOUNT, {
    'disk.used_pct': 'Space in use as a share of the space usable by unprivileged users.',
    'disk.inodes_used_pct': 'Inodes in use as a share of the total (Linux).',
  }),
  ...chartMetrics('filesystem_space', 'gauge', MOUNT, {
    'disk.size_bytes': 'Size of the file system.',
    'disk.used_bytes': 'Space in use.',
    'disk.free_bytes': 'Space free for unprivileged users.',
  }),
  ...chartMetrics('filesystem_inodes', 'gauge', MOUNT, {
    'disk.inodes_total': 'Inodes of the file system (Linux).',
    'disk.inodes_used': 'Inodes in use (Linux).',
    'disk.inodes_free': 'Inodes free (Linux).',
  }),
  ...chartMetrics('disk_io', 'rate', DEVICE, {
    'disk_io.read_ops_rate': 'Read operations completed.',
    'disk_io.write_ops_rate': 'Write operations completed.',
  }),
  ...chartMetrics('disk_throughput', 'rate', DEVICE, {
    'disk_io.read_bytes_rate': 'Bytes read.',
    'disk_io.write_bytes_rate': 'Bytes written.',
  }),
  ...chartMetrics('disk_busy', 'gauge', DEVICE, {
    'disk_io.busy_pct': 'Share of the interval the device had I/O in flight.',
  }),
  ...chartMetrics('network', 'rate', IFACE, {
    'net.rx_bytes_rate': 'Bytes received.',
    'net.tx_bytes_rate': 'Bytes sent.',
  }),
  ...chartMetrics('network_packets', 'rate', IFACE, {
    'net.rx_packets_rate': 'Packets received.',
    'net.tx_packets_rate': 'Packets sent.',
  }),
  ...chartMetrics('network_errors', 'rate', IFACE, {
    'net.rx_errors_rate': 'Receive errors.',
    'net.tx_errors_rate': 'Transmit errors.',
    'net.rx_drops_rate': 'Received packets dropped.',
    'net.tx_drops_rate': 'Outgoing packets dropped.',
  }),
  ...chartMetrics('tcp', 'gauge', ['state'], {
    'tcp.connections': 'TCP sockets in each state (see TCP_STATES).',
  }),
  ...chartMetrics('processes', 'gauge', undefined, {
    'proc.count': 'Processes on the host.',
    'proc.running': 'Processes runnable now (Linux).',
    'proc.blocked': 'Processes blocked on I/O (Linux).',
    'win.handles': 'Open handles of all processes (Windows).',
  }),
  ...chartMetrics('uptime', 'gauge', undefined, {
    'system.uptime': 'Time since the host booted.',
  }),
  // MySQL and MariaDB, from SHOW GLOBAL STATUS and SHOW REPLICA STATUS.
  ...chartMetrics('mysql_threads', 'gauge', undefined, {
    'mysql.threads_connected': 'Open client connections (Threads_connected).',
    'mysql.threads_running': 'Threads executing a statement (Threads_running).',
  }),
  ...chartMetrics('mysql_queries', 'rate', undefined, {
    'mysql.queries_rate': 'Statements executed (Queries).',
    'mysql.slow_queries_rate': 'Statements slower than long_query_time (Slow_queries).',
  }),
  ...chartMetrics('mysql_buffer_pool', 'gauge', undefined, {
    'mysql.buffer_pool_hit_ratio': 'InnoDB buffer pool reads served from memory over the interval.',
  }),
  ...chartMetrics('mysql_replication', 'gauge', undefined, {
    'mysql.replication_lag': 'Seconds a replica is behind its source (Seconds_Behind_Source).',
  }),
  // PostgreSQL, per database as pg_stat_database gives it.
  ...chartMetrics('pg_connections', 'gauge', DB, {
    'pg.connections': 'Backends connected (numbackends).',
  }),
  ...chartMetrics('pg_transactions', 'rate', DB, {
    'pg.xact_commit_rate': 'Transactions committed.',
    'pg.xact_rollback_rate': 'Transactions rolled back.',
    'pg.deadlocks_rate': 'Deadlocks detected.',
  }),
  ...chartMetrics('pg_cache', 'gauge', DB, {
    'pg.cache_hit_ratio': 'Block reads served from shared buffers over the interval.',
  }),
  ...chartMetrics('pg_replication', 'gauge', undefined, {
    'pg.replication_lag': 'Seconds since the last transaction a standby replayed.',
  }),
];

/** Name of a catalogue metric. */
export type CatalogMetricName = (typeof METRICS)[number]['name'];

const BY_NAME: ReadonlyMap<string, MetricDefinition> = new Map(METRICS.map((m) => [m.name, m]));

/** The catalogue entry of a metric, or undefined for a name the catalogue does not list. */
export function metricByName(name: string): MetricDefinition | undefined {
  return BY_NAME.get(name);
}

/** The metrics a chart draws, in catalogue order. */
export function metricsForChart(chart: ChartId): MetricDefinition[] {
  return METRICS.filter((m) => m.chart === chart);
}

/** A catalogue chart by id, or undefined. */
export function chartById(id: string): ChartDefinition | undefined {
  return CHARTS.find((c) => c.id === id);
}
