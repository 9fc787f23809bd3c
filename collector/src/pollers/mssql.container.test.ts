import {
  DatabaseTablesData,
  DbHealthData,
  MssqlPollerConfig,
  PollerExtras,
  ProcessListData,
  TableCountersData,
  TableDefinitionData,
} from '@flightdeck/schemas';
import sql from 'mssql';
import pino from 'pino';
import { GenericContainer, type StartedTestContainer, Wait } from 'testcontainers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Inspector } from '../dbtools/contract';
import { createMssqlInspector } from '../dbtools/mssql';
import { noDockerEngine } from '../testing/docker';
import type { Poller, PollSuccess } from './contract';
import { createMssqlPoller } from './mssql';
import { outsideCatalogue, sampleValue } from './testing/catalogue';
import { waitFor } from './testing/net';
import { ok } from './testing/poll';

/**
 * The SQL Server poller and inspections against SQL Server 2022 (Microsoft's image), through
 * testcontainers. It runs where a Docker engine answers; elsewhere the suite is reported as skipped
 * with the reason.
 */

const IMAGE = 'mcr.microsoft.com/mssql/server:2022-latest';
const SA_PASSWORD = 'Flightdeck_2022!';
const LIMITED = { user: 'fd_limited', password: 'Flightdeck_limited1' };
const DB = 'fd_sales';
const logger = pino({ level: 'silent' });

const noDocker = await noDockerEngine('SQL Server container suite');

async function data<T>(inspector: Inspector, request: Parameters<Inspector['inspect']>[0]): Promise<T> {
  const result = await inspector.inspect(request);
  if (!result.ok) throw new Error(`inspection failed: ${result.code}: ${result.message}`);
  return result.data as T;
}

(noDocker ? describe.skip : describe)('SQL Server poller against SQL Server 2022', () => {
  let container: StartedTestContainer;
  let host: string;
  let port: number;
  const pollers: Poller[] = [];
  const pools: sql.ConnectionPool[] = [];

  const config = (over: Record<string, unknown> = {}) =>
    MssqlPollerConfig.parse({
      host,
      port,
      user: 'sa',
      password: SA_PASSWORD,
      database: DB,
      connect_timeout_ms: 10_000,
      query_timeout_ms: 20_000,
      long_query_s: 1,
      ...over,
    });
  const poller = (over: Record<string, unknown> = {}) => {
    const p = createMssqlPoller(config(over), { logger });
    pollers.push(p);
    return p;
  };
  /** One session of its own: a pool of one connection. */
  const session = async (database = DB) => {
    const pool = new sql.ConnectionPool({
      server: host,
      port,
      user: 'sa',
      password: SA_PASSWORD,
      database,
      pool: { max: 1, min: 1 },
      requestTimeout: 60_000,
      options: { encrypt: false },
    });
    pool.on('error', () => {});
    pools.push(pool);
    await pool.connect();
    const spid = (await pool.request().query<{ id: number }>('SELECT @@SPID AS id')).recordset[0]!.id;
    return { pool, spid };
  };

  beforeAll(async () => {
    container = await new GenericContainer(IMAGE)
      .withEnvironment({ ACCEPT_EULA: 'Y', MSSQL_SA_PASSWORD: SA_PASSWORD, MSSQL_PID: 'Developer' })
      .withExposedPorts(1433)
      .withWaitStrategy(Wait.forLogMessage(/SQL Server is now ready for client connections/))
      .withStartupTimeout(240_000)
      .start();
    host = container.getHost();
    port = container.getMappedPort(1433);
    const admin = await session('master');
    // Recovery of the system databases can trail the "ready" message by a few seconds.
    await waitFor(
      async () =>
        admin.pool
          .request()
          .query("SELECT 1 FROM sys.databases WHERE name = 'msdb' AND state = 0")
          .then((r) => r.recordset.length === 1),
      60_000,
      'msdb to come online',
      500,
    );
    await admin.pool.request().batch(`CREATE DATABASE ${DB};
      CREATE LOGIN ${LIMITED.user} WITH PASSWORD = '${LIMITED.password}', CHECK_POLICY = OFF;`);
    const app = await session(DB);
    await app.pool.request().batch(`CREATE TABLE dbo.orders (
        id int IDENTITY(1,1) CONSTRAINT PK_orders PRIMARY KEY,
        status nvarchar(20) NOT NULL CONSTRAINT DF_orders_status DEFAULT N'new',
        total decimal(12,2) NOT NULL,
        notes nvarchar(max) NULL);
      CREATE INDEX IX_orders_status ON dbo.orders (status, total);
      INSERT INTO dbo.orders (status, total) SELECT TOP (1000) N'new', 10.5
        FROM sys.all_objects AS a CROSS JOIN sys.all_objects AS b;`);
  }, 300_000);

  afterAll(async () => {
    await Promise.all(pollers.map((p) => p.close()));
    await Promise.all(pools.map((p) => p.close().catch(() => {})));
    await container?.stop();
  }, 60_000);

  it('passes the connection test and says which SQL Server answered', async () => {
    const result = await poller().testConnection();
    expect(result).toMatchObject({ ok: true, details: { engine: 'SQL Server', database: DB, user: 'sa' } });
    if (result.ok) expect(result.version).toMatch(/^Microsoft SQL Server 2022/);
  });

  it('gives auth_failed for a wrong password (18456) and not_found for an unknown database (4060)', async () => {
    const wrong = await poller({ password: 'not-the-password' }).testConnection();
    expect(wrong).toMatchObject({ ok: false, code: 'auth_failed' });
    if (!wrong.ok) expect(wrong.message).toContain('(error 18456)');
    const missing = await poller({ database: 'fd_no_such_database' }).testConnection();
    expect(missing).toMatchObject({ ok: false, code: 'not_found' });
    if (!missing.ok) expect(missing.message).toContain('fd_no_such_database');
  });

  it('checks the certificate when TLS is on, and accepts it when told to', async () => {
    const strict = await poller({ tls: { enabled: true } }).testConnection();
    expect(strict).toMatchObject({ ok: false, code: 'tls_error' });
    const lenient = await poller({ tls: { enabled: true, reject_unauthorized: false } }).testConnection();
    expect(lenient).toMatchObject({ ok: true });
  });

  it('tells a login without VIEW SERVER STATE what to grant', async () => {
    const limited = poller({ ...LIMITED, database: 'master' });
    expect(await limited.testConnection()).toMatchObject({ ok: true });
    const result = await limited.poll(Date.now());
    expect(result).toMatchObject({ ok: false, code: 'auth_failed' });
    if (!result.ok) expect(result.message).toContain('VIEW SERVER STATE');
  });

  it('polls counters as rates, sizes, log use, a long-running and a blocked request', async () => {
    const holder = await session();
    const waiter = await session();
    const sleeper = await session();
    const tx = new sql.Transaction(holder.pool);
    await tx.begin();
    const pending: Promise<unknown>[] = [];
    try {
      await new sql.Request(tx).query("UPDATE dbo.orders SET status = N'held' WHERE id = 1");
      pending.push(
        waiter.pool
          .request()
          .query("UPDATE dbo.orders SET status = N'waiting' WHERE id = 1")
          .catch((e: Error) => e),
      );
      pending.push(
        sleeper.pool
          .request()
          .query("WAITFOR DELAY '00:00:20'")
          .catch((e: Error) => e),
      );
      const p = poller();
      const first = ok(await p.poll(Date.now()));
      expect(outsideCatalogue(first.samples)).toEqual([]);
      let last: PollSuccess | undefined;
      await waitFor(
        async () => {
          last = ok(await p.poll(Date.now()));
          return (
            (last.extras?.long_queries ?? []).some((q) => q.id === sleeper.spid) &&
            (last.extras?.blocked_sessions ?? []).some((b) => b.id === waiter.spid)
          );
        },
        20_000,
        'the sleeping request and the blocked one to show',
        1_000,
      );
      const { samples, extras } = last!;
      expect(outsideCatalogue(samples)).toEqual([]);
      expect(PollerExtras.safeParse(extras).success).toBe(true);
      expect(sampleValue(samples, 'mssql.batch_requests_rate')).toBeGreaterThan(0);
      expect(sampleValue(samples, 'mssql.buffer_cache_hit_ratio')).toBeGreaterThan(0);
      expect(sampleValue(samples, 'mssql.page_life_expectancy')).toBeGreaterThan(0);
      expect(sampleValue(samples, 'mssql.user_connections')).toBeGreaterThanOrEqual(4);
      expect(sampleValue(samples, 'mssql.uptime')).toBeGreaterThan(0);
      expect(sampleValue(samples, 'mssql.blocked_sessions')).toBeGreaterThanOrEqual(1);
      expect(sampleValue(samples, 'mssql.long_queries')).toBeGreaterThanOrEqual(1);
      expect(sampleValue(samples, 'mssql.sessions_idle_in_transaction')).toBeGreaterThanOrEqual(1);
      expect(sampleValue(first.samples, 'mssql.database_size_bytes', { database: DB })).toBeGreaterThan(0);
      expect(sampleValue(samples, 'mssql.log_used_pct', { database: DB })).toBeGreaterThan(0);
      const long = extras!.long_queries!.find((q) => q.id === sleeper.spid)!;
      expect(long).toMatchObject({
        query: "WAITFOR DELAY '00:00:20'",
        wait: 'WAITFOR',
        user: 'sa',
        database: DB,
      });
      const blocked = extras!.blocked_sessions!.find((b) => b.id === waiter.spid)!;
      expect(blocked.wait).toMatch(/^LCK_M_/);
      expect(blocked.query).toContain("SET status = N'waiting'");
      expect(blocked.blocked_by).toEqual([
        expect.objectContaining({
          id: holder.spid,
          state: 'sleeping',
          query: expect.stringContaining("N'held'"),
        }),
      ]);
      expect(first.extras?.tables?.[0]).toMatchObject({
        database: DB,
        schema: 'dbo',
        name: 'orders',
        rows: 1000,
      });
      expect(extras!.replication).toMatchObject({ role: 'standalone' });

      // The database screen sees the same from its own connection.
      const inspector = createMssqlInspector(config(), { logger });
      const list = ProcessListData.parse(await data(inspector, { inspection: 'process_list' }));
      expect(list.blocked.find((b) => b.id === waiter.spid)?.blocked_by[0]?.id).toBe(holder.spid);
      const healthData = DbHealthData.parse(await data(inspector, { inspection: 'db_health' }));
      expect(healthData.checks.find((c) => c.check === 'blocked_sessions')?.value).toBeGreaterThanOrEqual(1);
      expect(healthData.databases.find((d) => d.name === DB)).toMatchObject({ status: 'ok', tables: 1 });
    } finally {
      await tx.rollback().catch(() => {});
      await Promise.all(pending);
    }
  }, 90_000);

  it('lists, defines and counts the tables of every database for the database screen', async () => {
    const inspector = createMssqlInspector(config({ database: 'master' }), { logger });
    const tables = DatabaseTablesData.parse(await data(inspector, { inspection: 'database_tables' }));
    expect(tables.tables.find((t) => t.database === DB && t.name === 'orders')).toMatchObject({
      schema: 'dbo',
      type: 'table',
      rows: 1000,
    });
    const table = { database: DB, schema: 'dbo', name: 'orders' };
    const definition = TableDefinitionData.parse(
      await data(inspector, { inspection: 'table_definition', table }),
    );
    expect(definition.columns.map((c) => [c.name, c.type, c.primary])).toEqual([
      ['id', 'int', true],
      ['status', 'nvarchar(20)', false],
      ['total', 'decimal(12,2)', false],
      ['notes', 'nvarchar(max)', false],
    ]);
    expect(definition.columns[0]?.default).toBe('IDENTITY(1,1)');
    expect(definition.columns[1]?.default).toBe("(N'new')");
    expect(definition.indexes.map((i) => [i.name, i.columns, i.primary])).toEqual([
      ['PK_orders', ['id'], true],
      ['IX_orders_status', ['status', 'total'], false],
    ]);
    const counters = TableCountersData.parse(await data(inspector, { inspection: 'table_counters', table }));
    expect(counters.counters.find((c) => c.key === 'rows')?.value).toBe(1000);
    expect(counters.counters.find((c) => c.key === 'created_at')?.value).toBeGreaterThan(
      Date.now() - 3_600_000,
    );
  }, 60_000);

  it('treats names as data: a table name that tries to close the identifier is just not found', async () => {
    const inspector = createMssqlInspector(config(), { logger });
    for (const name of ['orders]; DROP TABLE dbo.orders; --', "orders'; DROP TABLE dbo.orders; --"]) {
      const result = await inspector.inspect({
        inspection: 'table_counters',
        table: { database: DB, schema: 'dbo', name },
      });
      expect(result).toMatchObject({ ok: false, code: 'not_found' });
    }
    const database = await inspector.inspect({
      inspection: 'table_definition',
      table: { database: `${DB}]; DROP DATABASE ${DB}; --`, schema: 'dbo', name: 'orders' },
    });
    expect(database).toMatchObject({ ok: false, code: 'not_found' });
    const still = await data<TableCountersData>(inspector, {
      inspection: 'table_counters',
      table: { database: DB, schema: 'dbo', name: 'orders' },
    });
    expect(still.counters.find((c) => c.key === 'rows')?.value).toBe(1000);
  }, 60_000);
});
