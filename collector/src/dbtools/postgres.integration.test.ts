import { randomBytes } from 'node:crypto';
import {
  DB_HEALTH_CHECKS,
  DB_INSPECTION_DATA,
  type DbInspection,
  PostgresPollerConfig,
  type TableRef,
} from '@flightdeck/schemas';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownConnectionsTo, waitFor } from '../pollers/testing/net';
import { startOwnPostgres } from '../pollers/testing/postgres-cluster';
import type { InspectionData, InspectionResult } from './contract';
import { createPostgresInspector } from './postgres';
import { PG_INSPECTOR_APPLICATION_NAME } from './postgres-sql';

/** Against the PostgreSQL server of this machine (127.0.0.1:5432, trust) and a cluster of the test's own. */

const logger = pino({ level: 'silent' });
const SHARED = { host: '127.0.0.1', port: 5432, user: 'postgres' };
const db = `fd_inspect_${randomBytes(4).toString('hex')}`;
const ROWS = 2_000;
let admin: pg.Client;
let inDb: pg.Client;
let versionNum = 0;

function inspector(over: Record<string, unknown> = {}) {
  const config = PostgresPollerConfig.parse({
    ...SHARED,
    database: db,
    connect_timeout_ms: 2000,
    query_timeout_ms: 5000,
    long_query_s: 1,
    ...over,
  });
  return createPostgresInspector(config, { logger });
}

/** The data of a successful inspection, checked against the schema the api passes it on with. */
function data<I extends DbInspection>(inspection: I, result: InspectionResult<I>): InspectionData<I> {
  if (!result.ok) throw new Error(`${inspection} failed: ${result.code}: ${result.message}`);
  return DB_INSPECTION_DATA[inspection].parse(result.data) as InspectionData<I>;
}

const orders: TableRef = { database: db, schema: 'shop', name: 'orders' };

beforeAll(async () => {
  admin = new pg.Client({ ...SHARED, database: 'postgres' });
  await admin.connect();
  versionNum = Number((await admin.query('SHOW server_version_num')).rows[0].server_version_num);
  await admin.query(`CREATE DATABASE ${db}`);
  inDb = new pg.Client({ ...SHARED, database: db });
  await inDb.connect();
  await inDb.query(`CREATE SCHEMA shop`);
  await inDb.query(`CREATE TABLE shop.orders (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    customer text NOT NULL DEFAULT 'anon',
    amount numeric(10,2),
    note character varying(20)
  )`);
  await inDb.query(`COMMENT ON COLUMN shop.orders.customer IS 'who ordered'`);
  await inDb.query('CREATE INDEX orders_customer_amount ON shop.orders (customer, amount)');
  await inDb.query('CREATE UNIQUE INDEX orders_note ON shop.orders (note)');
  await inDb.query('CREATE VIEW shop.big_orders AS SELECT * FROM shop.orders WHERE amount > 100');
  await inDb.query(
    `INSERT INTO shop.orders (customer, amount, note)
     SELECT 'c' || (g % 50), g * 1.5, 'n' || g FROM generate_series(1, ${ROWS}) g`,
  );
  await inDb.query('ANALYZE shop.orders');
  // PostgreSQL 15+ flushes a session's counters at most once a second, or when asked.
  if (versionNum >= 150000) await inDb.query('SELECT pg_stat_force_next_flush()');
});

afterAll(async () => {
  await inDb?.end().catch(() => undefined);
  await admin?.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
  await admin?.end();
});

describe('PostgreSQL inspections: tables', () => {
  it('lists the tables of the configured database with their sizes, largest first, views too', async () => {
    const list = data('database_tables', await inspector().inspect({ inspection: 'database_tables' }));
    const table = list.tables.find((t) => t.schema === 'shop' && t.name === 'orders');
    expect(table).toMatchObject({ database: db, type: 'table', engine: null });
    expect(table!.rows).toBeGreaterThanOrEqual(ROWS * 0.9);
    expect(table!.data_bytes).toBeGreaterThan(8192);
    expect(table!.index_bytes).toBeGreaterThan(8192);
    expect(table!.size_bytes).toBe(table!.data_bytes! + table!.index_bytes!);
    expect(list.tables.find((t) => t.name === 'big_orders')).toMatchObject({
      type: 'view',
      size_bytes: null,
      rows: null,
    });
    const sizes = list.tables.map((t) => t.size_bytes ?? -1);
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
    expect(list.tables.some((t) => t.schema === 'pg_catalog' || t.schema === 'information_schema')).toBe(
      false,
    );
    expect(list.truncated).toBe(false);
  });

  it('still lists a table an ALTER holds locked, with sizes from the page counts, in time', async () => {
    const locker = new pg.Client({ ...SHARED, database: db });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE shop.orders IN ACCESS EXCLUSIVE MODE');
      const started = performance.now();
      const list = data(
        'database_tables',
        await inspector({ query_timeout_ms: 1000 }).inspect({ inspection: 'database_tables' }),
      );
      expect(performance.now() - started).toBeLessThan(4000);
      const table = list.tables.find((t) => t.schema === 'shop' && t.name === 'orders');
      expect(table?.data_bytes).toBeGreaterThan(0);
    } finally {
      await locker.query('ROLLBACK');
      await locker.end();
    }
  });

  it("reads a table's columns, indexes and key, connecting to the table's own database", async () => {
    // Configured for another database: the inspection connects to the table's.
    const def = data(
      'table_definition',
      await inspector({ database: 'postgres' }).inspect({ inspection: 'table_definition', table: orders }),
    );
    expect(def.table).toEqual(orders);
    expect(def.type).toBe('table');
    expect(def.ddl).toBeNull();
    expect(def.columns).toEqual([
      {
        name: 'id',
        type: 'bigint',
        nullable: false,
        default: 'GENERATED ALWAYS AS IDENTITY',
        primary: true,
        comment: null,
      },
      {
        name: 'customer',
        type: 'text',
        nullable: false,
        default: "'anon'::text",
        primary: false,
        comment: 'who ordered',
      },
      { name: 'amount', type: 'numeric(10,2)', nullable: true, default: null, primary: false, comment: null },
      {
        name: 'note',
        type: 'character varying(20)',
        nullable: true,
        default: null,
        primary: false,
        comment: null,
      },
    ]);
    expect(def.indexes.map((i) => i.name)).toEqual(['orders_pkey', 'orders_customer_amount', 'orders_note']);
    expect(def.indexes[0]).toMatchObject({ columns: ['id'], unique: true, primary: true, method: 'btree' });
    expect(def.indexes[1]).toMatchObject({ columns: ['customer', 'amount'], unique: false, primary: false });
    expect(def.indexes[2]).toMatchObject({ columns: ['note'], unique: true, primary: false });
    for (const index of def.indexes) expect(index.size_bytes).toBeGreaterThan(0);
  });

  it('finds a table through the search path when no schema is given', async () => {
    await inDb.query('CREATE TABLE public.plain (k int)');
    try {
      const def = data(
        'table_definition',
        await inspector().inspect({
          inspection: 'table_definition',
          table: { database: db, schema: null, name: 'plain' },
        }),
      );
      expect(def.table).toEqual({ database: db, schema: 'public', name: 'plain' });
      expect(def.columns.map((c) => c.name)).toEqual(['k']);
      expect(def.indexes).toEqual([]);
    } finally {
      await inDb.query('DROP TABLE public.plain');
    }
  });

  it("counts a table's writes, scans and maintenance once the writing session flushed its statistics", async () => {
    const writer = new pg.Client({ ...SHARED, database: db });
    await writer.connect();
    try {
      await writer.query(
        `INSERT INTO shop.orders (customer, amount) SELECT 'late', 1 FROM generate_series(1, 30)`,
      );
      await writer.query(`UPDATE shop.orders SET amount = amount + 1 WHERE customer = 'late'`);
      await writer.query(
        `DELETE FROM shop.orders WHERE id IN (SELECT id FROM shop.orders WHERE customer = 'late' LIMIT 10)`,
      );
      if (versionNum >= 150000) await writer.query('SELECT pg_stat_force_next_flush()');
    } finally {
      await writer.end();
    }
    const i = inspector();
    let counters: Map<string, { value: number | null; unit: string }> = new Map();
    await waitFor(
      async () => {
        const read = data('table_counters', await i.inspect({ inspection: 'table_counters', table: orders }));
        expect(read.table).toEqual(orders);
        counters = new Map(read.counters.map((c) => [c.key, c]));
        return (counters.get('rows_deleted')?.value ?? 0) >= 10;
      },
      5_000,
      'the deletes to be counted',
      200,
    );
    const value = (key: string) => counters.get(key)?.value;
    expect(value('rows_inserted')).toBeGreaterThanOrEqual(ROWS + 30);
    expect(value('rows_updated')).toBeGreaterThanOrEqual(30);
    expect(value('rows_deleted')).toBeGreaterThanOrEqual(10);
    expect(value('dead_rows')).toBeGreaterThanOrEqual(1);
    expect(value('live_rows')).toBeGreaterThanOrEqual(ROWS);
    expect(value('seq_scans')).toBeGreaterThanOrEqual(1);
    expect(value('analyze_count')).toBeGreaterThanOrEqual(1);
    expect(value('data_bytes')).toBeGreaterThan(0);
    expect(counters.get('data_bytes')?.unit).toBe('bytes');
    expect(counters.get('last_analyze')).toMatchObject({ unit: 'timestamp' });
    const analysed = value('last_analyze')!;
    expect(Math.abs(Date.now() - analysed)).toBeLessThan(10 * 60_000);
    expect(counters.get('last_vacuum')).toEqual({ key: 'last_vacuum', value: null, unit: 'timestamp' });
    // Kept by MySQL only.
    expect(counters.has('auto_increment')).toBe(false);
  });

  it('gives not_found naming a table or a database that does not exist', async () => {
    const missing = await inspector().inspect({
      inspection: 'table_definition',
      table: { ...orders, name: 'no_such_table' },
    });
    expect(missing).toMatchObject({ ok: false, code: 'not_found' });
    if (!missing.ok) expect(missing.message).toContain('shop.no_such_table');
    const counters = await inspector().inspect({
      inspection: 'table_counters',
      table: { ...orders, schema: 'no_such_schema' },
    });
    expect(counters).toMatchObject({ ok: false, code: 'not_found' });
    // shop is not on the search path: without a schema, the table is not found.
    const unqualified = await inspector().inspect({
      inspection: 'table_definition',
      table: { ...orders, schema: null },
    });
    expect(unqualified).toMatchObject({ ok: false, code: 'not_found' });
    if (!unqualified.ok) expect(unqualified.message).toContain('"orders" does not exist on the search path');
    const noDb = await inspector().inspect({
      inspection: 'table_definition',
      table: { ...orders, database: 'fd_no_such_database' },
    });
    expect(noDb).toMatchObject({ ok: false, code: 'not_found' });
    if (!noDb.ok) expect(noDb.message).toContain('fd_no_such_database');
  });

  it('takes a table name made to inject SQL as a name: not_found, and nothing ran', async () => {
    for (const name of [
      `orders; DROP TABLE shop.orders; --`,
      `orders' OR '1'='1`,
      `orders"; DROP TABLE shop.orders; --`,
    ]) {
      for (const inspection of ['table_definition', 'table_counters'] as const) {
        const result = await inspector().inspect({ inspection, table: { ...orders, name } });
        expect(result).toMatchObject({ ok: false, code: 'not_found' });
      }
    }
    const injectedSchema = await inspector().inspect({
      inspection: 'table_definition',
      table: { ...orders, schema: `shop' OR '1'='1` },
    });
    expect(injectedSchema).toMatchObject({ ok: false, code: 'not_found' });
    expect((await inDb.query('SELECT count(*)::int AS n FROM shop.orders')).rows[0].n).toBeGreaterThan(0);
  });
});

describe('PostgreSQL inspections: sessions and health', () => {
  it('lists a long query and a blocked session with its blocker, then judges both in the health', async () => {
    const holder = new pg.Client({ ...SHARED, database: db, application_name: 'fd-inspect-holder' });
    const waiter = new pg.Client({ ...SHARED, database: db, application_name: 'fd-inspect-waiter' });
    const sleeper = new pg.Client({ ...SHARED, database: db, application_name: 'fd-inspect-sleeper' });
    const clients = [holder, waiter, sleeper];
    const pending: Promise<unknown>[] = [];
    try {
      await Promise.all(clients.map((c) => c.connect()));
      const pid = async (c: pg.Client) =>
        (await c.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
      const [holderPid, waiterPid, sleeperPid] = [await pid(holder), await pid(waiter), await pid(sleeper)];
      await holder.query('BEGIN');
      await holder.query(`UPDATE shop.orders SET note = 'held' WHERE id = 1`);
      pending.push(waiter.query(`UPDATE shop.orders SET note = 'waiting' WHERE id = 1`).catch((e) => e));
      pending.push(sleeper.query('SELECT pg_sleep(30)').catch((e) => e));

      const i = inspector();
      let list: InspectionData<'process_list'> | undefined;
      await waitFor(
        async () => {
          list = data('process_list', await i.inspect({ inspection: 'process_list' }));
          const sleeping = list.sessions.find((s) => s.id === sleeperPid);
          return (sleeping?.duration_s ?? 0) >= 1 && list.blocked.some((b) => b.id === waiterPid);
        },
        10_000,
        'the sleeping query and the blocked session to show',
        200,
      );
      expect(list!.long_query_s).toBe(1);
      expect(list!.truncated).toBe(false);
      expect(list!.sessions.find((s) => s.id === sleeperPid)).toMatchObject({
        query: 'SELECT pg_sleep(30)',
        state: 'active',
        application: 'fd-inspect-sleeper',
        database: db,
      });
      const durations = list!.sessions.map((s) => s.duration_s ?? -1);
      expect(durations).toEqual([...durations].sort((a, b) => b - a));
      const blocked = list!.blocked.find((b) => b.id === waiterPid)!;
      expect(blocked.query).toContain(`SET note = 'waiting'`);
      expect(blocked.wait).toMatch(/^Lock:/);
      expect(blocked.blocked_by).toHaveLength(1);
      expect(blocked.blocked_by[0]).toMatchObject({ id: holderPid, state: 'idle in transaction' });
      // Its own connection is not a client session of the target.
      expect(list!.sessions.some((s) => s.application === PG_INSPECTOR_APPLICATION_NAME)).toBe(false);

      const health = data('db_health', await i.inspect({ inspection: 'db_health' }));
      const check = (name: string) => health.checks.find((c) => c.check === name);
      expect(check('long_queries')?.status).not.toBe('ok');
      expect(check('long_queries')?.value).toBeGreaterThanOrEqual(1);
      expect(check('long_queries')?.detail).toMatch(/1 s or more.*threshold of/);
      expect(check('blocked_sessions')?.status).not.toBe('ok');
      expect(check('blocked_sessions')?.value).toBeGreaterThanOrEqual(1);
      expect(health.status === 'warning' || health.status === 'critical').toBe(true);
    } finally {
      await admin
        .query('SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [
          'fd-inspect-sleeper',
        ])
        .catch(() => undefined);
      await holder.query('ROLLBACK').catch(() => undefined);
      await Promise.all(pending);
      await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
    }
  });

  it('answers the health of the instance: its checks and every database, the worst first', async () => {
    const health = data('db_health', await inspector().inspect({ inspection: 'db_health' }));
    const names = health.checks.map((c) => c.check);
    for (const check of [
      'connections_usage',
      'cache_hit_ratio',
      'long_queries',
      'blocked_sessions',
      'deadlocks',
      'replication_state',
      'transaction_id_age',
      'dead_rows_ratio',
      'temp_files',
      'uptime',
    ]) {
      expect(names).toContain(check);
    }
    expect(names.every((n) => DB_HEALTH_CHECKS.includes(n))).toBe(true);
    expect(new Set(names).size).toBe(names.length);
    const rank = { ok: 0, unknown: 1, warning: 2, critical: 3 };
    expect(rank[health.status]).toBe(
      Math.max(...[...health.checks, ...health.databases].map((c) => rank[c.status])),
    );
    expect(health.checks.find((c) => c.check === 'connections_usage')).toMatchObject({ unit: 'percent' });
    expect(health.checks.find((c) => c.check === 'connections_usage')!.value).toBeGreaterThan(0);
    expect(health.checks.find((c) => c.check === 'replication_state')).toMatchObject({
      status: 'ok',
      value: 0,
    });
    const mine = health.databases.find((d) => d.name === db)!;
    expect(mine.size_bytes).toBeGreaterThan(0);
    expect(mine.tables).toBe(1);
    expect(mine.connections).toBeGreaterThanOrEqual(1);
    expect(mine.commits).toBeGreaterThan(0);
    expect(mine.transaction_id_age).toBeGreaterThanOrEqual(0);
    expect(mine.cache_hit_ratio).toBeGreaterThan(0);
    // The counting of tables needs a connection to each database: only the connected one has it.
    expect(health.databases.find((d) => d.name === 'postgres')?.tables).toBeNull();
  });
});

describe('PostgreSQL inspections: connections', () => {
  it('closes its connection before answering, whatever the inspection', async () => {
    const before = ownConnectionsTo(SHARED.port);
    const i = inspector();
    for (const inspection of ['process_list', 'database_tables', 'db_health'] as const) {
      expect((await i.inspect({ inspection })).ok).toBe(true);
    }
    expect((await i.inspect({ inspection: 'table_definition', table: orders })).ok).toBe(true);
    expect((await i.inspect({ inspection: 'table_counters', table: { ...orders, name: 'nope' } })).ok).toBe(
      false,
    );
    await waitFor(() => ownConnectionsTo(SHARED.port) === before, 2_000, 'the connections to close');
  });

  it('gives auth_failed for a wrong password', async () => {
    const own = await startOwnPostgres('right-secret');
    try {
      const over = { port: own.port, database: 'postgres' };
      const wrong = await inspector({ ...over, password: 'wrong-secret' }).inspect({
        inspection: 'db_health',
      });
      expect(wrong).toMatchObject({ ok: false, code: 'auth_failed' });
      if (!wrong.ok) expect(wrong.message).toContain(`127.0.0.1:${own.port}`);
      const right = await inspector({ ...over, password: 'right-secret' }).inspect({
        inspection: 'process_list',
      });
      data('process_list', right);
    } finally {
      await own.stop();
    }
  });
});
