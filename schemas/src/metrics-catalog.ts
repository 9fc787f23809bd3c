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
 * `win.*` exist only on Windows. `container.*` (labels `container` and `image`) and `docker.*` come
 * from the Docker Engine of a host that has one.
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
  'days',
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
  { id: 'windows_services', title: 'Windows services', unit: 'count' },
  { id: 'windows_service_running', title: 'Automatic services running', unit: 'count' },
  { id: 'containers', title: 'Containers', unit: 'count' },
  { id: 'containers_running', title: 'Container running', unit: 'count' },
  { id: 'containers_restarts', title: 'Container restarts', unit: 'count' },
  { id: 'containers_cpu', title: 'Container CPU', unit: 'percent' },
  { id: 'containers_memory', title: 'Container memory', unit: 'bytes' },
  { id: 'containers_network', title: 'Container network traffic', unit: 'bytes_per_second' },
  { id: 'mysql_threads', title: 'MySQL threads', unit: 'count' },
  { id: 'mysql_queries', title: 'MySQL queries', unit: 'per_second' },
  { id: 'mysql_buffer_pool', title: 'MySQL buffer pool hit ratio', unit: 'ratio' },
  { id: 'mysql_replication', title: 'MySQL replication lag', unit: 'seconds' },
  { id: 'pg_connections', title: 'PostgreSQL connections', unit: 'count' },
  { id: 'pg_transactions', title: 'PostgreSQL transactions', unit: 'per_second' },
  { id: 'pg_cache', title: 'PostgreSQL cache hit ratio', unit: 'ratio' },
  { id: 'pg_replication', title: 'PostgreSQL replication lag', unit: 'seconds' },
  { id: 'mysql_sessions', title: 'MySQL long-running and blocked sessions', unit: 'count' },
  { id: 'mysql_connections', title: 'MySQL connections and limit', unit: 'count' },
  { id: 'mysql_connections_usage', title: 'MySQL connections in use', unit: 'percent' },
  { id: 'mysql_connection_rate', title: 'MySQL new and aborted connections', unit: 'per_second' },
  { id: 'mysql_transactions', title: 'MySQL commits and rollbacks', unit: 'per_second' },
  { id: 'mysql_temp', title: 'MySQL temporary tables and files', unit: 'per_second' },
  { id: 'mysql_buffer_pool_usage', title: 'MySQL InnoDB buffer pool', unit: 'bytes' },
  { id: 'mysql_innodb_io', title: 'MySQL InnoDB I/O', unit: 'bytes_per_second' },
  { id: 'mysql_locks', title: 'MySQL lock waits and deadlocks', unit: 'per_second' },
  { id: 'mysql_network', title: 'MySQL network traffic', unit: 'bytes_per_second' },
  { id: 'mysql_replication_state', title: 'MySQL replication threads and replicas', unit: 'count' },
  { id: 'mysql_schema_size', title: 'MySQL schema sizes', unit: 'bytes' },
  { id: 'pg_connections_usage', title: 'PostgreSQL connections in use', unit: 'percent' },
  { id: 'pg_sessions', title: 'PostgreSQL sessions', unit: 'count' },
  { id: 'pg_rows', title: 'PostgreSQL rows', unit: 'per_second' },
  { id: 'pg_temp_files', title: 'PostgreSQL temporary files', unit: 'per_second' },
  { id: 'pg_temp_bytes', title: 'PostgreSQL temporary file bytes', unit: 'bytes_per_second' },
  { id: 'pg_database_size', title: 'PostgreSQL database sizes', unit: 'bytes' },
  { id: 'pg_checkpoints', title: 'PostgreSQL checkpoints', unit: 'per_second' },
  { id: 'pg_buffers', title: 'PostgreSQL buffers written and allocated', unit: 'per_second' },
  { id: 'pg_wal', title: 'PostgreSQL WAL written', unit: 'bytes_per_second' },
  { id: 'pg_wal_records', title: 'PostgreSQL WAL records', unit: 'per_second' },
  { id: 'pg_replication_bytes', title: 'PostgreSQL replica lag in bytes', unit: 'bytes' },
  { id: 'pg_replication_state', title: 'PostgreSQL replication role and replicas', unit: 'count' },
  { id: 'service_uptime', title: 'Service uptime', unit: 'seconds' },
  { id: 'service_availability', title: 'Service availability', unit: 'ratio' },
  { id: 'nginx_connections', title: 'Nginx connections', unit: 'count' },
  { id: 'nginx_requests', title: 'Nginx requests and connections', unit: 'per_second' },
  { id: 'apache_workers', title: 'Apache workers', unit: 'count' },
  { id: 'apache_scoreboard', title: 'Apache scoreboard', unit: 'count' },
  { id: 'apache_connections', title: 'Apache connections', unit: 'count' },
  { id: 'apache_requests', title: 'Apache requests', unit: 'per_second' },
  { id: 'apache_traffic', title: 'Apache traffic', unit: 'bytes_per_second' },
  { id: 'apache_request_duration', title: 'Apache mean request duration', unit: 'milliseconds' },
  { id: 'apache_cpu', title: 'Apache CPU', unit: 'percent' },
  { id: 'url_response_time', title: 'URL response time', unit: 'milliseconds' },
  { id: 'url_availability', title: 'URL availability', unit: 'ratio' },
  { id: 'url_status_code', title: 'URL status code', unit: 'count' },
  { id: 'url_certificate', title: 'URL certificate validity', unit: 'days' },
  { id: 'oracle_sessions', title: 'Oracle user sessions', unit: 'count' },
  { id: 'oracle_limits', title: 'Oracle sessions and processes against their limits', unit: 'count' },
  { id: 'oracle_limits_usage', title: 'Oracle sessions and processes in use', unit: 'percent' },
  { id: 'oracle_problem_sessions', title: 'Oracle long-running and blocked sessions', unit: 'count' },
  { id: 'oracle_transactions', title: 'Oracle commits and rollbacks', unit: 'per_second' },
  { id: 'oracle_calls', title: 'Oracle executions, parses, calls and logons', unit: 'per_second' },
  { id: 'oracle_io', title: 'Oracle block reads and writes', unit: 'per_second' },
  { id: 'oracle_buffer_cache', title: 'Oracle buffer cache hit ratio', unit: 'ratio' },
  { id: 'oracle_redo', title: 'Oracle redo generated', unit: 'bytes_per_second' },
  { id: 'oracle_network', title: 'Oracle network traffic', unit: 'bytes_per_second' },
  { id: 'oracle_locks', title: 'Oracle enqueue waits and deadlocks', unit: 'per_second' },
  { id: 'oracle_waits', title: 'Oracle sessions waiting by wait class', unit: 'count' },
  { id: 'oracle_memory', title: 'Oracle SGA and PGA', unit: 'bytes' },
  { id: 'oracle_tablespace_usage', title: 'Oracle tablespace usage', unit: 'percent' },
  { id: 'oracle_tablespace_size', title: 'Oracle tablespace space', unit: 'bytes' },
  { id: 'oracle_schema_size', title: 'Oracle schema sizes', unit: 'bytes' },
  { id: 'oracle_replication', title: 'Oracle Data Guard lag', unit: 'seconds' },
  { id: 'oracle_replication_state', title: 'Oracle Data Guard role and standbys', unit: 'count' },
  { id: 'mongodb_connections', title: 'MongoDB connections', unit: 'count' },
  { id: 'mongodb_connections_usage', title: 'MongoDB connections in use', unit: 'percent' },
  { id: 'mongodb_connection_rate', title: 'MongoDB new connections', unit: 'per_second' },
  { id: 'mongodb_operations', title: 'MongoDB operations', unit: 'per_second' },
  { id: 'mongodb_documents', title: 'MongoDB documents', unit: 'per_second' },
  { id: 'mongodb_latency', title: 'MongoDB operation latency', unit: 'milliseconds' },
  { id: 'mongodb_cache', title: 'MongoDB WiredTiger cache', unit: 'bytes' },
  { id: 'mongodb_cache_hit', title: 'MongoDB WiredTiger cache hit ratio', unit: 'ratio' },
  { id: 'mongodb_cache_io', title: 'MongoDB WiredTiger cache reads and writes', unit: 'bytes_per_second' },
  { id: 'mongodb_queues', title: 'MongoDB global lock queues and active clients', unit: 'count' },
  { id: 'mongodb_sessions', title: 'MongoDB long-running and blocked operations', unit: 'count' },
  { id: 'mongodb_conflicts', title: 'MongoDB write conflicts and asserts', unit: 'per_second' },
  { id: 'mongodb_network', title: 'MongoDB network traffic', unit: 'bytes_per_second' },
  { id: 'mongodb_memory', title: 'MongoDB memory', unit: 'bytes' },
  { id: 'mongodb_cursors', title: 'MongoDB open cursors', unit: 'count' },
  { id: 'mongodb_replication', title: 'MongoDB replication lag', unit: 'seconds' },
  { id: 'mongodb_replication_state', title: 'MongoDB replica set role and members', unit: 'count' },
  { id: 'mongodb_database_size', title: 'MongoDB database sizes', unit: 'bytes' },
  { id: 'elasticsearch_cluster', title: 'Elasticsearch cluster status and nodes', unit: 'count' },
  { id: 'elasticsearch_shards', title: 'Elasticsearch shards', unit: 'count' },
  { id: 'elasticsearch_shards_active', title: 'Elasticsearch active shards', unit: 'percent' },
  {
    id: 'elasticsearch_tasks',
    title: 'Elasticsearch pending tasks and long-running searches',
    unit: 'count',
  },
  { id: 'elasticsearch_throughput', title: 'Elasticsearch indexing and search', unit: 'per_second' },
  { id: 'elasticsearch_latency', title: 'Elasticsearch indexing and search latency', unit: 'milliseconds' },
  { id: 'elasticsearch_heap', title: 'Elasticsearch JVM heap in use', unit: 'percent' },
  { id: 'elasticsearch_heap_bytes', title: 'Elasticsearch JVM heap', unit: 'bytes' },
  { id: 'elasticsearch_gc', title: 'Elasticsearch garbage collections', unit: 'per_second' },
  { id: 'elasticsearch_gc_time', title: 'Elasticsearch time in garbage collection', unit: 'percent' },
  { id: 'elasticsearch_cpu', title: 'Elasticsearch CPU', unit: 'percent' },
  { id: 'elasticsearch_fs', title: 'Elasticsearch data disk space', unit: 'bytes' },
  { id: 'elasticsearch_fs_usage', title: 'Elasticsearch data disk usage', unit: 'percent' },
  { id: 'elasticsearch_rejections', title: 'Elasticsearch thread pool rejections', unit: 'per_second' },
  { id: 'elasticsearch_thread_pool_queue', title: 'Elasticsearch thread pool queues', unit: 'count' },
  { id: 'elasticsearch_cache', title: 'Elasticsearch query and request cache hit ratio', unit: 'ratio' },
  { id: 'elasticsearch_http', title: 'Elasticsearch HTTP connections', unit: 'count' },
  { id: 'elasticsearch_store', title: 'Elasticsearch store size', unit: 'bytes' },
  { id: 'elasticsearch_docs', title: 'Elasticsearch documents', unit: 'count' },
  { id: 'elasticsearch_index_size', title: 'Elasticsearch index sizes', unit: 'bytes' },
  { id: 'mssql_connections', title: 'SQL Server connections and limit', unit: 'count' },
  { id: 'mssql_connections_usage', title: 'SQL Server connections in use', unit: 'percent' },
  { id: 'mssql_sessions', title: 'SQL Server sessions', unit: 'count' },
  { id: 'mssql_problem_sessions', title: 'SQL Server long-running and blocked sessions', unit: 'count' },
  { id: 'mssql_requests', title: 'SQL Server batch requests and compilations', unit: 'per_second' },
  { id: 'mssql_transactions', title: 'SQL Server transactions', unit: 'per_second' },
  { id: 'mssql_logins', title: 'SQL Server logins', unit: 'per_second' },
  { id: 'mssql_buffer_cache', title: 'SQL Server buffer cache hit ratio', unit: 'ratio' },
  { id: 'mssql_page_life', title: 'SQL Server page life expectancy', unit: 'seconds' },
  { id: 'mssql_pages', title: 'SQL Server page reads and writes', unit: 'per_second' },
  { id: 'mssql_access', title: 'SQL Server scans, index searches and page splits', unit: 'per_second' },
  { id: 'mssql_memory', title: 'SQL Server memory', unit: 'bytes' },
  { id: 'mssql_locks', title: 'SQL Server lock waits, time-outs and deadlocks', unit: 'per_second' },
  { id: 'mssql_lock_wait_time', title: 'SQL Server average lock wait', unit: 'milliseconds' },
  { id: 'mssql_database_size', title: 'SQL Server database sizes', unit: 'bytes' },
  { id: 'mssql_log_size', title: 'SQL Server transaction log space', unit: 'bytes' },
  { id: 'mssql_log_usage', title: 'SQL Server transaction log in use', unit: 'percent' },
  { id: 'mssql_replication', title: 'SQL Server Always On lag', unit: 'seconds' },
  { id: 'mssql_replication_queue', title: 'SQL Server Always On send and redo queues', unit: 'bytes' },
  {
    id: 'mssql_replication_state',
    title: 'SQL Server Always On replicas and unhealthy databases',
    unit: 'count',
  },
  { id: 'neo4j_transactions', title: 'Neo4j open, long-running and blocked transactions', unit: 'count' },
  { id: 'neo4j_transaction_rate', title: 'Neo4j commits and rollbacks', unit: 'per_second' },
  { id: 'neo4j_connections', title: 'Neo4j Bolt connections', unit: 'count' },
  { id: 'neo4j_databases', title: 'Neo4j databases online', unit: 'count' },
  { id: 'neo4j_graph', title: 'Neo4j nodes and relationships', unit: 'count' },
  { id: 'neo4j_store_size', title: 'Neo4j store sizes', unit: 'bytes' },
  { id: 'neo4j_page_cache', title: 'Neo4j page cache hit ratio', unit: 'ratio' },
  { id: 'neo4j_heap', title: 'Neo4j JVM heap', unit: 'bytes' },
  { id: 'neo4j_cluster', title: 'Neo4j cluster members and writer', unit: 'count' },
  { id: 'neo4j_replication', title: 'Neo4j replication lag in transactions', unit: 'count' },
  { id: 'cassandra_connections', title: 'Cassandra client connections', unit: 'count' },
  { id: 'cassandra_requests', title: 'Cassandra requests, reads and writes', unit: 'per_second' },
  { id: 'cassandra_latency', title: 'Cassandra CQL round trip', unit: 'milliseconds' },
  { id: 'cassandra_tasks', title: 'Cassandra pending and blocked tasks', unit: 'count' },
  { id: 'cassandra_thread_pools', title: 'Cassandra thread pools', unit: 'count' },
  { id: 'cassandra_blocked_rate', title: 'Cassandra tasks blocked', unit: 'per_second' },
  { id: 'cassandra_queries', title: 'Cassandra running and long-running queries', unit: 'count' },
  { id: 'cassandra_cache', title: 'Cassandra cache hit ratio', unit: 'ratio' },
  { id: 'cassandra_cache_size', title: 'Cassandra cache sizes', unit: 'bytes' },
  { id: 'cassandra_nodes', title: 'Cassandra nodes up and down', unit: 'count' },
  { id: 'cassandra_keyspace_size', title: 'Cassandra keyspace sizes', unit: 'bytes' },
  { id: 'cassandra_partition_size', title: 'Cassandra largest partition', unit: 'bytes' },
  { id: 'cassandra_compaction', title: 'Cassandra compaction remaining', unit: 'bytes' },
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
const REPLICA = ['replica'] as const;
const CONTAINER = ['container', 'image'] as const;

/** Every metric producers may publish, grouped by chart in chart order. */
export const METRICS = [
  // CPU: shares of CPU time over the interval, 0-100; without `core`, all cores together.
  ...chartMetrics('cpu', 'gauge', CORE, {
    'cpu.user': 'Time in user space, nice included.',
    'cpu.system': 'Time in the kernel (privileged time on Windows).',
    'cpu.iowait': 'Idle time with disk I/O outstanding (Linux).',
    'cpu.steal': 'Time the hypervisor gave to other guests (Linux).',
    'cpu.idle': 'Idle time, I/O wait excluded.',
    'cpu.interrupt': 'Time servicing hardware interrupts, part of system time (Windows).',
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
  // Windows services (Win32_Service); per service only those set to start automatically.
  ...chartMetrics('windows_services', 'gauge', ['state'], {
    'win.services': 'Services in each state: running, stopped, start_pending... (Windows).',
  }),
  ...chartMetrics('windows_services', 'gauge', undefined, {
    'win.auto_services_stopped': 'Services set to start automatically that are not running (Windows).',
  }),
  ...chartMetrics('windows_service_running', 'gauge', ['service'], {
    'win.service_running': 'Whether a service set to start automatically is running: 1 or 0 (Windows).',
  }),
  // Docker Engine containers, as `docker ps` and `docker stats` show them.
  ...chartMetrics('containers', 'gauge', ['state'], {
    'docker.containers':
      'Containers in each state: created, running, paused, restarting, removing, exited, dead.',
  }),
  ...chartMetrics('containers_running', 'gauge', CONTAINER, {
    'container.running': 'Whether the container is running: 1 or 0.',
  }),
  ...chartMetrics('containers_restarts', 'gauge', CONTAINER, {
    'container.restarts': 'Restarts done by the restart policy since the container was created.',
  }),
  ...chartMetrics('containers_cpu', 'gauge', CONTAINER, {
    'container.cpu_pct':
      'CPU use as docker stats shows it: 100 is one whole CPU, so it can pass 100 on a host with several.',
  }),
  ...chartMetrics('containers_memory', 'gauge', CONTAINER, {
    'container.mem_bytes': 'Memory in use less the inactive page cache, as docker stats shows it.',
    'container.mem_limit_bytes': 'Memory limit of a container that has one.',
  }),
  ...chartMetrics('containers_network', 'rate', CONTAINER, {
    'container.net_rx_bytes_rate': "Bytes received on all the container's interfaces.",
    'container.net_tx_bytes_rate': "Bytes sent on all the container's interfaces.",
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
  // Agentless pollers (collector/src/pollers). A database series without `database` is the whole
  // server; each target is told apart by the batch's `service`, not by a label.
  ...chartMetrics('mysql_threads', 'gauge', undefined, {
    'mysql.threads_sleeping': 'Client threads idle between statements (PROCESSLIST Command Sleep).',
  }),
  ...chartMetrics('mysql_queries', 'rate', undefined, {
    'mysql.questions_rate': 'Statements sent by clients (Questions).',
    'mysql.com_select_rate': 'SELECT statements (Com_select).',
    'mysql.com_insert_rate': 'INSERT statements (Com_insert).',
    'mysql.com_update_rate': 'UPDATE statements (Com_update).',
    'mysql.com_delete_rate': 'DELETE statements (Com_delete).',
  }),
  ...chartMetrics('mysql_sessions', 'gauge', undefined, {
    'mysql.long_queries': 'Statements running longer than the target long-query threshold.',
    'mysql.blocked_sessions': 'Sessions waiting for an InnoDB row lock another session holds.',
  }),
  ...chartMetrics('mysql_connections', 'gauge', undefined, {
    'mysql.max_connections': 'Connection limit (max_connections).',
    'mysql.max_used_connections':
      'Most connections open at once since the server started (Max_used_connections).',
  }),
  ...chartMetrics('mysql_connections_usage', 'gauge', undefined, {
    'mysql.connections_used_pct': 'Open connections as a share of max_connections.',
  }),
  ...chartMetrics('mysql_connection_rate', 'rate', undefined, {
    'mysql.connections_rate': 'Connection attempts (Connections).',
    'mysql.aborted_connects_rate': 'Failed connection attempts (Aborted_connects).',
    'mysql.aborted_clients_rate': 'Connections dropped without a proper close (Aborted_clients).',
  }),
  ...chartMetrics('mysql_transactions', 'rate', undefined, {
    'mysql.commits_rate': 'COMMIT statements (Com_commit).',
    'mysql.rollbacks_rate': 'ROLLBACK statements (Com_rollback).',
  }),
  ...chartMetrics('mysql_temp', 'rate', undefined, {
    'mysql.created_tmp_tables_rate': 'Internal temporary tables created (Created_tmp_tables).',
    'mysql.created_tmp_disk_tables_rate':
      'Internal temporary tables created on disk (Created_tmp_disk_tables).',
    'mysql.created_tmp_files_rate': 'Temporary files created (Created_tmp_files).',
  }),
  ...chartMetrics('mysql_buffer_pool_usage', 'gauge', undefined, {
    'mysql.innodb_buffer_pool_size_bytes': 'Size of the InnoDB buffer pool (innodb_buffer_pool_size).',
    'mysql.innodb_buffer_pool_data_bytes': 'Buffer pool bytes holding data (Innodb_buffer_pool_bytes_data).',
    'mysql.innodb_buffer_pool_dirty_bytes':
      'Buffer pool bytes changed but not yet written (Innodb_buffer_pool_bytes_dirty).',
  }),
  ...chartMetrics('mysql_innodb_io', 'rate', undefined, {
    'mysql.innodb_data_read_bytes_rate': 'Bytes InnoDB read from its files (Innodb_data_read).',
    'mysql.innodb_data_written_bytes_rate': 'Bytes InnoDB wrote to its files (Innodb_data_written).',
    'mysql.innodb_log_written_bytes_rate': 'Bytes written to the InnoDB redo log (Innodb_os_log_written).',
  }),
  ...chartMetrics('mysql_locks', 'rate', undefined, {
    'mysql.innodb_row_lock_waits_rate': 'Row lock waits begun (Innodb_row_lock_waits).',
    'mysql.innodb_deadlocks_rate': 'Deadlocks detected (Innodb_deadlocks, MariaDB).',
    'mysql.table_locks_waited_rate': 'Table lock requests that had to wait (Table_locks_waited).',
  }),
  ...chartMetrics('mysql_network', 'rate', undefined, {
    'mysql.bytes_received_rate': 'Bytes received from clients (Bytes_received).',
    'mysql.bytes_sent_rate': 'Bytes sent to clients (Bytes_sent).',
  }),
  ...chartMetrics('mysql_replication_state', 'gauge', undefined, {
    'mysql.replication_io_running': 'On a replica: whether the I/O thread runs, 1 or 0.',
    'mysql.replication_sql_running': 'On a replica: whether the SQL thread runs, 1 or 0.',
    'mysql.replicas': 'Replicas connected to this server (Binlog Dump threads).',
  }),
  ...chartMetrics('mysql_schema_size', 'gauge', DB, {
    'mysql.schema_size_bytes': 'Data and indexes of a schema (information_schema.TABLES).',
  }),
  ...chartMetrics('pg_connections', 'gauge', undefined, {
    'pg.connections_total': 'Client backends connected to the server (pg_stat_activity).',
    'pg.max_connections': 'Connection limit (max_connections).',
  }),
  ...chartMetrics('pg_connections_usage', 'gauge', undefined, {
    'pg.connections_used_pct': 'Client backends as a share of max_connections.',
  }),
  ...chartMetrics('pg_sessions', 'gauge', undefined, {
    'pg.sessions_active': 'Client backends running a statement.',
    'pg.sessions_idle': 'Client backends idle between transactions.',
    'pg.sessions_idle_in_transaction': 'Client backends idle inside an open transaction.',
    'pg.long_queries': 'Statements running longer than the target long-query threshold.',
    'pg.blocked_sessions': 'Client backends waiting for a lock another backend holds.',
  }),
  ...chartMetrics('pg_rows', 'rate', DB, {
    'pg.rows_returned_rate': 'Rows read by sequential and index scans (tup_returned).',
    'pg.rows_fetched_rate': 'Rows fetched by index scans (tup_fetched).',
    'pg.rows_inserted_rate': 'Rows inserted.',
    'pg.rows_updated_rate': 'Rows updated.',
    'pg.rows_deleted_rate': 'Rows deleted.',
  }),
  ...chartMetrics('pg_temp_files', 'rate', DB, {
    'pg.temp_files_rate': 'Temporary files created by queries.',
  }),
  ...chartMetrics('pg_temp_bytes', 'rate', DB, {
    'pg.temp_bytes_rate': 'Bytes written to temporary files by queries.',
  }),
  ...chartMetrics('pg_database_size', 'gauge', DB, {
    'pg.database_size_bytes': 'Disk space of a database (pg_database_size).',
  }),
  ...chartMetrics('pg_checkpoints', 'rate', undefined, {
    'pg.checkpoints_timed_rate': 'Checkpoints started by checkpoint_timeout.',
    'pg.checkpoints_requested_rate': 'Checkpoints requested: WAL size reached, or asked for.',
  }),
  ...chartMetrics('pg_buffers', 'rate', undefined, {
    'pg.buffers_checkpoint_rate': 'Buffers written by checkpoints.',
    'pg.buffers_clean_rate': 'Buffers written by the background writer.',
    'pg.buffers_backend_rate': 'Buffers written by backends themselves (before PostgreSQL 17).',
    'pg.buffers_alloc_rate': 'Buffers allocated.',
  }),
  ...chartMetrics('pg_wal', 'rate', undefined, {
    'pg.wal_bytes_rate': 'WAL bytes generated.',
  }),
  ...chartMetrics('pg_wal_records', 'rate', undefined, {
    'pg.wal_records_rate': 'WAL records generated (PostgreSQL 14 and later).',
    'pg.wal_buffers_full_rate':
      'WAL writes forced because the WAL buffers were full (PostgreSQL 14 and later).',
  }),
  ...chartMetrics('pg_replication', 'gauge', REPLICA, {
    'pg.replica_replay_lag':
      'On a primary: seconds a replica takes to replay what the primary wrote (replay_lag).',
  }),
  ...chartMetrics('pg_replication_bytes', 'gauge', REPLICA, {
    'pg.replica_lag_bytes': 'On a primary: WAL bytes a replica has not replayed yet.',
  }),
  ...chartMetrics('pg_replication_state', 'gauge', undefined, {
    'pg.in_recovery': 'Whether the server is a standby replaying WAL, 1 or 0.',
    'pg.replicas': 'Replicas streaming from this server (pg_stat_replication).',
  }),
  ...chartMetrics('service_uptime', 'gauge', undefined, {
    'pg.uptime': 'Time since the PostgreSQL server started.',
    'mysql.uptime': 'Time since the MySQL server started (Uptime).',
    'apache.uptime': 'Time since the Apache server started.',
  }),
  // Every agentless target, whatever its engine: published by the poll scheduler with each poll.
  ...chartMetrics('service_availability', 'gauge', undefined, {
    'service.up': 'Whether the poll of an agentless target reached it, 1 or 0; its mean is the availability.',
  }),
  // Nginx stub_status.
  ...chartMetrics('nginx_connections', 'gauge', undefined, {
    'nginx.connections_active': 'Open client connections, waiting ones included.',
    'nginx.connections_reading': 'Connections whose request header is being read.',
    'nginx.connections_writing': 'Connections whose response is being written.',
    'nginx.connections_waiting': 'Idle keep-alive connections.',
  }),
  ...chartMetrics('nginx_requests', 'rate', undefined, {
    'nginx.requests_rate': 'Client requests.',
    'nginx.connections_accepted_rate': 'Client connections accepted.',
    'nginx.connections_handled_rate': 'Client connections handled.',
    'nginx.connections_dropped_rate': 'Connections accepted but not handled (a resource limit was reached).',
  }),
  // Apache mod_status (?auto).
  ...chartMetrics('apache_workers', 'gauge', undefined, {
    'apache.workers_busy': 'Workers serving a request.',
    'apache.workers_idle': 'Workers waiting for a request.',
    'apache.processes': 'Child processes.',
  }),
  ...chartMetrics('apache_scoreboard', 'gauge', ['state'], {
    'apache.scoreboard': 'Worker slots in each scoreboard state: waiting, reading, sending, keepalive...',
  }),
  ...chartMetrics('apache_connections', 'gauge', undefined, {
    'apache.connections_total': 'Open connections (event MPM).',
    'apache.connections_async_writing': 'Connections writing asynchronously (event MPM).',
    'apache.connections_async_keepalive': 'Idle keep-alive connections (event MPM).',
    'apache.connections_async_closing': 'Connections closing (event MPM).',
  }),
  ...chartMetrics('apache_requests', 'rate', undefined, {
    'apache.requests_rate': 'Requests served (Total Accesses).',
  }),
  ...chartMetrics('apache_traffic', 'rate', undefined, {
    'apache.sent_bytes_rate': 'Bytes served (Total kBytes).',
  }),
  ...chartMetrics('apache_request_duration', 'gauge', undefined, {
    'apache.request_duration_ms': 'Mean time to serve a request over the interval (Total Duration).',
  }),
  ...chartMetrics('apache_cpu', 'gauge', undefined, {
    'apache.cpu_pct': 'CPU time of the Apache processes over the interval; 100 is one whole CPU.',
  }),
  // URL checks.
  ...chartMetrics('url_response_time', 'gauge', undefined, {
    'url.response_time_ms': 'Time from the request to the end of the answer, redirects included.',
  }),
  ...chartMetrics('url_availability', 'gauge', undefined, {
    'url.up': 'Whether the answer was as expected (status, keyword), 1 or 0; its mean is the availability.',
    'url.keyword_found': 'Whether the body held the keyword, 1 or 0.',
  }),
  ...chartMetrics('url_status_code', 'gauge', undefined, {
    'url.status_code': 'HTTP status of the final answer.',
  }),
  ...chartMetrics('url_certificate', 'gauge', undefined, {
    'url.cert_days_left':
      'Days until the TLS certificate of the final answer expires; negative once expired.',
  }),
  // Oracle Database (V$ and DBA_ views).
  ...chartMetrics('oracle_sessions', 'gauge', undefined, {
    'oracle.sessions_active': 'User sessions running a call (V$SESSION STATUS ACTIVE).',
    'oracle.sessions_inactive': 'User sessions idle between calls (V$SESSION STATUS INACTIVE).',
  }),
  ...chartMetrics('oracle_limits', 'gauge', undefined, {
    'oracle.sessions': 'Sessions of every kind, background ones included (V$SESSION).',
    'oracle.sessions_limit': 'Session limit (the sessions parameter).',
    'oracle.processes': 'Operating system processes of the instance (V$PROCESS).',
    'oracle.processes_limit': 'Process limit (the processes parameter).',
  }),
  ...chartMetrics('oracle_limits_usage', 'gauge', undefined, {
    'oracle.sessions_used_pct': 'Sessions as a share of the sessions parameter.',
    'oracle.processes_used_pct': 'Processes as a share of the processes parameter.',
  }),
  ...chartMetrics('oracle_problem_sessions', 'gauge', undefined, {
    'oracle.long_queries': 'User calls running longer than the target long-query threshold (LAST_CALL_ET).',
    'oracle.blocked_sessions': 'Sessions waiting for a lock another session holds (BLOCKING_SESSION).',
  }),
  ...chartMetrics('oracle_transactions', 'rate', undefined, {
    'oracle.commits_rate': 'Transactions committed (user commits).',
    'oracle.rollbacks_rate': 'Transactions rolled back (user rollbacks).',
  }),
  ...chartMetrics('oracle_calls', 'rate', undefined, {
    'oracle.executions_rate': 'Statements executed (execute count).',
    'oracle.parses_rate': 'Statements parsed, soft and hard (parse count (total)).',
    'oracle.hard_parses_rate': 'Statements parsed from scratch (parse count (hard)).',
    'oracle.user_calls_rate': 'Calls from clients: logins, parses, executes, fetches (user calls).',
    'oracle.logons_rate': 'Sessions opened (logons cumulative).',
  }),
  ...chartMetrics('oracle_io', 'rate', undefined, {
    'oracle.logical_reads_rate':
      'Blocks read from the buffer cache or consistent read (session logical reads).',
    'oracle.physical_reads_rate': 'Blocks read from disk (physical reads).',
    'oracle.physical_writes_rate': 'Blocks written to disk (physical writes).',
  }),
  ...chartMetrics('oracle_buffer_cache', 'gauge', undefined, {
    'oracle.buffer_cache_hit_ratio': 'Block reads served from the buffer cache over the interval.',
  }),
  ...chartMetrics('oracle_redo', 'rate', undefined, {
    'oracle.redo_bytes_rate': 'Redo generated (redo size).',
  }),
  ...chartMetrics('oracle_network', 'rate', undefined, {
    'oracle.bytes_received_rate': 'Bytes received from clients (bytes received via SQL*Net from client).',
    'oracle.bytes_sent_rate': 'Bytes sent to clients (bytes sent via SQL*Net to client).',
  }),
  ...chartMetrics('oracle_locks', 'rate', undefined, {
    'oracle.enqueue_waits_rate': 'Lock requests that had to wait (enqueue waits).',
    'oracle.deadlocks_rate': 'Deadlocks detected (enqueue deadlocks).',
  }),
  ...chartMetrics('oracle_waits', 'gauge', ['wait_class'], {
    'oracle.wait_class_sessions':
      'Time waited in a wait class per second of the interval: the average number of sessions waiting in it (V$SYSTEM_WAIT_CLASS, Idle left out).',
  }),
  ...chartMetrics('oracle_memory', 'gauge', undefined, {
    'oracle.sga_bytes': 'Size of the System Global Area (V$SGA).',
    'oracle.pga_allocated_bytes': 'Program Global Area memory allocated (V$PGASTAT total PGA allocated).',
  }),
  ...chartMetrics('oracle_tablespace_usage', 'gauge', ['tablespace'], {
    'oracle.tablespace_used_pct':
      'Space used as a share of what the tablespace may grow to, autoextend included (DBA_TABLESPACE_USAGE_METRICS).',
  }),
  ...chartMetrics('oracle_tablespace_size', 'gauge', ['tablespace'], {
    'oracle.tablespace_used_bytes': 'Space used in a tablespace.',
    'oracle.tablespace_size_bytes': 'Space a tablespace may grow to, autoextend included.',
  }),
  ...chartMetrics('oracle_schema_size', 'gauge', ['schema'], {
    'oracle.schema_size_bytes': 'Segments of a schema: tables, indexes, LOBs (DBA_SEGMENTS).',
  }),
  ...chartMetrics('oracle_replication', 'gauge', undefined, {
    'oracle.apply_lag': 'On a standby: seconds its data is behind the primary (V$DATAGUARD_STATS apply lag).',
    'oracle.transport_lag':
      'On a standby: seconds of redo the primary generated that it has not received (transport lag).',
  }),
  ...chartMetrics('oracle_replication_state', 'gauge', undefined, {
    'oracle.is_standby': 'Whether the database is a standby (DATABASE_ROLE other than PRIMARY), 1 or 0.',
    'oracle.standby_destinations': 'On a primary: standby destinations it ships redo to (V$ARCHIVE_DEST).',
  }),
  ...chartMetrics('service_uptime', 'gauge', undefined, {
    'oracle.uptime': 'Time since the Oracle instance started (V$INSTANCE STARTUP_TIME).',
  }),
  // MongoDB (serverStatus, replSetGetStatus, $currentOp, dbStats).
  ...chartMetrics('mongodb_connections', 'gauge', undefined, {
    'mongodb.connections_current': 'Open client connections (connections.current).',
    'mongodb.connections_available': 'Connections still available (connections.available).',
    'mongodb.connections_active': 'Client connections with an operation in progress (connections.active).',
  }),
  ...chartMetrics('mongodb_connections_usage', 'gauge', undefined, {
    'mongodb.connections_used_pct': 'Open connections as a share of the open and available ones.',
  }),
  ...chartMetrics('mongodb_connection_rate', 'rate', undefined, {
    'mongodb.connections_created_rate': 'Connections opened (connections.totalCreated).',
  }),
  ...chartMetrics('mongodb_operations', 'rate', undefined, {
    'mongodb.inserts_rate': 'Insert operations (opcounters.insert).',
    'mongodb.queries_rate': 'Queries (opcounters.query).',
    'mongodb.updates_rate': 'Update operations (opcounters.update).',
    'mongodb.deletes_rate': 'Delete operations (opcounters.delete).',
    'mongodb.getmores_rate': 'Batches fetched from open cursors (opcounters.getmore).',
    'mongodb.commands_rate': 'Commands (opcounters.command).',
    'mongodb.repl_ops_rate': 'Operations applied by replication on a secondary (opcountersRepl).',
    'mongodb.requests_rate': 'Requests received (network.numRequests).',
  }),
  ...chartMetrics('mongodb_documents', 'rate', undefined, {
    'mongodb.documents_returned_rate': 'Documents returned by queries (metrics.document.returned).',
    'mongodb.documents_inserted_rate': 'Documents inserted (metrics.document.inserted).',
    'mongodb.documents_updated_rate': 'Documents updated (metrics.document.updated).',
    'mongodb.documents_deleted_rate': 'Documents deleted (metrics.document.deleted).',
  }),
  ...chartMetrics('mongodb_latency', 'gauge', undefined, {
    'mongodb.read_latency_ms': 'Mean time of a read operation over the interval (opLatencies.reads).',
    'mongodb.write_latency_ms': 'Mean time of a write operation over the interval (opLatencies.writes).',
    'mongodb.command_latency_ms': 'Mean time of a command over the interval (opLatencies.commands).',
  }),
  ...chartMetrics('mongodb_cache', 'gauge', undefined, {
    'mongodb.cache_used_bytes': 'Bytes in the WiredTiger cache.',
    'mongodb.cache_dirty_bytes': 'Modified bytes in the WiredTiger cache not written yet.',
    'mongodb.cache_max_bytes': 'Size the WiredTiger cache may grow to.',
  }),
  ...chartMetrics('mongodb_cache_hit', 'gauge', undefined, {
    'mongodb.cache_hit_ratio':
      'Pages requested from the WiredTiger cache that were in it, over the interval.',
  }),
  ...chartMetrics('mongodb_cache_io', 'rate', undefined, {
    'mongodb.cache_read_bytes_rate': 'Bytes read from disk into the WiredTiger cache.',
    'mongodb.cache_written_bytes_rate': 'Bytes written from the WiredTiger cache to disk.',
  }),
  ...chartMetrics('mongodb_queues', 'gauge', undefined, {
    'mongodb.queued_readers': 'Operations waiting for a read lock (globalLock.currentQueue.readers).',
    'mongodb.queued_writers': 'Operations waiting for a write lock (globalLock.currentQueue.writers).',
    'mongodb.active_readers': 'Clients running a read (globalLock.activeClients.readers).',
    'mongodb.active_writers': 'Clients running a write (globalLock.activeClients.writers).',
  }),
  ...chartMetrics('mongodb_sessions', 'gauge', undefined, {
    'mongodb.long_queries': 'Operations running longer than the target long-query threshold.',
    'mongodb.blocked_sessions': 'Operations waiting for a lock (waitingForLock).',
  }),
  ...chartMetrics('mongodb_conflicts', 'rate', undefined, {
    'mongodb.write_conflicts_rate':
      'Writes retried after a conflict with another write (metrics.operation.writeConflicts).',
    'mongodb.asserts_regular_rate': 'Regular asserts raised (asserts.regular).',
    'mongodb.asserts_warning_rate': 'Warnings raised (asserts.warning).',
    'mongodb.asserts_msg_rate': 'Message asserts raised (asserts.msg).',
    'mongodb.asserts_user_rate':
      'User asserts raised: errors a client caused, such as duplicate keys (asserts.user).',
  }),
  ...chartMetrics('mongodb_network', 'rate', undefined, {
    'mongodb.network_in_bytes_rate': 'Bytes received (network.bytesIn).',
    'mongodb.network_out_bytes_rate': 'Bytes sent (network.bytesOut).',
  }),
  ...chartMetrics('mongodb_memory', 'gauge', undefined, {
    'mongodb.mem_resident_bytes': 'Resident memory of the mongod process (mem.resident).',
    'mongodb.mem_virtual_bytes': 'Virtual memory of the mongod process (mem.virtual).',
  }),
  ...chartMetrics('mongodb_cursors', 'gauge', undefined, {
    'mongodb.cursors_open': 'Cursors open on the server (metrics.cursor.open.total).',
  }),
  ...chartMetrics('mongodb_replication', 'gauge', undefined, {
    'mongodb.replication_lag': "On a secondary: seconds its last applied operation is behind the primary's.",
  }),
  ...chartMetrics('mongodb_replication', 'gauge', ['member'], {
    'mongodb.member_lag':
      "Seconds a secondary's last applied operation is behind the primary's (replSetGetStatus).",
  }),
  ...chartMetrics('mongodb_replication_state', 'gauge', undefined, {
    'mongodb.is_primary': 'Whether the server is the primary of its replica set, 1 or 0.',
    'mongodb.members': 'Members of the replica set.',
    'mongodb.members_healthy': 'Members of the replica set that answer their heartbeats (health 1).',
  }),
  ...chartMetrics('mongodb_database_size', 'gauge', DB, {
    'mongodb.database_size_bytes': 'Disk space of a database: collections and indexes (dbStats totalSize).',
  }),
  ...chartMetrics('service_uptime', 'gauge', undefined, {
    'mongodb.uptime': 'Time since the mongod process started.',
  }),
  // Elasticsearch (cluster health, node stats, cat indices, tasks).
  ...chartMetrics('elasticsearch_cluster', 'gauge', undefined, {
    'elasticsearch.cluster_status':
      'Cluster health: 0 green, 1 yellow (a replica unassigned), 2 red (a primary unassigned).',
    'elasticsearch.nodes': 'Nodes in the cluster.',
    'elasticsearch.data_nodes': 'Data nodes in the cluster.',
  }),
  ...chartMetrics('elasticsearch_shards', 'gauge', undefined, {
    'elasticsearch.shards_active': 'Shards active, primaries and replicas.',
    'elasticsearch.shards_primary_active': 'Primary shards active.',
    'elasticsearch.shards_relocating': 'Shards moving to another node.',
    'elasticsearch.shards_initializing': 'Shards being initialized.',
    'elasticsearch.shards_unassigned': 'Shards assigned to no node.',
    'elasticsearch.shards_delayed_unassigned':
      'Unassigned shards whose allocation waits for a node that left to come back.',
  }),
  ...chartMetrics('elasticsearch_shards_active', 'gauge', undefined, {
    'elasticsearch.shards_active_pct': 'Active shards as a share of all shards (active_shards_percent).',
  }),
  ...chartMetrics('elasticsearch_tasks', 'gauge', undefined, {
    'elasticsearch.pending_tasks': 'Cluster-level changes not executed yet (number_of_pending_tasks).',
    'elasticsearch.long_queries': 'Searches running longer than the target long-query threshold.',
  }),
  ...chartMetrics('elasticsearch_throughput', 'rate', undefined, {
    'elasticsearch.indexing_rate': 'Documents indexed, on primaries and replicas of every node.',
    'elasticsearch.search_queries_rate': 'Search query phases run on shards of every node.',
    'elasticsearch.search_fetches_rate': 'Search fetch phases run on shards of every node.',
  }),
  ...chartMetrics('elasticsearch_latency', 'gauge', undefined, {
    'elasticsearch.indexing_latency_ms': 'Mean time to index a document over the interval.',
    'elasticsearch.search_query_latency_ms': 'Mean time of a shard query phase over the interval.',
    'elasticsearch.search_fetch_latency_ms': 'Mean time of a shard fetch phase over the interval.',
  }),
  ...chartMetrics('elasticsearch_heap', 'gauge', ['node'], {
    'elasticsearch.jvm_heap_used_pct': "Heap in use as a share of a node's maximum heap.",
  }),
  ...chartMetrics('elasticsearch_heap_bytes', 'gauge', ['node'], {
    'elasticsearch.jvm_heap_used_bytes': 'Heap in use on a node.',
    'elasticsearch.jvm_heap_max_bytes': 'Maximum heap of a node.',
  }),
  ...chartMetrics('elasticsearch_gc', 'rate', ['node'], {
    'elasticsearch.gc_young_rate': 'Young-generation collections on a node.',
    'elasticsearch.gc_old_rate': 'Old-generation collections on a node.',
  }),
  ...chartMetrics('elasticsearch_gc_time', 'gauge', ['node'], {
    'elasticsearch.gc_time_pct': 'Share of the interval a node spent collecting garbage, young and old.',
  }),
  ...chartMetrics('elasticsearch_cpu', 'gauge', ['node'], {
    'elasticsearch.cpu_pct': "CPU use of a node's machine (os.cpu.percent).",
    'elasticsearch.process_cpu_pct': 'CPU use of the Elasticsearch process of a node (process.cpu.percent).',
  }),
  ...chartMetrics('elasticsearch_fs', 'gauge', ['node'], {
    'elasticsearch.fs_total_bytes': "Size of a node's data paths.",
    'elasticsearch.fs_available_bytes': "Space Elasticsearch may still use on a node's data paths.",
  }),
  ...chartMetrics('elasticsearch_fs_usage', 'gauge', ['node'], {
    'elasticsearch.fs_used_pct': "Space in use on a node's data paths as a share of their size.",
  }),
  ...chartMetrics('elasticsearch_rejections', 'rate', ['pool'], {
    'elasticsearch.thread_pool_rejections_rate':
      'Tasks a thread pool refused because its queue was full, on every node.',
  }),
  ...chartMetrics('elasticsearch_thread_pool_queue', 'gauge', ['pool'], {
    'elasticsearch.thread_pool_queue': "Tasks waiting in a thread pool's queue, on every node.",
  }),
  ...chartMetrics('elasticsearch_cache', 'gauge', undefined, {
    'elasticsearch.query_cache_hit_ratio': 'Query cache lookups that found an entry, over the interval.',
    'elasticsearch.request_cache_hit_ratio':
      'Shard request cache lookups that found an entry, over the interval.',
  }),
  ...chartMetrics('elasticsearch_http', 'gauge', undefined, {
    'elasticsearch.http_connections': 'Open HTTP connections to every node.',
  }),
  ...chartMetrics('elasticsearch_store', 'gauge', undefined, {
    'elasticsearch.store_size_bytes': 'Disk space of every shard, primaries and replicas.',
  }),
  ...chartMetrics('elasticsearch_docs', 'gauge', undefined, {
    'elasticsearch.docs': 'Documents in the primary shards of every index.',
  }),
  ...chartMetrics('elasticsearch_index_size', 'gauge', ['index'], {
    'elasticsearch.index_size_bytes': 'Disk space of one of the largest indices, primaries and replicas.',
  }),
  ...chartMetrics('service_uptime', 'gauge', undefined, {
    'elasticsearch.uptime': 'Time since the longest-running node of the cluster started.',
  }),
  // SQL Server, from sys.dm_os_performance_counters (per-second counters are running totals: the
  // poller takes their rate), the session and request views, DBCC SQLPERF(LOGSPACE),
  // sys.master_files and the Always On views.
  ...chartMetrics('mssql_connections', 'gauge', undefined, {
    'mssql.user_connections': 'Client connections open (General Statistics: User Connections).',
    'mssql.max_connections':
      "Connection limit: the 'user connections' setting, or @@MAX_CONNECTIONS when it is 0.",
  }),
  ...chartMetrics('mssql_connections_usage', 'gauge', undefined, {
    'mssql.connections_used_pct': 'Client connections as a share of the connection limit.',
  }),
  ...chartMetrics('mssql_sessions', 'gauge', undefined, {
    'mssql.sessions': 'User sessions (sys.dm_exec_sessions), the poller excluded.',
    'mssql.sessions_running': 'User sessions running a request.',
    'mssql.sessions_sleeping': 'User sessions idle with no open transaction.',
    'mssql.sessions_idle_in_transaction': 'User sessions idle inside an open transaction.',
  }),
  ...chartMetrics('mssql_problem_sessions', 'gauge', undefined, {
    'mssql.long_queries': 'Requests running longer than the target long-query threshold.',
    'mssql.blocked_sessions': 'Requests waiting for a lock another session holds (blocking_session_id).',
  }),
  ...chartMetrics('mssql_requests', 'rate', undefined, {
    'mssql.batch_requests_rate': 'T-SQL batches received (SQL Statistics: Batch Requests/sec).',
    'mssql.sql_compilations_rate': 'Query compilations (SQL Statistics: SQL Compilations/sec).',
    'mssql.sql_recompilations_rate': 'Statement recompilations (SQL Statistics: SQL Re-Compilations/sec).',
  }),
  ...chartMetrics('mssql_transactions', 'rate', DB, {
    'mssql.transactions_rate':
      'Transactions started (Databases: Transactions/sec); without a database, the instance.',
  }),
  ...chartMetrics('mssql_logins', 'rate', undefined, {
    'mssql.logins_rate': 'Logins started (General Statistics: Logins/sec).',
  }),
  ...chartMetrics('mssql_buffer_cache', 'gauge', undefined, {
    'mssql.buffer_cache_hit_ratio':
      'Page reads found in the buffer pool (Buffer cache hit ratio over its base).',
  }),
  ...chartMetrics('mssql_page_life', 'gauge', undefined, {
    'mssql.page_life_expectancy':
      'Seconds a page stays in the buffer pool unreferenced (Page life expectancy).',
  }),
  ...chartMetrics('mssql_pages', 'rate', undefined, {
    'mssql.page_reads_rate': 'Physical database page reads (Buffer Manager: Page reads/sec).',
    'mssql.page_writes_rate': 'Physical database page writes (Buffer Manager: Page writes/sec).',
  }),
  ...chartMetrics('mssql_access', 'rate', undefined, {
    'mssql.full_scans_rate': 'Unrestricted full scans of tables or indexes (Access Methods: Full Scans/sec).',
    'mssql.index_searches_rate': 'Index seeks and range scans (Access Methods: Index Searches/sec).',
    'mssql.page_splits_rate': 'Page splits from index pages overflowing (Access Methods: Page Splits/sec).',
  }),
  ...chartMetrics('mssql_memory', 'gauge', undefined, {
    'mssql.memory_total_bytes': 'Memory the instance has committed (Memory Manager: Total Server Memory).',
    'mssql.memory_target_bytes':
      'Memory the instance is willing to use (Memory Manager: Target Server Memory).',
  }),
  ...chartMetrics('mssql_locks', 'rate', undefined, {
    'mssql.lock_waits_rate': 'Lock requests that had to wait (Locks: Lock Waits/sec).',
    'mssql.lock_timeouts_rate': 'Lock requests that timed out (Locks: Lock Timeouts/sec).',
    'mssql.deadlocks_rate': 'Lock requests that ended in a deadlock (Locks: Number of Deadlocks/sec).',
  }),
  ...chartMetrics('mssql_lock_wait_time', 'gauge', undefined, {
    'mssql.lock_wait_avg_ms':
      'Mean wait of the lock requests that waited over the interval (Locks: Average Wait Time).',
  }),
  ...chartMetrics('mssql_database_size', 'gauge', DB, {
    'mssql.database_size_bytes': 'Data and log files of a database (sys.master_files).',
  }),
  ...chartMetrics('mssql_log_size', 'gauge', DB, {
    'mssql.log_size_bytes': 'Size of the transaction log of a database (DBCC SQLPERF(LOGSPACE)).',
    'mssql.log_used_bytes': 'Transaction log of a database in use.',
  }),
  ...chartMetrics('mssql_log_usage', 'gauge', DB, {
    'mssql.log_used_pct': 'Transaction log of a database in use, as a share of its size.',
  }),
  ...chartMetrics('mssql_replication', 'gauge', undefined, {
    'mssql.replication_lag':
      'On an Always On secondary: seconds it is behind the primary (secondary_lag_seconds).',
  }),
  ...chartMetrics('mssql_replication', 'gauge', REPLICA, {
    'mssql.replica_lag': 'On an Always On primary: seconds a secondary replica is behind it.',
  }),
  ...chartMetrics('mssql_replication_queue', 'gauge', REPLICA, {
    'mssql.replica_queue_bytes':
      'On an Always On primary: log a secondary has not received or not redone yet.',
  }),
  ...chartMetrics('mssql_replication_state', 'gauge', undefined, {
    'mssql.replicas': 'On an Always On primary: secondary replicas of its availability groups.',
    'mssql.ag_databases_not_healthy':
      'Local availability databases not healthy or with data movement suspended.',
  }),
  ...chartMetrics('service_uptime', 'gauge', undefined, {
    'mssql.uptime': 'Time since the SQL Server instance started (sqlserver_start_time).',
  }),
  // Neo4j 5 over Bolt: SHOW DATABASES, SHOW TRANSACTIONS, count store reads and, where the server
  // exposes them through dbms.queryJmx, the JVM's beans and the metrics beans (Enterprise Edition).
  ...chartMetrics('neo4j_transactions', 'gauge', undefined, {
    'neo4j.transactions_open':
      'Transactions open on the server (SHOW TRANSACTIONS), the poller own left out.',
    'neo4j.long_queries': 'Transactions whose query has run longer than the target long-query threshold.',
    'neo4j.blocked_transactions':
      'Transactions waiting for a lock another transaction holds (status Blocked by).',
  }),
  ...chartMetrics('neo4j_transaction_rate', 'rate', DB, {
    'neo4j.transactions_committed_rate': 'Transactions committed (metric transaction.committed, Enterprise).',
    'neo4j.transactions_rolled_back_rate':
      'Transactions rolled back (metric transaction.rollbacks, Enterprise).',
  }),
  ...chartMetrics('neo4j_connections', 'gauge', undefined, {
    'neo4j.connections': 'Open Bolt and HTTP connections (dbms.listConnections).',
    'neo4j.bolt_connections_running':
      'Bolt connections running a query (metric bolt.connections_running, Enterprise).',
    'neo4j.bolt_connections_idle':
      'Bolt connections between queries (metric bolt.connections_idle, Enterprise).',
  }),
  ...chartMetrics('neo4j_databases', 'gauge', undefined, {
    'neo4j.databases': 'Databases the server lists (SHOW DATABASES), the system database included.',
    'neo4j.databases_online': 'Databases whose current status is online.',
  }),
  ...chartMetrics('neo4j_databases', 'gauge', DB, {
    'neo4j.database_online': 'Whether a database is online on this server, 1 or 0.',
  }),
  ...chartMetrics('neo4j_graph', 'gauge', DB, {
    'neo4j.nodes': 'Nodes of the target database (count store).',
    'neo4j.relationships': 'Relationships of the target database (count store).',
  }),
  ...chartMetrics('neo4j_store_size', 'gauge', DB, {
    'neo4j.store_size_bytes':
      'Store files and transaction logs of a database (metric store.size.total, Enterprise).',
  }),
  ...chartMetrics('neo4j_page_cache', 'gauge', undefined, {
    'neo4j.page_cache_hit_ratio':
      'Page cache lookups served without a page fault over the interval (Enterprise).',
  }),
  ...chartMetrics('neo4j_heap', 'gauge', undefined, {
    'neo4j.heap_used_bytes': 'JVM heap in use (java.lang Memory bean).',
    'neo4j.heap_max_bytes': 'Most heap the JVM may use (server.memory.heap.max_size).',
  }),
  ...chartMetrics('neo4j_cluster', 'gauge', undefined, {
    'neo4j.cluster_members':
      'Servers hosting the target database (SHOW DATABASES rows); 1 on a single server.',
    'neo4j.writer': 'Whether this server is the writer (leader) of the target database, 1 or 0.',
  }),
  ...chartMetrics('neo4j_replication', 'gauge', undefined, {
    'neo4j.replication_lag_transactions':
      'On a server that is not the writer: transactions of the target database it has yet to apply.',
  }),
  // Apache Cassandra 4 over CQL: system.local and peers, the driver's view of the nodes and the
  // system_views virtual tables (clients, thread_pools, caches, sstable_tasks, disk_usage...).
  ...chartMetrics('cassandra_connections', 'gauge', undefined, {
    'cassandra.connections': 'CQL client connections to this node (system_views.clients).',
    'cassandra.max_connections':
      'Connection limit (native_transport_max_concurrent_connections), when one is set.',
  }),
  ...chartMetrics('cassandra_connections', 'gauge', ['user'], {
    'cassandra.user_connections': 'CQL client connections of one user.',
  }),
  ...chartMetrics('cassandra_requests', 'rate', undefined, {
    'cassandra.requests_rate': 'Client requests served (thread pool Native-Transport-Requests).',
    'cassandra.reads_rate': 'Local reads (thread pool ReadStage).',
    'cassandra.writes_rate': 'Local writes (thread pool MutationStage).',
  }),
  ...chartMetrics('cassandra_latency', 'gauge', undefined, {
    'cassandra.request_latency_ms':
      "Driver's round trip of a read of system.local, as the collector sees it.",
  }),
  ...chartMetrics('cassandra_tasks', 'gauge', undefined, {
    'cassandra.pending_tasks': 'Tasks queued in all thread pools.',
    'cassandra.blocked_tasks': 'Tasks blocked because a thread pool queue is full.',
    'cassandra.compactions_running':
      'Compactions, cleanups and other SSTable tasks running (system_views.sstable_tasks).',
  }),
  ...chartMetrics('cassandra_thread_pools', 'gauge', ['pool'], {
    'cassandra.pool_pending_tasks': 'Tasks queued in a thread pool.',
    'cassandra.pool_active_tasks': 'Tasks running in a thread pool.',
  }),
  ...chartMetrics('cassandra_blocked_rate', 'rate', undefined, {
    'cassandra.blocked_tasks_rate': 'Tasks that found a full thread pool queue (blocked_tasks_all_time).',
  }),
  ...chartMetrics('cassandra_queries', 'gauge', undefined, {
    'cassandra.queries_running': 'Requests being served (system_views.queries, 4.1 and later).',
    'cassandra.long_queries': 'Requests running longer than the target long-query threshold.',
  }),
  ...chartMetrics('cassandra_cache', 'gauge', ['cache'], {
    'cassandra.cache_hit_ratio':
      'Lookups of a cache (keys, rows, counters, chunks) served from it over the interval.',
  }),
  ...chartMetrics('cassandra_cache_size', 'gauge', ['cache'], {
    'cassandra.cache_size_bytes': 'Memory a cache holds.',
    'cassandra.cache_capacity_bytes': 'Most memory a cache may hold.',
  }),
  ...chartMetrics('cassandra_nodes', 'gauge', undefined, {
    'cassandra.nodes': 'Nodes of the cluster (system.local and system.peers).',
    'cassandra.nodes_up': 'Nodes of the local data center the driver reached.',
    'cassandra.nodes_down': 'Nodes of the local data center the driver could not reach.',
  }),
  ...chartMetrics('cassandra_keyspace_size', 'gauge', ['keyspace'], {
    'cassandra.keyspace_size_bytes':
      'Disk space of the tables of a keyspace on this node (system_views.disk_usage).',
  }),
  ...chartMetrics('cassandra_partition_size', 'gauge', undefined, {
    'cassandra.max_partition_bytes':
      'Largest partition of any table on this node (system_views.max_partition_size).',
  }),
  ...chartMetrics('cassandra_compaction', 'gauge', undefined, {
    'cassandra.compaction_remaining_bytes': 'Bytes the running compactions have still to process.',
  }),
  ...chartMetrics('service_uptime', 'gauge', undefined, {
    'neo4j.uptime': 'Time since the Neo4j JVM started (java.lang Runtime bean).',
    'cassandra.uptime': 'Time since the Cassandra node started (its gossip generation).',
  }),
];

/** Name of a catalogue metric. */
export type CatalogMetricName = (typeof METRICS)[number]['name'];

/**
 * Availability of an agentless target: the poll scheduler publishes it with every poll, 1 when the
 * poll reached the target and 0 when it failed, so thresholds and charts treat it like any metric.
 */
export const SERVICE_UP_METRIC = 'service.up' satisfies CatalogMetricName;

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
