import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PollerExtras } from '@flightdeck/schemas';
import { describe, expect, it } from 'vitest';
import { type PgReading, pgExtras, pgReplication, pgSamples } from './postgres-metrics';
import {
  readActivity,
  readBgwriter,
  readDatabase,
  readDatabaseSize,
  readReplica,
  readServer,
  readTableSize,
  readWal,
} from './postgres-queries';
import { outsideCatalogue, sampleValue } from './testing/catalogue';

type Rows = Record<string, unknown>;
const fixture = (name: string) =>
  JSON.parse(readFileSync(join(import.meta.dirname, '__fixtures__', name), 'utf8')) as Record<
    string,
    unknown
  >;

/** A reading from the recorded rows, as the poller builds it. */
function reading(name: string): PgReading {
  const f = fixture(name);
  return {
    server: readServer(f.server as Rows),
    databases: (f.databases as Rows[]).map(readDatabase),
    activity: ((f.activity as Rows[] | undefined) ?? []).map(readActivity),
    bgwriter: readBgwriter(f.bgwriter as Rows),
    wal: readWal(f.wal as Rows),
    replicas: [],
    sizes: f.database_sizes
      ? {
          databases: (f.database_sizes as Rows[]).map(readDatabaseSize),
          tables: (f.tables as Rows[]).map(readTableSize),
        }
      : undefined,
  };
}

const first = reading('postgres-poll-1.json');
const second = reading('postgres-poll-2.json');
const PIDS = { sleeper: 18984, waiter: 18983, holder: 18982, poller: 18981 };

describe('PostgreSQL rows', () => {
  it('reads the server, per-database counters and activity of the recorded rows', () => {
    expect(second.server).toEqual({
      version: '15.20 (Debian 15.20-0+deb12u1)',
      version_num: 150020,
      max_connections: 100,
      in_recovery: false,
      uptime_s: 2772.463221,
    });
    expect(second.databases.map((d) => d.datname)).toEqual(['postgres', 'root', 'test']);
    const waiter = second.activity.find((a) => a.pid === PIDS.waiter)!;
    expect(waiter).toMatchObject({ blocked_by: [PIDS.holder], wait_event_type: 'Lock', self: false });
    expect(second.activity.find((a) => a.self)?.pid).toBe(PIDS.poller);
  });

  it('reads a table never analysed as having no row estimate', () => {
    expect(second.sizes?.tables[0]).toEqual({
      database: 'postgres',
      schema: 'public',
      name: 'fd_fixture_rows',
      size_bytes: 122_880,
      data_bytes: 40_960,
      index_bytes: 49_152,
      rows: null,
    });
  });
});

describe('pgSamples', () => {
  it('gives gauges and no rates on a first reading', () => {
    const samples = pgSamples(first, undefined, 0, 60);
    expect(outsideCatalogue(samples)).toEqual([]);
    expect(sampleValue(samples, 'pg.max_connections')).toBe(100);
    expect(sampleValue(samples, 'pg.connections', { database: 'postgres' })).toBe(4);
    expect(samples.filter((s) => s.m.endsWith('_rate') || s.m.endsWith('_ratio'))).toEqual([]);
  });

  it('turns counters into rates per database and for the whole server', () => {
    const samples = pgSamples(second, first, 10, 2);
    expect(outsideCatalogue(samples)).toEqual([]);
    const db = { database: 'postgres' };
    expect(sampleValue(samples, 'pg.xact_commit_rate', db)).toBe(0.8);
    expect(sampleValue(samples, 'pg.rows_inserted_rate', db)).toBe(103.7);
    expect(sampleValue(samples, 'pg.rows_updated_rate', db)).toBe(10.1);
    // 4,535 of 4,640 block reads were hits.
    expect(sampleValue(samples, 'pg.cache_hit_ratio', db)).toBe(0.9774);
    expect(sampleValue(samples, 'pg.cache_hit_ratio', { database: 'root' })).toBeUndefined();
    expect(sampleValue(samples, 'pg.xact_commit_rate', { database: 'root' })).toBe(0);
    expect(sampleValue(samples, 'pg.xact_commit_rate')).toBe(0.8);
    expect(sampleValue(samples, 'pg.cache_hit_ratio')).toBe(0.9774);
    expect(sampleValue(samples, 'pg.buffers_alloc_rate')).toBe(9.4);
    expect(sampleValue(samples, 'pg.wal_bytes_rate')).toBe(30_792.4);
    expect(sampleValue(samples, 'pg.wal_records_rate')).toBe(243.1);
  });

  it('counts sessions by state, long-running statements and blocked sessions', () => {
    const samples = pgSamples(second, first, 10, 2);
    expect(sampleValue(samples, 'pg.connections_total')).toBe(4);
    expect(sampleValue(samples, 'pg.connections_used_pct')).toBe(4);
    expect(sampleValue(samples, 'pg.sessions_active')).toBe(3);
    expect(sampleValue(samples, 'pg.sessions_idle_in_transaction')).toBe(1);
    expect(sampleValue(samples, 'pg.long_queries')).toBe(2);
    expect(sampleValue(samples, 'pg.blocked_sessions')).toBe(1);
    expect(sampleValue(samples, 'pg.database_size_bytes', { database: 'postgres' })).toBe(7_830_887);
    expect(sampleValue(pgSamples(second, first, 10, 60), 'pg.long_queries')).toBe(0);
  });

  it('skips the rates of a database whose statistics were reset, and keeps the others', () => {
    const reset: PgReading = {
      ...second,
      databases: second.databases.map((d) => (d.datname === 'postgres' ? { ...d, xact_commit: 3 } : d)),
    };
    const samples = pgSamples(reset, first, 10, 60);
    expect(sampleValue(samples, 'pg.xact_commit_rate', { database: 'postgres' })).toBeUndefined();
    expect(sampleValue(samples, 'pg.xact_commit_rate', { database: 'test' })).toBe(0);
  });
});

describe('pgExtras', () => {
  const extras = pgExtras(second, 2);

  it('passes the shared schema', () => {
    expect(PollerExtras.parse(extras)).toEqual(extras);
  });

  it('lists the blocked session with the session holding its lock', () => {
    expect(extras.blocked_sessions).toHaveLength(1);
    const blocked = extras.blocked_sessions![0]!;
    expect(blocked).toMatchObject({
      id: PIDS.waiter,
      application: 'waiter',
      wait: 'Lock:transactionid',
      query: 'UPDATE fd_fixture_rows SET v = $1 WHERE id = 1',
      wait_s: 2.495,
    });
    expect(blocked.blocked_by).toEqual([
      expect.objectContaining({ id: PIDS.holder, state: 'idle in transaction', application: 'holder' }),
    ]);
  });

  it('lists long-running statements longest first, and every session but its own', () => {
    expect(extras.long_queries!.map((q) => q.id)).toEqual([PIDS.sleeper, PIDS.waiter]);
    expect(extras.long_queries![0]).toMatchObject({ query: 'SELECT pg_sleep(30)', duration_s: 2.500078 });
    expect(extras.sessions!.map((s) => s.id).sort()).toEqual([PIDS.holder, PIDS.waiter, PIDS.sleeper].sort());
    expect(extras.server).toEqual({
      version: '15.20 (Debian 15.20-0+deb12u1)',
      uptime_s: 2772,
      max_connections: 100,
    });
    expect(extras.databases?.map((d) => d.name)).toEqual(['postgres', 'root', 'test']);
  });

  it('gives a blocker that is not a client session by its id alone', () => {
    const orphan: PgReading = {
      ...second,
      activity: second.activity.map((a) => (a.pid === PIDS.waiter ? { ...a, blocked_by: [4242] } : a)),
    };
    expect(pgExtras(orphan, 2).blocked_sessions![0]!.blocked_by).toEqual([
      expect.objectContaining({ id: 4242, user: null, query: null }),
    ]);
  });
});

describe('pgReplication', () => {
  it('is standalone with no replica and not in recovery', () => {
    expect(pgReplication(second)).toMatchObject({ role: 'standalone', replicas: [] });
  });

  it('is a primary with the replicas of pg_stat_replication and their lag', () => {
    const row = {
      application_name: 'standby-1',
      client: '10.0.0.8',
      state: 'streaming',
      sync_state: 'async',
      lag_bytes: 8192,
      lag_s: 0.0123,
    };
    const primary: PgReading = { ...second, replicas: [readReplica(row)] };
    expect(pgReplication(primary)).toEqual({
      role: 'primary',
      state: null,
      lag_s: null,
      source: null,
      last_error: null,
      replicas: [
        {
          name: 'standby-1',
          address: '10.0.0.8',
          state: 'streaming',
          sync_state: 'async',
          lag_s: 0.012,
          lag_bytes: 8192,
        },
      ],
    });
    const samples = pgSamples(primary, undefined, 0, 60);
    expect(sampleValue(samples, 'pg.replicas')).toBe(1);
    expect(sampleValue(samples, 'pg.replica_lag_bytes', { replica: 'standby-1' })).toBe(8192);
  });

  it('is a replica with its lag and source when in recovery', () => {
    const standby: PgReading = {
      ...second,
      server: { ...second.server, in_recovery: true },
      replicas: undefined,
      standby: { lag_s: 3.25, state: 'streaming', source: '10.0.0.7' },
    };
    expect(pgReplication(standby)).toMatchObject({
      role: 'replica',
      lag_s: 3.25,
      state: 'streaming',
      source: '10.0.0.7',
    });
    const samples = pgSamples(standby, undefined, 0, 60);
    expect(sampleValue(samples, 'pg.replication_lag')).toBe(3.25);
    expect(sampleValue(samples, 'pg.in_recovery')).toBe(1);
  });
});
