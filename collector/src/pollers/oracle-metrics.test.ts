import { PollerExtras } from '@flightdeck/schemas';
import { describe, expect, it } from 'vitest';
import * as f from './__fixtures__/oracle/poll';
import { type OracleReading, oracleExtras, oracleReplication, oracleSamples } from './oracle-metrics';
import {
  INSTANCE_SQL,
  INSTANCE_SQL_12C,
  intervalSeconds,
  readCounts,
  readDatabase,
  readDataguard,
  readInstance,
  readLimits,
  readMemory,
  readSchemaSize,
  readSession,
  readStandby,
  readSysstat,
  readTableSize,
  readTablespace,
  readWaitClasses,
  SYSSTAT_NAMES,
  SYSSTAT_SQL,
} from './oracle-queries';
import { outsideCatalogue, sampleValue } from './testing/catalogue';

const base = {
  instance: readInstance(f.instance),
  database: readDatabase(f.database),
  limits: readLimits(f.parameters),
  counts: readCounts(f.counts),
};
const first: OracleReading = {
  ...base,
  stats: readSysstat(f.sysstat1),
  sessions: [],
  waits: readWaitClasses(f.waitClasses1),
  memory: readMemory(f.memory),
  standbys: f.standbys.map(readStandby),
  tablespaces: f.tablespaces.map(readTablespace),
  sizes: {
    schemas: f.schemaSizes.map(readSchemaSize),
    tables: f.tableSizes.map((r) => readTableSize(r, 'FREEPDB1')),
  },
};
const second: OracleReading = {
  ...base,
  stats: readSysstat(f.sysstat2),
  sessions: f.sessions2.map(readSession),
  waits: readWaitClasses(f.waitClasses2),
  memory: readMemory(f.memory),
  standbys: [],
};
const LONG_QUERY_S = 30;

describe('Oracle rows', () => {
  it('reads V$INSTANCE with the SID SYS_CONTEXT gives as text', () => {
    expect(base.instance).toEqual({
      instance_name: 'FREE',
      host_name: '8c2f7a9d41b3',
      version: '23.5.0.24.07',
      status: 'OPEN',
      database_status: 'ACTIVE',
      uptime_s: 5432,
      self_sid: 45,
      container: 'FREEPDB1',
    });
  });

  it('reads the limits from V$PARAMETER text, an unset fal_server as none', () => {
    expect(base.limits).toEqual({ sessions_limit: 472, processes_limit: 300, fal_server: null });
    expect(readLimits([{ NAME: 'fal_server', VALUE: 'orcl_a' }]).fal_server).toBe('orcl_a');
  });

  it('reads V$SYSSTAT by lower-case name and asks for exactly the statistics it uses', () => {
    const stats = readSysstat(f.sysstat2);
    expect(stats.get('bytes sent via sql*net to client')).toBe(24_051_200);
    expect(stats.get('parse count (hard)')).toBe(5210);
    expect(stats.size).toBe(SYSSTAT_NAMES.length);
    for (const name of SYSSTAT_NAMES) expect(SYSSTAT_SQL).toContain(`'${name}'`);
  });

  it('falls back to VERSION on 12c, which has no VERSION_FULL', () => {
    expect(INSTANCE_SQL).toContain('VERSION_FULL AS VERSION');
    expect(INSTANCE_SQL_12C).not.toContain('VERSION_FULL');
    expect(INSTANCE_SQL_12C).toContain('VERSION, STATUS');
  });

  it('reads Data Guard intervals as seconds, and an empty value as not computed', () => {
    expect(intervalSeconds('+00 00:00:02')).toBe(2);
    expect(intervalSeconds('+00 00:01:07')).toBe(67);
    expect(intervalSeconds('+01 02:00:00.5')).toBe(93_600.5);
    expect(intervalSeconds(null)).toBeNull();
    expect(intervalSeconds('')).toBeNull();
    expect(intervalSeconds('9')).toBeNull();
    expect(readDataguard(f.dataguardStats)).toEqual({
      apply_lag_s: 67,
      transport_lag_s: 2,
      source: 'ORCL_A',
    });
    expect(readDataguard([])).toBeNull();
  });

  it('names a standby destination by its DB_UNIQUE_NAME, or by the parameter when that is NONE', () => {
    expect(f.archiveDests.map(readStandby)).toEqual([
      {
        name: 'ORCL_B',
        destination: 'orcl_b',
        status: 'VALID',
        transmit_mode: 'ASYNCHRONOUS',
        error: null,
      },
      {
        name: 'LOG_ARCHIVE_DEST_3',
        destination: 'orcl_c',
        status: 'ERROR',
        transmit_mode: 'ASYNCHRONOUS',
        error: 'ORA-12541: Cannot connect. No listener at host 10.0.0.9 port 1521.',
      },
    ]);
  });

  it('reads table sizes with the schema as owner and a missing row count as null', () => {
    expect(readTableSize(f.tableSizes[0]!, 'FREEPDB1')).toEqual({
      database: 'FREEPDB1',
      schema: 'FD',
      name: 'T',
      size_bytes: 26_214_400,
      data_bytes: 25_165_824,
      index_bytes: 1_048_576,
      rows: 100_000,
    });
    expect(readTableSize(f.tableSizes[2]!, 'FREEPDB1').rows).toBeNull();
  });
});

describe('oracleSamples', () => {
  it('gives gauges, sizes and no rates on a first reading', () => {
    const samples = oracleSamples(first, undefined, 0, LONG_QUERY_S);
    expect(outsideCatalogue(samples)).toEqual([]);
    expect(sampleValue(samples, 'oracle.sessions')).toBe(62);
    expect(sampleValue(samples, 'oracle.sessions_limit')).toBe(472);
    expect(sampleValue(samples, 'oracle.sessions_used_pct')).toBe(13.14);
    expect(sampleValue(samples, 'oracle.processes_used_pct')).toBe(23.67);
    expect(sampleValue(samples, 'oracle.uptime')).toBe(5432);
    expect(sampleValue(samples, 'oracle.sga_bytes')).toBe(1_610_612_736);
    expect(sampleValue(samples, 'oracle.is_standby')).toBe(0);
    expect(sampleValue(samples, 'oracle.standby_destinations')).toBe(0);
    expect(sampleValue(samples, 'oracle.tablespace_used_pct', { tablespace: 'SYSAUX' })).toBe(1.53);
    expect(sampleValue(samples, 'oracle.tablespace_used_bytes', { tablespace: 'USERS' })).toBe(27_787_264);
    expect(sampleValue(samples, 'oracle.schema_size_bytes', { schema: 'FD' })).toBe(26_214_400);
    expect(samples.filter((s) => s.m.endsWith('_rate') || s.m.endsWith('_ratio'))).toEqual([]);
    expect(samples.filter((s) => s.m === 'oracle.wait_class_sessions')).toEqual([]);
  });

  it('turns the statistics into rates over the interval', () => {
    const samples = oracleSamples(second, first, 10, LONG_QUERY_S);
    expect(outsideCatalogue(samples)).toEqual([]);
    expect(sampleValue(samples, 'oracle.commits_rate')).toBe(2.5);
    expect(sampleValue(samples, 'oracle.rollbacks_rate')).toBe(0.1);
    expect(sampleValue(samples, 'oracle.executions_rate')).toBe(42);
    expect(sampleValue(samples, 'oracle.parses_rate')).toBe(15);
    expect(sampleValue(samples, 'oracle.hard_parses_rate')).toBe(1);
    expect(sampleValue(samples, 'oracle.logical_reads_rate')).toBe(2000);
    expect(sampleValue(samples, 'oracle.physical_reads_rate')).toBe(10);
    expect(sampleValue(samples, 'oracle.redo_bytes_rate')).toBe(51_200);
    expect(sampleValue(samples, 'oracle.bytes_sent_rate')).toBe(5120);
    expect(sampleValue(samples, 'oracle.bytes_received_rate')).toBe(1024);
    expect(sampleValue(samples, 'oracle.enqueue_waits_rate')).toBe(0.2);
    expect(sampleValue(samples, 'oracle.deadlocks_rate')).toBe(0);
  });

  it("computes the buffer cache hit ratio with Oracle's formula, else from logical and physical reads", () => {
    // 3,000 db block gets and 17,000 consistent gets from the cache, 80 of them read from disk.
    expect(sampleValue(oracleSamples(second, first, 10, LONG_QUERY_S), 'oracle.buffer_cache_hit_ratio')).toBe(
      0.996,
    );
    const only = (r: OracleReading): OracleReading => ({
      ...r,
      stats: new Map([...r.stats].filter(([k]) => k === 'session logical reads' || k === 'physical reads')),
    });
    // 20,000 logical reads, 100 physical.
    expect(
      sampleValue(
        oracleSamples(only(second), only(first), 10, LONG_QUERY_S),
        'oracle.buffer_cache_hit_ratio',
      ),
    ).toBe(0.995);
  });

  it('gives the average sessions waiting in each wait class', () => {
    const samples = oracleSamples(second, first, 10, LONG_QUERY_S);
    const wait = (c: string) => sampleValue(samples, 'oracle.wait_class_sessions', { wait_class: c });
    // 1,000 hundredths of a second in 10 s: one session waited the whole interval.
    expect(wait('Application')).toBe(1);
    expect(wait('User I/O')).toBe(0.5);
    expect(wait('Commit')).toBe(0.03);
    expect(wait('Other')).toBe(0);
    expect(wait('Idle')).toBeUndefined();
  });

  it('counts user sessions, long calls and blocked sessions without its own session', () => {
    const samples = oracleSamples(second, first, 10, LONG_QUERY_S);
    expect(sampleValue(samples, 'oracle.sessions_active')).toBe(2);
    expect(sampleValue(samples, 'oracle.sessions_inactive')).toBe(2);
    expect(sampleValue(samples, 'oracle.long_queries')).toBe(2);
    expect(sampleValue(samples, 'oracle.blocked_sessions')).toBe(1);
  });

  it('gives no rate for a statistic that went backwards (the instance restarted)', () => {
    const samples = oracleSamples(first, second, 10, LONG_QUERY_S);
    expect(sampleValue(samples, 'oracle.commits_rate')).toBeUndefined();
    expect(sampleValue(samples, 'oracle.buffer_cache_hit_ratio')).toBeUndefined();
  });

  it('publishes the role and both lags on a standby', () => {
    const standby: OracleReading = {
      ...second,
      database: readDatabase(f.standbyDatabase),
      standbys: undefined,
      dataguard: readDataguard(f.dataguardStats),
    };
    const samples = oracleSamples(standby, undefined, 0, LONG_QUERY_S);
    expect(outsideCatalogue(samples)).toEqual([]);
    expect(sampleValue(samples, 'oracle.is_standby')).toBe(1);
    expect(sampleValue(samples, 'oracle.apply_lag')).toBe(67);
    expect(sampleValue(samples, 'oracle.transport_lag')).toBe(2);
    expect(sampleValue(samples, 'oracle.standby_destinations')).toBeUndefined();
    expect(oracleReplication(standby)).toEqual({
      role: 'replica',
      state: 'READ ONLY WITH APPLY',
      lag_s: 67,
      source: 'ORCL_A',
      last_error: null,
      replicas: [],
    });
  });
});

describe('oracleExtras', () => {
  const extras = oracleExtras(second, LONG_QUERY_S);

  it('passes the shared schema', () => {
    expect(PollerExtras.parse(extras)).toEqual(extras);
  });

  it('lists the blocked session with the session holding its row lock', () => {
    expect(extras.blocked_sessions).toEqual([
      {
        id: 102,
        user: 'FD',
        database: 'freepdb1',
        client: 'app1.example.net',
        application: 'node@app1.example.net (TNS V1-V3)',
        state: 'ACTIVE',
        wait: 'enq: TX - row lock contention',
        duration_s: 35,
        query: "UPDATE FD.T SET V = 'waiting' WHERE ID = 1",
        wait_s: 35.217,
        blocked_by: [expect.objectContaining({ id: 101, state: 'INACTIVE', wait: null, duration_s: 40 })],
      },
    ]);
  });

  it('lists long-running calls and sessions, longest first, without its own session', () => {
    expect(extras.long_queries!.map((q) => q.id)).toEqual([103, 102]);
    expect(extras.sessions!.map((s) => s.id)).toEqual([104, 103, 101, 102]);
    // An idle wait (PL/SQL lock timer) is not shown as what the session waits for.
    expect(extras.long_queries![0]).toMatchObject({
      wait: null,
      query: 'BEGIN DBMS_SESSION.SLEEP(120); END;',
    });
    expect(extras.server).toEqual({ version: '23.5.0.24.07', uptime_s: 5432, max_connections: 472 });
    expect(extras.replication).toMatchObject({ role: 'standalone', replicas: [] });
  });

  it('lists schemas and tables when sizes were read', () => {
    const sized = oracleExtras(first, LONG_QUERY_S);
    expect(sized.databases).toEqual([
      { name: 'FD', size_bytes: 26_214_400 },
      { name: 'HR', size_bytes: 1_572_864 },
    ]);
    expect(sized.tables!.map((t) => `${t.schema}.${t.name}`)).toEqual([
      'FD.T',
      'HR.EMPLOYEES',
      'HR.JOB_HISTORY',
    ]);
    expect(extras.databases).toBeUndefined();
  });

  it('sees a primary by its standby destinations, with the last error of one', () => {
    const primary: OracleReading = { ...second, standbys: f.archiveDests.map(readStandby) };
    expect(oracleReplication(primary)).toEqual({
      role: 'primary',
      state: null,
      lag_s: null,
      source: null,
      last_error: 'ORA-12541: Cannot connect. No listener at host 10.0.0.9 port 1521.',
      replicas: [
        {
          name: 'ORCL_B',
          address: 'orcl_b',
          state: 'VALID',
          sync_state: 'ASYNCHRONOUS',
          lag_s: null,
          lag_bytes: null,
        },
        {
          name: 'LOG_ARCHIVE_DEST_3',
          address: 'orcl_c',
          state: 'ERROR',
          sync_state: 'ASYNCHRONOUS',
          lag_s: null,
          lag_bytes: null,
        },
      ],
    });
    expect(
      sampleValue(oracleSamples(primary, undefined, 0, LONG_QUERY_S), 'oracle.standby_destinations'),
    ).toBe(2);
  });
});
