import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CommandReply,
  type CommandRequest,
  DbHealthData,
  TableCountersData,
  TableDefinitionData,
  type TableInfo,
} from '@flightdeck/schemas';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { readCounters, readLogSpace, readReplica, readServer, readSessions } from '../pollers/mssql-queries';
import { freePort } from '../pollers/testing/net';
import { answerDbInspect, INSPECTOR_FACTORIES } from './index';
import { mssqlHealth } from './mssql-health';
import {
  bySize,
  columnType,
  IN_DATABASE,
  readColumn,
  readDatabaseHealth,
  readIndexes,
  readTableInfo,
  TABLE_COUNTS_SQL,
  tableCounterValues,
} from './mssql-sql';
import { tableCounters } from './shared';

type Row = Record<string, unknown>;
const fixture = (name: string) =>
  JSON.parse(
    readFileSync(join(import.meta.dirname, '..', 'pollers', '__fixtures__', 'mssql', name), 'utf8'),
  ) as Record<string, unknown>;

const logger = pino({ level: 'silent' });

describe('SQL Server tables', () => {
  const f = fixture('inspect-tables.json');
  const tables: TableInfo[] = [...(f.sales as Row[]), ...(f.inventory as Row[])]
    .map(readTableInfo)
    .sort(bySize);

  it('lists tables and views of every database largest first, sizes from 8 KB pages', () => {
    expect(tables.map((t) => `${t.database}.${t.schema}.${t.name}`)).toEqual([
      'sales.dbo.orders',
      'inventory.dbo.stock',
      'sales.dbo.customers',
      'sales.audit.events',
      'sales.dbo.v_open_orders',
    ]);
    expect(tables[0]).toEqual({
      database: 'sales',
      schema: 'dbo',
      name: 'orders',
      type: 'table',
      engine: null,
      rows: 12_000_000,
      data_bytes: 1_610_612_736,
      index_bytes: 550_502_400,
      size_bytes: 2_181_038_080,
    });
    expect(tables.at(-1)).toMatchObject({ type: 'view', rows: null, size_bytes: null });
  });
});

describe('SQL Server table definition', () => {
  const f = fixture('inspect-definition.json');

  it('spells column types as SQL Server scripts them', () => {
    const types = (f.columns as Row[]).map(columnType);
    expect(types).toEqual([
      'int',
      'int',
      'nvarchar(20)',
      'decimal(12,2)',
      'datetime2(3)',
      'nvarchar(max)',
      'phone',
      'float',
      'numeric(26,2)',
      'varbinary(max)',
    ]);
    expect(columnType({ type_name: 'float', precision: 24 })).toBe('float(24)');
    expect(columnType({ type_name: 'char', max_length: 10 })).toBe('char(10)');
  });

  it('reads defaults, identity, computed columns, comments and the primary key', () => {
    const columns = (f.columns as Row[]).map(readColumn);
    expect(columns[0]).toEqual({
      name: 'id',
      type: 'int',
      nullable: false,
      default: 'IDENTITY(1,1)',
      primary: true,
      comment: null,
    });
    expect(columns[2]).toMatchObject({ name: 'status', default: "(N'new')", primary: false });
    expect(columns[5]).toMatchObject({ nullable: true, comment: 'Free text from the customer service' });
    expect(columns[8]).toMatchObject({ name: 'line_total', default: 'AS ([total]*(1.1))' });
  });

  it('groups index columns in key order, with the index kind and size', () => {
    const indexes = readIndexes(f.indexes as Row[]);
    expect(indexes).toEqual([
      {
        name: 'PK_orders',
        columns: ['id'],
        unique: true,
        primary: true,
        method: 'CLUSTERED',
        size_bytes: 1_610_612_736,
      },
      {
        name: 'IX_orders_customer_created',
        columns: ['customer_id', 'created_at'],
        unique: false,
        primary: false,
        method: 'NONCLUSTERED',
        size_bytes: 393_216_000,
      },
      {
        name: 'UX_orders_status_total',
        columns: ['status', 'total'],
        unique: true,
        primary: false,
        method: 'NONCLUSTERED',
        size_bytes: 131_072_000,
      },
      {
        name: 'NCCI_orders',
        columns: ['customer_id', 'total'],
        unique: false,
        primary: false,
        method: 'NONCLUSTERED COLUMNSTORE',
        size_bytes: 26_214_400,
      },
    ]);
    const data = {
      table: { database: 'sales', schema: 'dbo', name: 'orders' },
      type: 'table',
      columns: (f.columns as Row[]).map(readColumn),
      indexes,
      ddl: null,
    };
    expect(TableDefinitionData.safeParse(data).success).toBe(true);
  });
});

describe('SQL Server table counters', () => {
  const f = fixture('inspect-counters.json');
  const now = 1_700_000_000_000;

  it('gives sizes, scans, row operations and statistics age as the schema counts them', () => {
    const counters = tableCounters(
      tableCounterValues(
        now,
        f.sizes as Row,
        { scans: f.scans as Row, operations: f.operations as Row },
        f.stats as Row,
      ),
    );
    expect(counters).toEqual([
      { key: 'rows', unit: 'count', value: 12_000_000 },
      { key: 'data_bytes', unit: 'bytes', value: 1_610_612_736 },
      { key: 'index_bytes', unit: 'bytes', value: 550_502_400 },
      { key: 'size_bytes', unit: 'bytes', value: 2_181_038_080 },
      { key: 'free_bytes', unit: 'bytes', value: 19_922_944 },
      { key: 'seq_scans', unit: 'count', value: 42 },
      { key: 'index_scans', unit: 'count', value: 1_873_421 },
      { key: 'rows_inserted', unit: 'count', value: 125_000 },
      { key: 'rows_updated', unit: 'count', value: 48_210 },
      { key: 'rows_deleted', unit: 'count', value: 310 },
      { key: 'rows_modified_since_analyze', unit: 'count', value: 17_342 },
      { key: 'last_analyze', unit: 'timestamp', value: now - 86_400_000 },
      { key: 'created_at', unit: 'timestamp', value: now - 31_536_000_000 },
      { key: 'updated_at', unit: 'timestamp', value: now - 3_500 },
    ]);
    const data = { ts: now, table: { database: 'sales', schema: 'dbo', name: 'orders' }, counters };
    expect(TableCountersData.safeParse(data).success).toBe(true);
  });

  it('leaves out the counters of a section the login may not read', () => {
    const keys = tableCounters(tableCounterValues(now, f.sizes as Row, undefined, undefined)).map(
      (c) => c.key,
    );
    expect(keys).toEqual(['rows', 'data_bytes', 'index_bytes', 'size_bytes', 'free_bytes', 'created_at']);
  });

  it('keeps a table never updated since the instance started as a counter without a value', () => {
    const counters = tableCounters(
      tableCounterValues(
        now,
        f.sizes as Row,
        { scans: { table_scans: '0', index_scans: '0', updated_age_ms: null } },
        undefined,
      ),
    );
    expect(counters.find((c) => c.key === 'updated_at')).toEqual({
      key: 'updated_at',
      unit: 'timestamp',
      value: null,
    });
    expect(counters.find((c) => c.key === 'seq_scans')?.value).toBe(0);
  });
});

describe('SQL Server health', () => {
  const poll = fixture('poll-2.json');
  const f = fixture('inspect-health.json');
  const base = {
    server: readServer((poll.server as Row[])[0]!),
    uptime_s: 1_209_660,
    counters: readCounters(poll.counters as Row[]),
    sessions: readSessions(poll.sessions as Row[]),
    replicas: null,
    databases: f.databases as Row[],
    logSpace: (poll.log_space as Row[]).map(readLogSpace),
    tableCounts: f.table_counts as Row[],
    long_query_s: 60,
  };
  const check = (data: DbHealthData, name: string) => data.checks.find((c) => c.check === name);

  it('judges the instance and every database with the shared thresholds', () => {
    const data = mssqlHealth(base, 1_700_000_000_000);
    expect(DbHealthData.safeParse(data).success).toBe(true);
    expect(data.status).toBe('critical');
    expect(check(data, 'connections_usage')).toMatchObject({ status: 'ok', value: 0 });
    // 989,454,321 page lookups, 1,236,367 of them physical reads.
    expect(check(data, 'cache_hit_ratio')).toMatchObject({ status: 'ok', value: 0.9988 });
    expect(check(data, 'long_queries')).toMatchObject({ status: 'warning', value: 2 });
    expect(check(data, 'long_queries')?.detail).toContain('the longest 84 s');
    expect(check(data, 'blocked_sessions')).toMatchObject({ status: 'warning', value: 1 });
    // 8 deadlocks in 14 days is under one a day.
    expect(check(data, 'deadlocks')).toMatchObject({ status: 'ok', value: 8 });
    expect(check(data, 'deadlocks')?.detail).toBe(
      '8 deadlock(s) in the 14 days since the instance started, 0.024 an hour.',
    );
    expect(check(data, 'replication_state')).toMatchObject({ status: 'ok', value: 0 });
    expect(check(data, 'uptime')).toMatchObject({ status: 'ok', value: 1_209_660 });
    expect(data.checks.map((c) => c.status).slice(0, 2)).toEqual(['warning', 'warning']);
  });

  it('puts a suspect database first, then an offline one and a log nearly full', () => {
    const data = mssqlHealth(base, 1_700_000_000_000);
    expect(data.databases.map((d) => [d.name, d.status])).toEqual([
      ['legacy', 'critical'],
      ['archive', 'warning'],
      ['sales', 'warning'],
      ['master', 'ok'],
      ['model', 'ok'],
      ['msdb', 'ok'],
      ['tempdb', 'ok'],
    ]);
    expect(data.databases.find((d) => d.name === 'sales')).toEqual({
      name: 'sales',
      status: 'warning',
      size_bytes: 54_760_833_024,
      connections: 4,
      cache_hit_ratio: null,
      commits: null,
      rollbacks: null,
      deadlocks: null,
      temp_bytes: null,
      transaction_id_age: null,
      tables: 42,
    });
    // An offline database cannot be counted: its tables are unknown.
    expect(data.databases.find((d) => d.name === 'archive')?.tables).toBeNull();
    expect(readDatabaseHealth({ name: 'x', state_desc: 'ONLINE' }, 96, undefined).status).toBe('critical');
  });

  it('checks Always On state and lag on a primary and on a secondary', () => {
    const primary = mssqlHealth(
      { ...base, replicas: (fixture('hadr-primary.json').replicas as Row[]).map(readReplica) },
      1,
    );
    expect(check(primary, 'replication_state')).toMatchObject({ status: 'ok', value: 0 });
    expect(check(primary, 'replication_lag')).toMatchObject({ status: 'warning', value: 42 });
    const secondary = mssqlHealth(
      { ...base, replicas: (fixture('hadr-secondary.json').replicas as Row[]).map(readReplica) },
      1,
    );
    expect(check(secondary, 'replication_state')).toEqual({
      check: 'replication_state',
      status: 'critical',
      value: 1,
      unit: 'count',
      detail: 'inventory: data movement suspended (SUSPEND_FROM_USER)',
    });
    expect(check(secondary, 'replication_lag')).toMatchObject({ status: 'warning', value: 38 });
    const unread = mssqlHealth({ ...base, replicas: undefined }, 1);
    expect(check(unread, 'replication_state')).toMatchObject({ status: 'unknown' });
  });
});

describe('SQL Server statements', () => {
  it('bind every name: the database through QUOTENAME on the server, schema and table as parameters', () => {
    expect(IN_DATABASE).toContain("QUOTENAME(@db) + N'.sys.sp_executesql'");
    expect(IN_DATABASE).toContain('@schema = @schema, @name = @name, @limit = @limit');
    // Database names from sys.databases are quoted by the server, as identifier and as literal.
    expect(TABLE_COUNTS_SQL).toContain("QUOTENAME(name, '''')");
    expect(TABLE_COUNTS_SQL).toContain('QUOTENAME(name) + ');
  });
});

describe('SQL Server db_inspect', () => {
  function request(params: Record<string, unknown>): CommandRequest {
    return { v: 1, id: 'cmd-1', tenant: 't1', command: 'db_inspect', params, deadline: Date.now() + 10_000 };
  }

  it('is registered and answers the failure of a target that refuses the connection', async () => {
    expect(INSPECTOR_FACTORIES.mssql).toBeDefined();
    const port = await freePort();
    const reply = CommandReply.parse(
      await answerDbInspect(
        request({
          service: 'mssql',
          config: { host: '127.0.0.1', port, user: 'sa', connect_timeout_ms: 1000 },
          inspection: 'process_list',
        }),
        logger,
      ),
    );
    expect(reply).toMatchObject({ status: 'error', data: { code: 'connection_failed' } });
    expect(reply.message).toContain(`127.0.0.1:${port}`);
  });

  it('answers wrong settings and a table inspection without its table as bad_config', async () => {
    const bad = CommandReply.parse(
      await answerDbInspect(
        request({
          service: 'mssql',
          config: { host: 'db1\\SQLEXPRESS', user: 'sa' },
          inspection: 'db_health',
        }),
        logger,
      ),
    );
    expect(bad).toMatchObject({ status: 'error', data: { code: 'bad_config' } });
    const noTable = CommandReply.parse(
      await answerDbInspect(
        request({
          service: 'mssql',
          config: { host: '127.0.0.1', user: 'sa' },
          inspection: 'table_counters',
        }),
        logger,
      ),
    );
    expect(noTable).toMatchObject({ status: 'error', data: { code: 'bad_config' } });
  });
});
