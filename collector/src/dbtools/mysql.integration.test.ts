import { randomBytes } from 'node:crypto';
import {
  DB_HEALTH_CHECKS,
  DB_INSPECTION_DATA,
  type DbInspection,
  MysqlPollerConfig,
  type TableCounterKey,
  type TableRef,
} from '@flightdeck/schemas';
import mysql from 'mysql2/promise';
import pino, { type Logger } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownConnectionsTo, recordingLogger, waitFor } from '../pollers/testing/net';
import type { InspectionData, InspectionResult } from './contract';
import { createMysqlInspector } from './mysql';
import { startOwnMariadb } from './testing/mariadb-server';

/** Against the MariaDB server of this machine (127.0.0.1:3306, root without a password). */

const logger = pino({ level: 'silent' });
/** More than InnoDB's 100 ms: the time its transaction and lock-wait views must go unread to refresh. */
const LOCK_CACHE_IDLE_MS = 250;
const SHARED = { host: '127.0.0.1', port: 3306, user: 'root' };
const db = `fd_inspect_${randomBytes(4).toString('hex')}`;
const ROWS = 2_000;
let admin: mysql.Connection;

function inspector(over: Record<string, unknown> = {}, log: Logger = logger) {
  const config = MysqlPollerConfig.parse({
    ...SHARED,
    connect_timeout_ms: 2000,
    query_timeout_ms: 5000,
    long_query_s: 1,
    ...over,
  });
  return createMysqlInspector(config, { logger: log });
}

/** The data of a successful inspection, checked against the schema the api passes it on with. */
function data<I extends DbInspection>(inspection: I, result: InspectionResult<I>): InspectionData<I> {
  if (!result.ok) throw new Error(`${inspection} failed: ${result.code}: ${result.message}`);
  return DB_INSPECTION_DATA[inspection].parse(result.data) as InspectionData<I>;
}

const orders: TableRef = { database: db, schema: null, name: 'orders' };

beforeAll(async () => {
  admin = await mysql.createConnection(SHARED);
  await admin.query(`CREATE DATABASE ${db}`);
  await admin.query(`CREATE TABLE ${db}.orders (
    id int unsigned NOT NULL AUTO_INCREMENT PRIMARY KEY,
    customer varchar(40) NOT NULL DEFAULT 'anon' COMMENT 'who ordered',
    amount decimal(10,2) NULL,
    note text,
    KEY orders_customer_amount (customer, amount),
    UNIQUE KEY orders_note (note(10))
  ) ENGINE=InnoDB`);
  await admin.query(`CREATE VIEW ${db}.big_orders AS SELECT * FROM ${db}.orders WHERE amount > 100`);
  const rows = Array.from({ length: ROWS }, (_, i) => [`c${i % 50}`, (i + 1) * 1.5, `note-${i + 1}`]);
  await admin.query(`INSERT INTO ${db}.orders (customer, amount, note) VALUES ?`, [rows]);
  await admin.query(`ANALYZE TABLE ${db}.orders`);
});

afterAll(async () => {
  await admin?.query(`DROP DATABASE IF EXISTS ${db}`);
  await admin?.end();
});

describe('MySQL inspections: tables', () => {
  it('lists the tables of every user schema with engine and sizes, largest first, views too', async () => {
    const list = data('database_tables', await inspector().inspect({ inspection: 'database_tables' }));
    const table = list.tables.find((t) => t.database === db && t.name === 'orders');
    expect(table).toMatchObject({ schema: null, type: 'table', engine: 'InnoDB' });
    expect(table!.rows).toBeGreaterThanOrEqual(ROWS * 0.5);
    expect(table!.data_bytes).toBeGreaterThan(16384);
    expect(table!.index_bytes).toBeGreaterThan(0);
    expect(table!.size_bytes).toBe(table!.data_bytes! + table!.index_bytes!);
    expect(list.tables.find((t) => t.database === db && t.name === 'big_orders')).toMatchObject({
      type: 'view',
      engine: null,
      size_bytes: null,
    });
    const sizes = list.tables.map((t) => t.size_bytes ?? -1);
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
    expect(list.tables.some((t) => ['mysql', 'sys', 'information_schema'].includes(t.database))).toBe(false);
    expect(list.truncated).toBe(false);
  });

  it("reads a table's columns as the engine prints them, its indexes and its CREATE TABLE", async () => {
    const def = data(
      'table_definition',
      await inspector().inspect({ inspection: 'table_definition', table: orders }),
    );
    expect(def.table).toEqual(orders);
    expect(def.type).toBe('table');
    expect(def.columns.map((c) => [c.name, c.type, c.nullable, c.primary])).toEqual([
      ['id', 'int(10) unsigned', false, true],
      ['customer', 'varchar(40)', false, false],
      ['amount', 'decimal(10,2)', true, false],
      ['note', 'text', true, false],
    ]);
    const customer = def.columns[1]!;
    // MariaDB quotes a literal default ('anon'), MySQL does not.
    expect(customer.default).toMatch(/^'?anon'?$/);
    expect(customer.comment).toBe('who ordered');
    expect(def.columns[0]!.comment).toBeNull();
    expect(def.indexes.map((i) => i.name)).toEqual(['PRIMARY', 'orders_customer_amount', 'orders_note']);
    expect(def.indexes[0]).toMatchObject({ columns: ['id'], unique: true, primary: true, method: 'BTREE' });
    expect(def.indexes[1]).toMatchObject({ columns: ['customer', 'amount'], unique: false, primary: false });
    expect(def.indexes[2]).toMatchObject({ columns: ['note(10)'], unique: true, primary: false });
    expect(def.indexes[0]!.size_bytes).toBeGreaterThan(0);
    expect(def.ddl).toMatch(/^CREATE TABLE `orders` \(/);
    expect(def.ddl).toContain('UNIQUE KEY `orders_note` (`note`(10))');
  });

  it('reads the definition of a view, its DDL the CREATE VIEW', async () => {
    const def = data(
      'table_definition',
      await inspector().inspect({ inspection: 'table_definition', table: { ...orders, name: 'big_orders' } }),
    );
    expect(def.type).toBe('view');
    expect(def.indexes).toEqual([]);
    expect(def.columns.map((c) => c.name)).toEqual(['id', 'customer', 'amount', 'note']);
    expect(def.ddl).toMatch(/^CREATE .*VIEW `(fd_inspect_\w+`\.`)?big_orders` AS select/i);
  });

  it("counts a table's rows, sizes, next auto-increment and times after writes", async () => {
    await admin.query(
      `INSERT INTO ${db}.orders (customer, amount) VALUES ('late', 1), ('late', 2), ('late', 3)`,
    );
    await admin.query(`UPDATE ${db}.orders SET amount = amount + 1 WHERE customer = 'late'`);
    await admin.query(`DELETE FROM ${db}.orders WHERE customer = 'late' AND amount > 3`);
    await admin.query(`ANALYZE TABLE ${db}.orders`);
    const read = data(
      'table_counters',
      await inspector().inspect({ inspection: 'table_counters', table: orders }),
    );
    expect(read.table).toEqual(orders);
    const counters = new Map(read.counters.map((c) => [c.key, c]));
    const value = (key: TableCounterKey) => counters.get(key)?.value;
    const [[{ n, next }]] = (await admin.query(
      `SELECT COUNT(*) AS n, MAX(id) + 1 AS next FROM ${db}.orders`,
    )) as unknown as [[{ n: number; next: number }]];
    expect(value('rows')).toBeGreaterThanOrEqual(n * 0.5);
    expect(value('rows')).toBeLessThanOrEqual(n * 1.5);
    expect(value('auto_increment')).toBeGreaterThanOrEqual(Number(next));
    expect(value('data_bytes')).toBeGreaterThan(0);
    expect(value('size_bytes')).toBe(value('data_bytes')! + value('index_bytes')!);
    expect(counters.get('free_bytes')).toMatchObject({ unit: 'bytes' });
    expect(counters.get('created_at')).toMatchObject({ unit: 'timestamp' });
    expect(Math.abs(Date.now() - value('created_at')!)).toBeLessThan(10 * 60_000);
    expect(Math.abs(Date.now() - value('updated_at')!)).toBeLessThan(10 * 60_000);
    // Kept by PostgreSQL only.
    expect(counters.has('dead_rows')).toBe(false);
    expect(counters.has('seq_scans')).toBe(false);
  });

  it('gives not_found naming a table or a schema that does not exist', async () => {
    for (const table of [
      { ...orders, name: 'no_such_table' },
      { ...orders, database: 'fd_no_such_schema' },
    ]) {
      for (const inspection of ['table_definition', 'table_counters'] as const) {
        const result = await inspector().inspect({ inspection, table });
        expect(result).toMatchObject({ ok: false, code: 'not_found' });
        if (!result.ok) expect(result.message).toContain(`${table.database}.${table.name}`);
      }
    }
  });

  it('takes a table name made to inject SQL as a name: not_found, and nothing ran', async () => {
    for (const name of [
      'orders; DROP TABLE orders; --',
      "orders' OR '1'='1",
      `orders\`; DROP TABLE ${db}.orders; --`,
      'orders` WHERE 1=1 -- ',
    ]) {
      for (const inspection of ['table_definition', 'table_counters'] as const) {
        const result = await inspector().inspect({ inspection, table: { ...orders, name } });
        expect(result).toMatchObject({ ok: false, code: 'not_found' });
      }
    }
    const injectedSchema = await inspector().inspect({
      inspection: 'table_definition',
      table: { ...orders, database: `${db}\`; DROP DATABASE ${db}; --` },
    });
    expect(injectedSchema).toMatchObject({ ok: false, code: 'not_found' });
    const [[{ n }]] = (await admin.query(`SELECT COUNT(*) AS n FROM ${db}.orders`)) as unknown as [
      [{ n: number }],
    ];
    expect(n).toBeGreaterThan(0);
  });
});

describe('MySQL inspections: sessions and health', () => {
  it('lists a long query and a blocked session with its blocker, then judges both in the health', async () => {
    const holder = await mysql.createConnection(SHARED);
    const waiter = await mysql.createConnection(SHARED);
    const sleeper = await mysql.createConnection({ ...SHARED, database: db });
    const pending: Promise<unknown>[] = [];
    try {
      await holder.query('BEGIN');
      await holder.query(`UPDATE ${db}.orders SET note = 'held' WHERE id = 1`);
      pending.push(waiter.query(`UPDATE ${db}.orders SET note = 'waiting' WHERE id = 1`).catch((e) => e));
      pending.push(sleeper.query('SELECT SLEEP(30)').catch((e) => e));

      const i = inspector();
      let list: InspectionData<'process_list'> | undefined;
      await waitFor(
        async () => {
          list = data('process_list', await i.inspect({ inspection: 'process_list' }));
          const sleeping = list.sessions.find((s) => s.id === sleeper.threadId);
          return (sleeping?.duration_s ?? 0) >= 1 && list.blocked.some((b) => b.id === waiter.threadId);
        },
        25_000,
        'the sleeping query and the blocked session to show',
        // InnoDB refreshes its information_schema transaction cache only after 100 ms without a
        // read: inspections closer than that would read the same stale copy forever.
        LOCK_CACHE_IDLE_MS,
      );
      expect(list!.long_query_s).toBe(1);
      expect(list!.truncated).toBe(false);
      expect(list!.sessions.find((s) => s.id === sleeper.threadId)).toMatchObject({
        query: 'SELECT SLEEP(30)',
        state: 'Query',
        user: 'root',
        database: db,
      });
      const durations = list!.sessions.map((s) => s.duration_s ?? -1);
      expect(durations).toEqual([...durations].sort((a, b) => b - a));
      const blocked = list!.blocked.find((b) => b.id === waiter.threadId)!;
      expect(blocked.query).toContain(`SET note = 'waiting'`);
      expect(blocked.blocked_by).toHaveLength(1);
      expect(blocked.blocked_by[0]).toMatchObject({ id: holder.threadId, state: 'Sleep' });
      // Its own connection is not a client session of the target.
      expect(list!.sessions.some((s) => s.query?.includes('information_schema.PROCESSLIST'))).toBe(false);

      let health: InspectionData<'db_health'> | undefined;
      await waitFor(
        async () => {
          health = data('db_health', await i.inspect({ inspection: 'db_health' }));
          return health.checks.some((c) => c.check === 'blocked_sessions' && c.status !== 'ok');
        },
        10_000,
        'the blocked session to count in the health',
        LOCK_CACHE_IDLE_MS,
      );
      const check = (name: string) => health!.checks.find((c) => c.check === name);
      expect(check('long_queries')?.status).not.toBe('ok');
      expect(check('long_queries')?.detail).toMatch(/1 s or more.*threshold of/);
      expect(check('blocked_sessions')?.value).toBeGreaterThanOrEqual(1);
      expect(health!.status === 'warning' || health!.status === 'critical').toBe(true);
      expect(health!.databases.find((d) => d.name === db)?.connections).toBeGreaterThanOrEqual(1);
    } finally {
      await admin.query(`KILL QUERY ${sleeper.threadId}`).catch(() => undefined);
      await holder.query('ROLLBACK').catch(() => undefined);
      await Promise.all(pending);
      await Promise.all([holder, waiter, sleeper].map((c) => c.end().catch(() => undefined)));
    }
  }, 60_000);

  it('answers the health of the instance: its checks and every schema, the worst first', async () => {
    const health = data('db_health', await inspector().inspect({ inspection: 'db_health' }));
    const names = health.checks.map((c) => c.check);
    for (const check of [
      'connections_usage',
      'cache_hit_ratio',
      'long_queries',
      'blocked_sessions',
      'deadlocks',
      'replication_state',
      'temp_files',
      'aborted_connections',
      'uptime',
    ]) {
      expect(names).toContain(check);
    }
    // PostgreSQL's own.
    expect(names).not.toContain('transaction_id_age');
    expect(names).not.toContain('dead_rows_ratio');
    expect(names.every((n) => DB_HEALTH_CHECKS.includes(n))).toBe(true);
    const rank = { ok: 0, unknown: 1, warning: 2, critical: 3 };
    const ranks = health.checks.map((c) => rank[c.status]);
    expect(ranks).toEqual([...ranks].sort((a, b) => b - a));
    expect(rank[health.status]).toBe(Math.max(...ranks));
    expect(health.checks.find((c) => c.check === 'replication_state')).toMatchObject({
      status: 'ok',
      value: 0,
    });
    const mine = health.databases.find((d) => d.name === db)!;
    expect(mine).toMatchObject({ status: 'ok', tables: 1, commits: null, transaction_id_age: null });
    expect(mine.size_bytes).toBeGreaterThan(0);
    expect(health.databases.map((d) => d.name)).toContain('mysql');
    expect(health.databases.map((d) => d.name)).not.toContain('information_schema');
  });
});

describe('MySQL inspections: users and connections', () => {
  it('gives auth_failed for a wrong password; a user without privileges reads what it may', async () => {
    const user = `fd_insp_${randomBytes(3).toString('hex')}`;
    await admin.query(`CREATE USER '${user}'@'%' IDENTIFIED BY 'right-secret'`);
    try {
      const wrong = await inspector({ user, password: 'wrong-secret' }).inspect({
        inspection: 'process_list',
      });
      expect(wrong).toMatchObject({ ok: false, code: 'auth_failed' });
      if (!wrong.ok) {
        expect(wrong.message).toContain('127.0.0.1:3306');
        expect(wrong.message).toContain(`"${user}"`);
      }
      const { logger: recording, warnings } = recordingLogger();
      const limited = inspector({ user, password: 'right-secret' }, recording);
      const health = data('db_health', await limited.inspect({ inspection: 'db_health' }));
      expect(health.checks.find((c) => c.check === 'blocked_sessions')).toMatchObject({
        status: 'unknown',
        value: null,
      });
      expect(warnings().map((w) => w.section)).toContain('lock waits');
      // Tables it has no privilege on do not exist for it.
      expect(await limited.inspect({ inspection: 'table_definition', table: orders })).toMatchObject({
        ok: false,
        code: 'not_found',
      });
    } finally {
      await admin.query(`DROP USER IF EXISTS '${user}'@'%'`);
    }
  });

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
});

describe("MySQL inspections: performance_schema on (a server of the test's own)", () => {
  it("adds a table's row operations and their wait times from the table I/O summary", async () => {
    const own = await startOwnMariadb({ performanceSchema: true });
    const conn = await mysql.createConnection({ ...SHARED, port: own.port });
    try {
      await conn.query('CREATE DATABASE shop');
      await conn.query('CREATE TABLE shop.orders (id int AUTO_INCREMENT PRIMARY KEY, v int) ENGINE=InnoDB');
      await conn.query('INSERT INTO shop.orders (v) VALUES (1), (2), (3)');
      await conn.query('UPDATE shop.orders SET v = 5 WHERE id = 1');
      await conn.query('DELETE FROM shop.orders WHERE id = 2');
      await conn.query('SELECT * FROM shop.orders');
      const read = data(
        'table_counters',
        await inspector({ port: own.port }).inspect({
          inspection: 'table_counters',
          table: { database: 'shop', schema: null, name: 'orders' },
        }),
      );
      const counters = new Map(read.counters.map((c) => [c.key, c]));
      expect(counters.get('rows_inserted')?.value).toBe(3);
      expect(counters.get('rows_updated')?.value).toBe(1);
      expect(counters.get('rows_deleted')?.value).toBe(1);
      expect(counters.get('rows_read')?.value).toBeGreaterThanOrEqual(2);
      expect(counters.get('rows_changed_wait_s')).toMatchObject({ unit: 'seconds' });
      expect(counters.get('rows_changed_wait_s')?.value).toBeGreaterThan(0);
      expect(counters.get('rows_fetched_wait_s')?.value).toBeGreaterThan(0);
      expect(counters.get('auto_increment')?.value).toBe(4);
    } finally {
      await conn.end();
      await own.stop();
    }
  }, 60_000);
});
