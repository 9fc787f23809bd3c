import { metricByName, type ServiceStatusData } from '@flightdeck/schemas';
import { describe, expect, it } from 'vitest';
import { DATABASE_SERVICES, isDatabaseService, tabsOf, tileMetricsOf } from './engines';
import { databaseTiles, usageColor } from './tiles';

const t = (key: string, options?: Record<string, unknown>) =>
  options
    ? `${key}(${Object.entries(options)
        .map(([k, v]) => `${k}=${String(v)}`)
        .join(',')})`
    : key;

const status = (service: string, figures: Record<string, number>): ServiceStatusData => ({
  id: 7,
  server_id: 3,
  service,
  name: null,
  target: '127.0.0.1:5432',
  status: 'up',
  message: null,
  last_sample_ts: 1_700_000_000_000,
  version: '16.4',
  uptime_s: 3600,
  interval_s: 10,
  figures,
});

const byKey = (tiles: ReturnType<typeof databaseTiles>) => new Map(tiles.map((tile) => [tile.key, tile]));

describe('database services', () => {
  it('treats the database engines as databases and the host, web and URL services as not', () => {
    for (const code of DATABASE_SERVICES) expect(isDatabaseService(code)).toBe(true);
    for (const code of ['linux', 'windows', 'nginx', 'apache', 'url', undefined, null, '']) {
      expect(isDatabaseService(code)).toBe(false);
    }
  });

  it("reads every engine's tiles from metrics the catalogue lists", () => {
    for (const service of DATABASE_SERVICES) {
      const m = tileMetricsOf(service);
      const names = [
        m.connections,
        m.maxConnections,
        m.connectionsPct,
        m.activeSessions,
        m.cacheHitRatio,
        m.replicationLag,
        m.longQueries,
        m.blockedSessions,
        ...m.throughput.metrics,
      ];
      for (const name of names) if (name !== null) expect(metricByName(name), name).toBeDefined();
    }
  });
});

describe('tabsOf', () => {
  it('offers only the tabs the engine answers', () => {
    expect(tabsOf('postgresql')).toEqual(['process', 'tables', 'health']);
    expect(tabsOf('mssql')).toEqual(['process', 'tables', 'health']);
    expect(tabsOf('mongodb')).toEqual(['process', 'replication']);
    expect(tabsOf('oracle')).toEqual([]);
    expect(tabsOf('toString')).toEqual([]);
  });
});

describe('databaseTiles', () => {
  it('shows PostgreSQL connections against the limit, transactions per second and the counts', () => {
    const tiles = byKey(
      databaseTiles(
        status('postgresql', {
          'pg.connections_total': 12,
          'pg.max_connections': 100,
          'pg.connections_used_pct': 12,
          'pg.sessions_active': 3,
          'pg.xact_commit_rate': 40.5,
          'pg.xact_rollback_rate': 1.5,
          'pg.cache_hit_ratio': 0.998,
          'pg.long_queries': 1,
          'pg.blocked_sessions': 0,
        }),
        t,
        'en',
      ),
    );
    expect(tiles.get('connections')?.value).toBe('database.tiles.ofLimit(value=12,limit=100)');
    expect(tiles.get('connections')?.progress).toBe(12);
    expect(tiles.get('connections')?.color).toBe('teal');
    expect(tiles.get('activeSessions')?.value).toBe('3');
    expect(tiles.get('throughput')?.label).toBe('database.tiles.tps');
    expect(tiles.get('throughput')?.value).toBe('42');
    expect(tiles.get('cacheHitRatio')?.value).toBe('99.8%');
    expect(tiles.get('replicationLag')?.value).toBe('database.tiles.noReplica');
    expect(tiles.get('longQueries')?.color).toBe('orange');
    expect(tiles.get('blockedSessions')?.color).toBeUndefined();
  });

  it('shows MySQL queries per second and a replica lag', () => {
    const tiles = byKey(
      databaseTiles(
        status('mysql', {
          'mysql.threads_connected': 95,
          'mysql.max_connections': 100,
          'mysql.questions_rate': 7.25,
          'mysql.replication_lag': 125,
          'mysql.blocked_sessions': 2,
        }),
        t,
        'en',
      ),
    );
    expect(tiles.get('throughput')?.label).toBe('database.tiles.qps');
    expect(tiles.get('throughput')?.value).toBe('7.25');
    // Without the share among the figures it is worked out from the two counts.
    expect(tiles.get('connections')?.progress).toBe(95);
    expect(tiles.get('connections')?.color).toBe('red');
    expect(tiles.get('replicationLag')?.value).toBe('2 min 5 sec');
    expect(tiles.get('blockedSessions')?.color).toBe('red');
  });

  it('shows a dash for every figure the service has not sent', () => {
    const tiles = databaseTiles(status('postgresql', {}), t, 'en');
    expect(tiles).toHaveLength(7);
    const values = byKey(tiles);
    for (const key of [
      'activeSessions',
      'throughput',
      'cacheHitRatio',
      'longQueries',
      'blockedSessions',
    ] as const) {
      expect(values.get(key)?.value, key).toBe('—');
    }
    expect(values.get('connections')?.value).toBe('—');
    expect(values.get('connections')?.progress).toBeUndefined();
  });

  it('reads SQL Server under its own metric names', () => {
    const tiles = byKey(
      databaseTiles(
        status('mssql', { 'mssql.sessions_running': 4, 'mssql.batch_requests_rate': 12.5 }),
        t,
        'en',
      ),
    );
    expect(tiles.get('activeSessions')?.value).toBe('4');
    expect(tiles.get('throughput')?.value).not.toBe('—');
  });

  it('leaves out the tiles of figures an engine does not have', () => {
    const keys = databaseTiles(status('cassandra', { 'cassandra.connections': 3 }), t, 'en').map(
      (x) => x.key,
    );
    expect(keys).toContain('connections');
    expect(keys).not.toContain('blockedSessions');
    expect(keys).not.toContain('replicationLag');
    expect(keys).not.toContain('cacheHitRatio');
  });

  it('colours connection usage red from 90%, yellow from 75%', () => {
    expect([50, 75, 89.9, 90].map(usageColor)).toEqual(['teal', 'yellow', 'yellow', 'red']);
  });
});
