import { describe, expect, it } from 'vitest';
import {
  CHART_IDS,
  CHARTS,
  ChartId,
  chartById,
  METRICS,
  MetricDefinition,
  metricByName,
  metricsForChart,
  TCP_STATES,
} from './metrics-catalog';
import { LABEL_KEY_RE, METRIC_NAME_RE } from './wire';

describe('metrics catalogue', () => {
  it('names every metric as a dotted lower-case name the wire accepts', () => {
    for (const m of METRICS) expect(m.name, m.name).toMatch(METRIC_NAME_RE);
  });

  it('lists each name once', () => {
    const names = METRICS.map((m) => m.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('has entries that pass the MetricDefinition schema, with label keys the wire accepts', () => {
    for (const m of METRICS) {
      expect(MetricDefinition.safeParse(m).success, m.name).toBe(true);
      for (const key of m.labels ?? []) expect(key).toMatch(LABEL_KEY_RE);
    }
  });

  it('holds no raw counters: producers turn counters into rates', () => {
    expect(METRICS.filter((m) => m.kind === 'counter')).toEqual([]);
  });

  it('gives each metric the unit of its chart', () => {
    for (const m of METRICS) expect(m.unit, m.name).toBe(chartById(m.chart)?.unit);
  });

  it('matches name suffixes to units and kinds', () => {
    for (const m of METRICS) {
      if (m.name.endsWith('_rate')) {
        expect(m.kind, m.name).toBe('rate');
        expect(['per_second', 'bytes_per_second'], m.name).toContain(m.unit);
      }
      if (m.kind === 'rate') expect(m.name, m.name).toMatch(/_rate$/);
      if (m.name.endsWith('_pct')) expect(m.unit, m.name).toBe('percent');
      if (m.name.endsWith('_bytes')) expect(m.unit, m.name).toBe('bytes');
      if (m.name.endsWith('_ratio')) expect(m.unit, m.name).toBe('ratio');
    }
  });

  it('describes every metric in a sentence', () => {
    for (const m of METRICS) expect(m.description, m.name).toMatch(/^[A-Z].*\.$/);
  });

  it('covers the Linux host metrics of the agent', () => {
    for (const name of [
      'cpu.user',
      'cpu.system',
      'cpu.iowait',
      'cpu.steal',
      'cpu.idle',
      'cpu.total',
      'load.1m',
      'load.5m',
      'load.15m',
      'mem.used_bytes',
      'mem.available_bytes',
      'mem.cached_bytes',
      'mem.buffers_bytes',
      'mem.total_bytes',
      'mem.used_pct',
      'swap.used_bytes',
      'swap.used_pct',
      'disk.size_bytes',
      'disk.used_bytes',
      'disk.used_pct',
      'disk.inodes_used_pct',
      'disk_io.read_ops_rate',
      'disk_io.write_ops_rate',
      'disk_io.read_bytes_rate',
      'disk_io.write_bytes_rate',
      'disk_io.busy_pct',
      'net.rx_bytes_rate',
      'net.tx_bytes_rate',
      'net.rx_packets_rate',
      'net.tx_packets_rate',
      'net.rx_errors_rate',
      'net.tx_errors_rate',
      'net.rx_drops_rate',
      'net.tx_drops_rate',
      'tcp.connections',
      'proc.count',
      'system.uptime',
    ]) {
      expect(metricByName(name), name).toBeDefined();
    }
  });

  it('covers the first MySQL and PostgreSQL metrics', () => {
    for (const name of [
      'mysql.threads_connected',
      'mysql.threads_running',
      'mysql.queries_rate',
      'mysql.slow_queries_rate',
      'mysql.buffer_pool_hit_ratio',
      'mysql.replication_lag',
      'pg.connections',
      'pg.xact_commit_rate',
      'pg.xact_rollback_rate',
      'pg.cache_hit_ratio',
      'pg.deadlocks_rate',
      'pg.replication_lag',
    ]) {
      expect(metricByName(name), name).toBeDefined();
    }
  });

  it('covers the Windows and Docker container metrics of the agent', () => {
    for (const name of [
      'cpu.interrupt',
      'win.processor_queue_length',
      'win.committed_bytes',
      'win.page_faults_rate',
      'win.services',
      'win.auto_services_stopped',
      'win.service_running',
      'docker.containers',
      'container.running',
      'container.restarts',
      'container.cpu_pct',
      'container.mem_bytes',
      'container.mem_limit_bytes',
      'container.net_rx_bytes_rate',
      'container.net_tx_bytes_rate',
    ]) {
      expect(metricByName(name), name).toBeDefined();
    }
    expect(metricByName('container.cpu_pct')).toMatchObject({
      labels: ['container', 'image'],
      chart: 'containers_cpu',
    });
    expect(metricByName('container.net_rx_bytes_rate')).toMatchObject({
      kind: 'rate',
      chart: 'containers_network',
    });
    expect(metricByName('docker.containers')?.labels).toEqual(['state']);
    expect(metricByName('win.service_running')?.labels).toEqual(['service']);
    expect(metricByName('win.auto_services_stopped')?.labels).toBeUndefined();
    expect(metricsForChart('containers_memory').map((m) => m.name)).toEqual([
      'container.mem_bytes',
      'container.mem_limit_bytes',
    ]);
  });

  it('labels per-core, per-mount, per-device, per-interface and per-state series', () => {
    expect(metricByName('cpu.user')?.labels).toEqual(['core']);
    expect(metricByName('disk.used_pct')?.labels).toEqual(['mount']);
    expect(metricByName('disk_io.busy_pct')?.labels).toEqual(['device']);
    expect(metricByName('net.rx_bytes_rate')?.labels).toEqual(['interface']);
    expect(metricByName('tcp.connections')?.labels).toEqual(['state']);
    expect(metricByName('mem.used_bytes')?.labels).toBeUndefined();
    expect(TCP_STATES).toContain('time_wait');
  });
});

describe('metricByName', () => {
  it('finds an entry by name', () => {
    expect(metricByName('pg.xact_commit_rate')).toMatchObject({
      unit: 'per_second',
      kind: 'rate',
      chart: 'pg_transactions',
    });
  });

  it('gives undefined for a name the catalogue does not list', () => {
    expect(metricByName('cpu.nope')).toBeUndefined();
    expect(metricByName('')).toBeUndefined();
  });
});

describe('charts', () => {
  it('has unique ids, each with a title and drawing at least one metric', () => {
    expect(new Set(CHART_IDS).size).toBe(CHARTS.length);
    for (const c of CHARTS) {
      expect(c.title.length, c.id).toBeGreaterThan(0);
      expect(metricsForChart(c.id).length, c.id).toBeGreaterThan(0);
    }
  });

  it('lists the metrics of a chart in catalogue order', () => {
    expect(metricsForChart('load').map((m) => m.name)).toEqual([
      'load.1m',
      'load.5m',
      'load.15m',
      'win.processor_queue_length',
    ]);
  });

  it('puts every metric in exactly one chart', () => {
    const drawn = CHART_IDS.flatMap((id) => metricsForChart(id));
    expect(drawn).toHaveLength(METRICS.length);
  });

  it('validates chart ids', () => {
    expect(ChartId.safeParse('cpu').success).toBe(true);
    expect(ChartId.safeParse('gpu').success).toBe(false);
    expect(chartById('gpu')).toBeUndefined();
  });
});
