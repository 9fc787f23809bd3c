import type { MetricBatch } from '@flightdeck/schemas';
import { describe, expect, it } from 'vitest';
import { parseQuestdbConfig } from './index';
import {
  appendRows,
  chartSql,
  createTableSql,
  type IlpSink,
  latestSql,
  parseTimestamp,
  type QuestRow,
  retentionCutoff,
  senderConfig,
  shapeChart,
  shapeLatest,
} from './questdb';
import { planGrid } from './sqlite';

const T0 = Date.UTC(2024, 0, 1);
const iso = (ms: number) => new Date(ms).toISOString().replace('T', ' ').replace('Z', '000');

describe('QuestDB store, without a server', () => {
  it('configures the sender for ILP over HTTP without asking the server its protocol version', () => {
    expect(senderConfig('http://127.0.0.1:9000', 10_000)).toBe(
      'http::addr=127.0.0.1:9000;protocol_version=2;auto_flush=off;request_timeout=6000;retry_timeout=6000;',
    );
    expect(senderConfig('https://u:p%3B@db.example')).toContain('https::addr=db.example:9000;');
    expect(senderConfig('https://u:p%3B@db.example')).toContain('username=u;password=p;;;');
    expect(() => senderConfig('tcp://db:9009')).toThrow(/http/);
  });

  it('creates a WAL table partitioned by day that deduplicates on the series and ts', () => {
    expect(createTableSql('metrics')).toBe(
      'CREATE TABLE IF NOT EXISTS metrics (ts TIMESTAMP, tenant SYMBOL, host SYMBOL, service SYMBOL, metric SYMBOL, ' +
        'labels SYMBOL, value DOUBLE) TIMESTAMP(ts) PARTITION BY DAY WAL DEDUP UPSERT KEYS(ts, tenant, host, service, metric, labels)',
    );
  });

  it('samples by the grid step from the grid start with FILL(NULL), quoting every literal', () => {
    const q = {
      series: [
        { tenant: 'acme', host: 'db1', metric: ['cpu.user', 'cpu.system'] },
        { tenant: 'acme', host: 'db2', service: "o'brien", metric: 'cpu.user' },
      ],
      start: T0 / 1000 + 30,
      end: T0 / 1000 + 3600,
      step: 300,
      agg: 'max' as const,
    };
    const grid = planGrid(q, 1000);
    expect(grid).toEqual({ widthMs: 300_000, firstMs: T0, count: 12 });
    expect(chartSql('metrics', q, grid)).toBe(
      'SELECT ts, tenant, host, service, metric, labels, max(value) AS value FROM metrics WHERE ' +
        "((tenant = 'acme' AND host = 'db1' AND metric IN ('cpu.user', 'cpu.system')) OR " +
        "(tenant = 'acme' AND host = 'db2' AND service = 'o''brien' AND metric IN ('cpu.user'))) " +
        "AND ts >= '2024-01-01T00:00:00.000Z' AND ts < '2024-01-01T01:00:00.000Z' " +
        "SAMPLE BY 300s FROM '2024-01-01T00:00:00.000Z' TO '2024-01-01T01:00:00.000Z' FILL(NULL) ALIGN TO CALENDAR",
    );
    expect(latestSql('metrics', { tenant: 'acme', host: 'db1', metric: 'disk.used_pct' })).toBe(
      "SELECT ts, tenant, host, service, metric, labels, value FROM metrics WHERE (tenant = 'acme' AND host = 'db1' " +
        "AND metric IN ('disk.used_pct')) LATEST ON ts PARTITION BY tenant, host, service, metric, labels",
    );
  });

  it('reads timestamps without a zone as UTC', () => {
    expect(parseTimestamp('2024-01-01 00:05:00.123456')).toBe(T0 + 300_123);
    expect(parseTimestamp('2024-01-01T00:05:00Z')).toBe(T0 + 300_000);
    expect(parseTimestamp(new Date(T0))).toBe(T0);
  });

  it('shapes sampled rows into the chart contract, nulls where empty, labels filtered', () => {
    const q = {
      series: [{ tenant: 'acme', host: 'db1', metric: ['disk.used_pct', 'cpu.user'], labels: undefined }],
      start: T0 / 1000,
      end: T0 / 1000 + 180,
      step: 60,
    };
    const row = (
      offset: number,
      metric: string,
      labels: string | null,
      value: number | string | null,
    ): QuestRow => ({
      ts: iso(T0 + offset),
      tenant: 'acme',
      host: 'db1',
      service: null,
      metric,
      labels,
      value,
    });
    const rows = [
      row(0, 'cpu.user', null, 5),
      row(60_000, 'cpu.user', null, null),
      row(120_000, 'cpu.user', null, '7'),
      row(0, 'disk.used_pct', 'mount=/var', 70),
      row(60_000, 'disk.used_pct', 'mount=/', 40),
    ];
    const chart = shapeChart(rows, q, planGrid(q, 1000));
    expect(chart).toEqual({
      configs: { is_dynamic: false, timer_task: 60, precision: 2, step: 60 },
      x_values: [T0 / 1000, T0 / 1000 + 60, T0 / 1000 + 120],
      y_axis: ['disk.used_pct{mount=/}', 'disk.used_pct{mount=/var}', 'cpu.user'],
      y_values: {
        'disk.used_pct{mount=/}': [null, 40, null],
        'disk.used_pct{mount=/var}': [70, null, null],
        'cpu.user': [5, null, 7],
      },
    });
    const onlyVar = shapeChart(
      rows,
      { ...q, series: [{ ...q.series[0]!, labels: { mount: '/var' } }] },
      planGrid(q, 1000),
    );
    expect(onlyVar.y_axis).toEqual(['disk.used_pct{mount=/var}']);
    expect(shapeChart([], q, planGrid(q, 1000)).y_axis).toEqual([]);

    const twoHosts = { ...q, series: [...q.series, { tenant: 'acme', host: 'db2', metric: 'cpu.user' }] };
    expect(
      shapeChart([rows[0]!, { ...rows[0]!, host: 'db2', value: 9 }], twoHosts, planGrid(q, 1000)).y_values,
    ).toEqual({
      'db1:cpu.user': [5, null, null],
      'db2:cpu.user': [9, null, null],
    });
  });

  it('shapes LATEST ON rows into latest samples', () => {
    const rows: QuestRow[] = [
      {
        ts: iso(T0),
        tenant: 'acme',
        host: 'db1',
        service: 'mysql',
        metric: 'mysql.threads_running',
        labels: null,
        value: 3,
      },
      {
        ts: iso(T0),
        tenant: 'acme',
        host: 'db1',
        service: null,
        metric: 'disk.used_pct',
        labels: 'mount=/',
        value: 40,
      },
    ];
    expect(
      shapeLatest(rows, { tenant: 'acme', host: 'db1', metric: ['mysql.threads_running', 'disk.used_pct'] }),
    ).toEqual([
      { host: 'db1', service: 'mysql', metric: 'mysql.threads_running', labels: {}, ts: T0, value: 3 },
      { host: 'db1', metric: 'disk.used_pct', labels: { mount: '/' }, ts: T0, value: 40 },
    ]);
  });

  it('builds one ILP row per sample, symbols before the value, sample ts over batch ts', async () => {
    const calls: string[] = [];
    const sink: IlpSink = {
      table(n) {
        calls.push(`table ${n}`);
        return sink;
      },
      symbol(n, v) {
        calls.push(`${n}=${v}`);
        return sink;
      },
      floatColumn(n, v) {
        calls.push(`${n}:${v}`);
        return sink;
      },
      at(ts, unit) {
        calls.push(`at ${ts} ${unit}`);
      },
    };
    const batch: MetricBatch = {
      v: 1,
      tenant: 'acme',
      host: 'db1',
      source: 'poller',
      service: 'pg-5432',
      ts: T0,
      samples: [
        { m: 'pg.xact_commit_rate', v: 12.5 },
        { m: 'disk.used_pct', l: { mount: '/', dev: 'sda' }, v: 40, t: T0 - 1_000 },
      ],
    };
    expect(await appendRows(sink, 'metrics', [batch])).toBe(2);
    expect(calls).toEqual([
      'table metrics',
      'tenant=acme',
      'host=db1',
      'service=pg-5432',
      'metric=pg.xact_commit_rate',
      'value:12.5',
      `at ${T0} ms`,
      'table metrics',
      'tenant=acme',
      'host=db1',
      'service=pg-5432',
      'metric=disk.used_pct',
      'labels=dev=sda,mount=/',
      'value:40',
      `at ${T0 - 1_000} ms`,
    ]);
  });

  it('drops only whole day partitions older than the retention', () => {
    expect(retentionCutoff(T0 + 7 * 86_400_000 + 5_000, 7)).toBe(T0);
    expect(retentionCutoff(T0 + 7 * 86_400_000 - 5_000, 7)).toBe(T0 - 86_400_000);
  });

  it('reads METRICS_STORE questdb config strings', () => {
    expect(
      parseQuestdbConfig('questdb:http::addr=questdb:9000;pg=questdb:8812;pg_password=secret;table=m1'),
    ).toEqual({
      httpUrl: 'http://questdb:9000',
      pg: { host: 'questdb', port: 8812, user: 'admin', password: 'secret', database: 'qdb' },
      table: 'm1',
    });
    expect(parseQuestdbConfig('questdb:https::addr=db.example;username=ingest;password=pw').httpUrl).toBe(
      'https://ingest:pw@db.example',
    );
    expect(parseQuestdbConfig('questdb:http::addr=10.0.0.5:9000').pg).toMatchObject({
      host: '10.0.0.5',
      port: 8812,
    });
    expect(() => parseQuestdbConfig('questdb:http::addr=a:9000;bogus=1')).toThrow(/unknown key "bogus"/);
    expect(() => parseQuestdbConfig('questdb:tcp::addr=a:9009')).toThrow(/expected/);
  });
});
