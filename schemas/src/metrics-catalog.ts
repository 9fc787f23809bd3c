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
