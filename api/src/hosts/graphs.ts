import {
  CHARTS,
  type ChartConfigs,
  type ChartDefinition,
  type ChartId,
  type GraphCategory,
  METRICS,
  type MetricUnit,
  type ServerGraph,
} from '@flightdeck/schemas';

/** The server page's category of each catalogue chart. */
export const CHART_CATEGORIES: Readonly<Record<ChartId, GraphCategory>> = {
  cpu: 'cpu',
  load: 'cpu',
  memory: 'memory',
  memory_usage: 'memory',
  swap: 'memory',
  paging: 'memory',
  filesystem: 'disk',
  filesystem_space: 'disk',
  filesystem_inodes: 'disk',
  disk_io: 'disk',
  disk_throughput: 'disk',
  disk_busy: 'disk',
  network: 'network',
  network_packets: 'network',
  network_errors: 'network',
  tcp: 'network',
  processes: 'processes',
  uptime: 'system',
  windows_services: 'system',
  windows_service_running: 'system',
  containers: 'containers',
  containers_running: 'containers',
  containers_restarts: 'containers',
  containers_cpu: 'containers',
  containers_memory: 'containers',
  containers_network: 'containers',
  mysql_threads: 'database',
  mysql_queries: 'database',
  mysql_buffer_pool: 'database',
  mysql_replication: 'database',
  pg_connections: 'database',
  pg_transactions: 'database',
  pg_cache: 'database',
  pg_replication: 'database',
  mysql_sessions: 'database',
  mysql_connections: 'database',
  mysql_connections_usage: 'database',
  mysql_connection_rate: 'database',
  mysql_transactions: 'database',
  mysql_temp: 'database',
  mysql_buffer_pool_usage: 'database',
  mysql_innodb_io: 'database',
  mysql_locks: 'database',
  mysql_network: 'database',
  mysql_replication_state: 'database',
  mysql_schema_size: 'database',
  pg_connections_usage: 'database',
  pg_sessions: 'database',
  pg_rows: 'database',
  pg_temp_files: 'database',
  pg_temp_bytes: 'database',
  pg_database_size: 'database',
  pg_checkpoints: 'database',
  pg_buffers: 'database',
  pg_wal: 'database',
  pg_wal_records: 'database',
  pg_replication_bytes: 'database',
  pg_replication_state: 'database',
  service_uptime: 'system',
  // Web servers and URLs have no category of their own yet.
  nginx_connections: 'network',
  nginx_requests: 'network',
  apache_workers: 'network',
  apache_scoreboard: 'network',
  apache_connections: 'network',
  apache_requests: 'network',
  apache_traffic: 'network',
  apache_request_duration: 'network',
  apache_cpu: 'network',
  url_response_time: 'network',
  url_availability: 'network',
  url_status_code: 'network',
  url_certificate: 'network',
};

/** Every metric name of the catalogue, for one `latest` call that finds the charts a host has. */
export const ALL_CATALOGUE_METRICS: readonly string[] = METRICS.map((m) => m.name);

export function graphOf(chart: ChartDefinition): ServerGraph {
  return { graph_id: chart.id, title: chart.title, category: CHART_CATEGORIES[chart.id], unit: chart.unit };
}

/** The catalogue charts, in order, that draw at least one of `metrics`. */
export function graphsWithData(metrics: ReadonlySet<string>): ServerGraph[] {
  const charts = new Set<string>();
  for (const m of METRICS) if (metrics.has(m.name)) charts.add(m.chart);
  return CHARTS.filter((c) => charts.has(c.id)).map(graphOf);
}

const SUFFIXES: Partial<Record<MetricUnit, string>> = {
  percent: '%',
  bytes_per_second: '/s',
  per_second: '/s',
  seconds: 's',
  milliseconds: 'ms',
  celsius: '°C',
};

/** Chart configs that follow from the catalogue unit: suffix, precision, bytes conversion, bounds. */
export function chartConfigs(chart: ChartDefinition): Partial<ChartConfigs> {
  const unit: MetricUnit = chart.unit;
  // Counts are whole numbers, except load averages.
  const whole = (unit === 'count' && chart.id !== 'load') || unit === 'seconds';
  const configs: Partial<ChartConfigs> = { precision: whole ? 0 : 2 };
  const suffix = SUFFIXES[unit];
  if (suffix !== undefined) configs.suffix = suffix;
  if (unit === 'bytes' || unit === 'bytes_per_second') configs.converted_value = 'bytes';
  // A container's CPU is counted as docker stats counts it (100 per CPU), so it has no upper bound.
  if (unit === 'percent')
    Object.assign(configs, chart.id === 'containers_cpu' ? { min: 0 } : { min: 0, max: 100 });
  if (unit === 'ratio') Object.assign(configs, { min: 0, max: 1 });
  return configs;
}
