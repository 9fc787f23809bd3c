import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PollerExtras } from '@flightdeck/schemas';
import PreloginPayload from 'tedious/lib/prelogin-payload';
import { describe, expect, it } from 'vitest';
import { averageOverInterval, CNTR_TYPE, counterKey } from './mssql-counters';
import { type MssqlReading, mssqlExtras, mssqlSamples } from './mssql-metrics';
import { parsePreloginResponse, preloginPacket } from './mssql-prelogin';
import {
  readCounters,
  readDatabaseFiles,
  readLogSpace,
  readReplica,
  readServer,
  readSessions,
  readTableSize,
} from './mssql-queries';
import { mssqlReplication } from './mssql-replication';
import { outsideCatalogue, sampleValue } from './testing/catalogue';

type Rows = Record<string, unknown>[];
const fixture = (name: string) =>
  JSON.parse(readFileSync(join(import.meta.dirname, '__fixtures__', 'mssql', name), 'utf8')) as Record<
    string,
    unknown
  >;

function reading(f: Record<string, unknown>): MssqlReading {
  const r: MssqlReading = {
    server: readServer((f.server as Rows)[0]!),
    uptime_s: (f.uptime as { uptime_s: number }[])[0]!.uptime_s,
    counters: readCounters(f.counters as Rows),
    sessions: readSessions(f.sessions as Rows),
    logSpace: (f.log_space as Rows).map(readLogSpace),
    replicas: null,
  };
  if (f.database_files) r.files = (f.database_files as Rows).map(readDatabaseFiles);
  if (f.table_sizes) r.tables = (f.table_sizes as Rows).map(readTableSize);
  return r;
}

const first = reading(fixture('poll-1.json'));
const second = reading(fixture('poll-2.json'));
const IDS = { app: 52, holder: 53, waiter: 54, sleeper: 55, report: 56 };

describe('SQL Server rows', () => {
  it('reads the server properties, the first line of @@VERSION and the connection limit', () => {
    expect(first.server).toEqual({
      product_version: '16.0.4135.4',
      product_level: 'RTM',
      product_update_level: 'CU14',
      edition: 'Developer Edition (64-bit)',
      engine_edition: 3,
      server_name: 'SQLPROD01',
      hadr_enabled: false,
      version: 'Microsoft SQL Server 2022 (RTM-CU14) (KB5038325) - 16.0.4135.4 (X64)',
      self_id: 61,
      // "user connections" 0: the instance's own maximum.
      max_connections: 32767,
      database: 'sales',
    });
    expect(readServer({ user_connections_setting: 500, max_connections: 32767 }).max_connections).toBe(500);
  });

  it('reads the counters of a default and a named instance by object, counter and instance', () => {
    const c = first.counters.get(counterKey('Buffer Manager', 'Page life expectancy'));
    expect(c).toEqual({
      object: 'Buffer Manager',
      counter: 'Page life expectancy',
      instance: '',
      value: 8734,
      type: CNTR_TYPE.RAWCOUNT,
    });
    // bigint columns arrive as strings.
    expect(first.counters.get(counterKey('SQL Statistics', 'Batch Requests/sec'))?.value).toBe(9_876_543);
    const named = readCounters([
      {
        object_name: 'MSSQL$SALES:Locks',
        counter_name: 'Lock Waits/sec',
        instance_name: '_Total',
        cntr_value: '77',
        cntr_type: CNTR_TYPE.BULK_COUNT,
      },
    ]);
    expect(named.get(counterKey('Locks', 'Lock Waits/sec', '_Total'))?.value).toBe(77);
  });

  it('lists a session with several MARS requests once, with its longest request', () => {
    const report = second.sessions.filter((s) => s.id === IDS.report);
    expect(report).toHaveLength(1);
    expect(report[0]).toMatchObject({ elapsed_ms: 12, query: 'SELECT COUNT(*) FROM dbo.customers' });
  });

  it('reads DBCC SQLPERF(LOGSPACE) rows and file sizes in bytes', () => {
    expect(
      readLogSpace({
        'Database Name': 'sales',
        'Log Size (MB)': 1024,
        'Log Space Used (%)': 86.25,
        Status: 0,
      }),
    ).toEqual({ database: 'sales', log_size_bytes: 1_073_741_824, log_used_pct: 86.25 });
    expect(first.files?.find((f) => f.name === 'sales')).toEqual({
      name: 'sales',
      state: 'ONLINE',
      data_bytes: 53_687_091_200,
      log_bytes: 1_073_741_824,
    });
  });
});

describe('mssqlSamples', () => {
  it('gives gauges, the buffer cache ratio over its base and no rates on a first reading', () => {
    const samples = mssqlSamples(first, undefined, 0, 60);
    expect(outsideCatalogue(samples)).toEqual([]);
    expect(sampleValue(samples, 'mssql.user_connections')).toBe(14);
    expect(sampleValue(samples, 'mssql.page_life_expectancy')).toBe(8734);
    expect(sampleValue(samples, 'mssql.memory_total_bytes')).toBe(6_442_450_944);
    expect(sampleValue(samples, 'mssql.buffer_cache_hit_ratio')).toBe(0.997);
    expect(sampleValue(samples, 'mssql.max_connections')).toBe(32767);
    expect(sampleValue(samples, 'mssql.uptime')).toBe(1_209_600);
    expect(samples.filter((s) => s.m.endsWith('_rate') || s.m === 'mssql.lock_wait_avg_ms')).toEqual([]);
  });

  it('turns the per-second running totals into rates over the interval', () => {
    const samples = mssqlSamples(second, first, 60, 60);
    expect(outsideCatalogue(samples)).toEqual([]);
    expect(sampleValue(samples, 'mssql.batch_requests_rate')).toBe(500);
    expect(sampleValue(samples, 'mssql.sql_compilations_rate')).toBe(30);
    expect(sampleValue(samples, 'mssql.sql_recompilations_rate')).toBe(0.333);
    expect(sampleValue(samples, 'mssql.logins_rate')).toBe(0.5);
    expect(sampleValue(samples, 'mssql.transactions_rate')).toBe(300);
    expect(sampleValue(samples, 'mssql.transactions_rate', { database: 'sales' })).toBe(290);
    expect(sampleValue(samples, 'mssql.transactions_rate', { database: 'tempdb' })).toBe(9);
    expect(
      sampleValue(samples, 'mssql.transactions_rate', { database: 'mssqlsystemresource' }),
    ).toBeUndefined();
    expect(sampleValue(samples, 'mssql.page_reads_rate')).toBe(30);
    expect(sampleValue(samples, 'mssql.page_writes_rate')).toBe(20);
    // _Total, not the Key lock instance.
    expect(sampleValue(samples, 'mssql.lock_waits_rate')).toBe(2);
    expect(sampleValue(samples, 'mssql.lock_timeouts_rate')).toBe(0);
    expect(sampleValue(samples, 'mssql.deadlocks_rate')).toBe(0.017);
    expect(sampleValue(samples, 'mssql.full_scans_rate')).toBe(30);
    expect(sampleValue(samples, 'mssql.index_searches_rate')).toBe(10_000);
    expect(sampleValue(samples, 'mssql.page_splits_rate')).toBe(4);
    // 15,000 ms of lock waits over the 120 waits of the interval.
    expect(sampleValue(samples, 'mssql.lock_wait_avg_ms')).toBe(125);
  });

  it('counts sessions, long-running and blocked requests and connection use', () => {
    const samples = mssqlSamples(second, first, 60, 60);
    expect(sampleValue(samples, 'mssql.sessions')).toBe(5);
    expect(sampleValue(samples, 'mssql.sessions_running')).toBe(3);
    expect(sampleValue(samples, 'mssql.sessions_sleeping')).toBe(1);
    expect(sampleValue(samples, 'mssql.sessions_idle_in_transaction')).toBe(1);
    expect(sampleValue(samples, 'mssql.long_queries')).toBe(2);
    expect(sampleValue(samples, 'mssql.blocked_sessions')).toBe(1);
    expect(sampleValue(samples, 'mssql.connections_used_pct')).toBe(0.05);
  });

  it('gives each database its size and its transaction log use', () => {
    const samples = mssqlSamples(first, undefined, 0, 60);
    expect(sampleValue(samples, 'mssql.database_size_bytes', { database: 'sales' })).toBe(54_760_833_024);
    expect(sampleValue(samples, 'mssql.log_size_bytes', { database: 'sales' })).toBe(1_073_741_824);
    expect(sampleValue(samples, 'mssql.log_used_pct', { database: 'sales' })).toBe(86.25);
    expect(sampleValue(samples, 'mssql.log_used_bytes', { database: 'sales' })).toBe(926_102_323);
  });

  it('gives no rate for a running total that went backwards (a restart)', () => {
    const samples = mssqlSamples(first, second, 60, 60);
    expect(sampleValue(samples, 'mssql.batch_requests_rate')).toBeUndefined();
    expect(sampleValue(samples, 'mssql.lock_wait_avg_ms')).toBeUndefined();
  });

  it('reads each counter by its cntr_type: a snapshot is never turned into a rate', () => {
    const retyped = (m: MssqlReading, type: number): MssqlReading => {
      const counters = new Map(m.counters);
      const k = counterKey('SQL Statistics', 'Batch Requests/sec');
      counters.set(k, { ...counters.get(k)!, type });
      return { ...m, counters };
    };
    const samples = mssqlSamples(
      retyped(second, CNTR_TYPE.RAWCOUNT),
      retyped(first, CNTR_TYPE.RAWCOUNT),
      60,
      60,
    );
    expect(sampleValue(samples, 'mssql.batch_requests_rate')).toBeUndefined();
    // A fraction whose base is 0 has no value yet.
    const counters = new Map(first.counters);
    const base = counterKey('Buffer Manager', 'Buffer cache hit ratio base');
    counters.set(base, { ...counters.get(base)!, value: 0 });
    expect(
      sampleValue(mssqlSamples({ ...first, counters }, undefined, 0, 60), 'mssql.buffer_cache_hit_ratio'),
    ).toBeUndefined();
  });

  it('gives no average lock wait for an interval without lock waits', () => {
    expect(
      averageOverInterval(
        second.counters,
        second.counters,
        'Locks',
        'Average Wait Time (ms)',
        'Average Wait Time Base',
        '_Total',
      ),
    ).toBeUndefined();
  });
});

describe('mssqlExtras', () => {
  it('lists sessions longest first, long-running requests and the blocked request with its blocker', () => {
    const extras = mssqlExtras(second, 60);
    expect(PollerExtras.safeParse(extras).success).toBe(true);
    expect(extras.server).toEqual({
      version: 'Microsoft SQL Server 2022 (RTM-CU14) (KB5038325) - 16.0.4135.4 (X64)',
      uptime_s: 1_209_660,
      max_connections: 32767,
    });
    expect(extras.sessions?.map((s) => s.id)).toEqual([
      IDS.holder,
      IDS.waiter,
      IDS.sleeper,
      IDS.app,
      IDS.report,
    ]);
    expect(extras.long_queries?.map((s) => s.id)).toEqual([IDS.waiter, IDS.sleeper]);
    expect(extras.long_queries?.[1]).toEqual({
      id: IDS.sleeper,
      user: 'etl_user',
      database: 'sales',
      client: '10.20.0.40',
      application: 'SSIS-Load',
      state: 'suspended',
      wait: 'WAITFOR',
      duration_s: 72.004,
      query: "WAITFOR DELAY '00:02:00'",
    });
    expect(extras.blocked_sessions).toHaveLength(1);
    const blocked = extras.blocked_sessions![0]!;
    expect(blocked).toMatchObject({ id: IDS.waiter, wait: 'LCK_M_U', wait_s: 84.21, duration_s: 84.215 });
    expect(blocked.blocked_by).toEqual([
      {
        id: IDS.holder,
        user: 'app_user',
        database: 'sales',
        client: '10.20.0.16',
        application: 'Microsoft JDBC Driver for SQL Server',
        state: 'sleeping',
        wait: null,
        duration_s: 95,
        query: "BEGIN TRAN;\nUPDATE dbo.orders SET status = N'held' WHERE id = 1;",
      },
    ]);
    expect(extras.replication).toMatchObject({ role: 'standalone', replicas: [] });
    expect(extras.databases).toBeUndefined();
  });

  it('lists database and table sizes when they were read', () => {
    const extras = mssqlExtras(first, 60);
    expect(PollerExtras.safeParse(extras).success).toBe(true);
    expect(extras.databases).toContainEqual({ name: 'sales', size_bytes: 54_760_833_024 });
    expect(extras.tables?.[0]).toEqual({
      database: 'sales',
      schema: 'dbo',
      name: 'orders',
      size_bytes: 2_147_483_648,
      data_bytes: 1_610_612_736,
      index_bytes: 530_579_456,
      rows: 12_000_000,
    });
  });

  it('names a blocker that is not a user session by its id only', () => {
    const orphan = second.sessions.map((s) => (s.id === IDS.waiter ? { ...s, blocking_id: 7 } : s));
    const extras = mssqlExtras({ ...second, sessions: orphan }, 60);
    expect(extras.blocked_sessions?.[0]?.blocked_by[0]).toMatchObject({ id: 7, user: null, query: null });
  });
});

describe('Always On', () => {
  const primary = (fixture('hadr-primary.json').replicas as Rows).map(readReplica);
  const secondary = (fixture('hadr-secondary.json').replicas as Rows).map(readReplica);

  it('on a primary lists each secondary replica with its state, lag and queues', () => {
    expect(mssqlReplication(primary)).toEqual({
      role: 'primary',
      state: null,
      lag_s: null,
      source: null,
      last_error: null,
      replicas: [
        {
          name: 'SQLPROD02',
          address: null,
          state: 'SYNCHRONIZED',
          sync_state: 'SYNCHRONOUS_COMMIT',
          lag_s: 0,
          lag_bytes: 12_288,
        },
        {
          name: 'SQLDR01',
          address: null,
          state: 'SYNCHRONIZING',
          sync_state: 'ASYNCHRONOUS_COMMIT',
          lag_s: 42,
          lag_bytes: 2_686_976,
        },
      ],
    });
    const samples = mssqlSamples({ ...first, replicas: primary }, undefined, 0, 60);
    expect(outsideCatalogue(samples)).toEqual([]);
    expect(sampleValue(samples, 'mssql.replicas')).toBe(2);
    expect(sampleValue(samples, 'mssql.ag_databases_not_healthy')).toBe(0);
    expect(sampleValue(samples, 'mssql.replica_lag', { replica: 'SQLDR01' })).toBe(42);
    expect(sampleValue(samples, 'mssql.replica_queue_bytes', { replica: 'SQLDR01' })).toBe(2_686_976);
    expect(sampleValue(samples, 'mssql.replication_lag')).toBeUndefined();
  });

  it('on a secondary gives its least synchronized state, its lag and a suspended database', () => {
    expect(mssqlReplication(secondary)).toEqual({
      role: 'replica',
      state: 'NOT SYNCHRONIZING',
      lag_s: 38,
      source: 'SQLPROD01',
      last_error: 'inventory: data movement suspended (SUSPEND_FROM_USER)',
      replicas: [],
    });
    const samples = mssqlSamples({ ...first, replicas: secondary }, undefined, 0, 60);
    expect(sampleValue(samples, 'mssql.replicas')).toBe(0);
    expect(sampleValue(samples, 'mssql.ag_databases_not_healthy')).toBe(1);
    expect(sampleValue(samples, 'mssql.replication_lag')).toBe(38);
  });

  it('publishes no availability group figures where HADR is off', () => {
    const samples = mssqlSamples(first, undefined, 0, 60);
    expect(samples.filter((s) => /replica|ag_/.test(s.m))).toEqual([]);
  });
});

describe('PRELOGIN', () => {
  const answers = fixture('prelogin-response.json');

  it("reads SQL Server's answer: its version and what it says about encryption", () => {
    expect(parsePreloginResponse(Buffer.from(answers.encryption_off as string, 'hex'))).toEqual({
      engine: 'mssql',
      encryption: 'off',
      version: '16.0.4135.4',
    });
    expect(parsePreloginResponse(Buffer.from(answers.encryption_required as string, 'hex'))).toMatchObject({
      encryption: 'required',
    });
  });

  it('agrees with the driver on the fixture and on the message it sends', () => {
    const answer = Buffer.from(answers.encryption_off as string, 'hex');
    const driver = new PreloginPayload(answer.subarray(8));
    expect(driver.version).toEqual({ major: 16, minor: 0, build: 4135, subbuild: 4 });
    expect(driver.encryptionString).toBe('OFF');
    for (const encrypt of [true, false]) {
      const packet = preloginPacket(encrypt);
      expect(packet[0]).toBe(0x12);
      expect(packet.readUInt16BE(2)).toBe(packet.length);
      expect(new PreloginPayload(packet.subarray(8)).encryptionString).toBe(encrypt ? 'ON' : 'OFF');
    }
  });

  it('waits for a whole packet and refuses what is not one', () => {
    const answer = Buffer.from(answers.encryption_off as string, 'hex');
    expect(parsePreloginResponse(answer.subarray(0, 20))).toBeUndefined();
    expect(parsePreloginResponse(Buffer.from('HTTP/1.1 400 Bad Request\r\n'))).toBeNull();
    expect(parsePreloginResponse(Buffer.from([0x04, 0x01, 0x00, 0x0a, 0, 0, 1, 0, 0x00, 0x00]))).toBeNull();
  });
});
