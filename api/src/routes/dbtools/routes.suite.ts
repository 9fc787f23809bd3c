import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type AgentlessWorker, startAgentlessWorker } from '@flightdeck/collector';
import { createInProcessBus } from '@flightdeck/collector/bus';
import { createSqliteStore, type MetricStore } from '@flightdeck/collector/store';
import {
  CommandEnqueueData,
  CommandStatusData,
  DatabaseTablesData,
  DbHealthData,
  LinuxStatusData,
  okEnvelope,
  ProcessListData,
  RegisterServiceData,
  ServiceStatusData,
  SigninData,
  SnoopInfoData,
  TableCountersData,
  TableDefinitionData,
  type TableRef,
} from '@flightdeck/schemas';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentlessCoordinator, startAgentlessCoordinator } from '../../agentless/coordinator';
import { createApp } from '../../app';
import { loadApiConfig } from '../../config';
import { createSecretBox, parseSecretsKey } from '../../crypto/secrets';
import type { Engine } from '../../db/kysely';
import { migrateToLatest } from '../../db/migrate';
import { createTestDatabase, type TestDatabase } from '../../db/testing';
import { createAccount, expectError, expectOk } from '../auth/test-app';
import { inspectionDeadlineMs } from './inspect';

const PASSWORD = 'correct-horse-battery';
const logger = pino({ level: 'silent' });
/** Trust auth ignores it; it must still never come back in an answer. */
const PG_PASSWORD = 'pg-secret-never-shown';
/** Short time-outs and interval for the targets of this suite (polled every second by the worker). */
const FAST = { connect_timeout_ms: 1_000, query_timeout_ms: 3_000, interval_s: 10 };
const PG = {
  host: '127.0.0.1',
  port: 5432,
  user: 'postgres',
  password: PG_PASSWORD,
  database: 'postgres',
  ...FAST,
};
const MARIADB = { host: '127.0.0.1', port: 3306, user: 'root', ...FAST };
const COLLECTOR_REFRESH_MS = 300;
const run = promisify(execFile);

/** Statements on the local MariaDB through its command-line client, as root. */
async function mariadb(sql: string): Promise<string> {
  const { stdout } = await run('mariadb', [
    '-h',
    '127.0.0.1',
    '-P',
    '3306',
    '-u',
    'root',
    '--batch',
    '-e',
    sql,
  ]);
  return stdout;
}

/**
 * A TCP relay to the local PostgreSQL. `silence()` makes the target drop off the network: no new
 * connection is accepted and open ones go quiet; `destroy()` ends them at the end of the suite.
 */
async function startRelay() {
  const pairs = new Set<[Socket, Socket]>();
  const server = createServer((client) => {
    const upstream = connect(5432, '127.0.0.1');
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    for (const s of pair) {
      s.on('close', () => pairs.delete(pair));
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the relay has no port');
  return {
    port: address.port,
    silence() {
      server.close();
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    destroy() {
      server.close();
      for (const pair of pairs) for (const s of pair) s.destroy();
    },
  };
}

async function until<T>(
  what: string,
  read: () => Promise<T>,
  done: (v: T) => boolean,
  ms = 15_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value).slice(0, 800)}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/**
 * The database screen's calls through `app.request()`, with the api's coordinator and a real
 * collector agentless worker on the in-process bus, against the local PostgreSQL and MariaDB:
 * live inspections, status tiles from the polled samples, the collectors' view, and the failures
 * (another customer's service, a missing table, a target gone, no collector). Run per metadata DB.
 */
export function dbtoolsRoutesSuite(engine: Engine) {
  describe(`database screen calls on ${engine}`, () => {
    let t: TestDatabase;
    let dir: string;
    let store: MetricStore;
    let bus: ReturnType<typeof createInProcessBus>;
    let coordinator: AgentlessCoordinator;
    let worker: AgentlessWorker | undefined;
    let app: ReturnType<typeof createApp>;
    let relay: Awaited<ReturnType<typeof startRelay>>;
    let admin: pg.Client;
    const key = randomBytes(32).toString('base64');
    const tokens = { a: '', b: '' };
    const fixture = `fd_dbtools_${randomBytes(5).toString('hex')}`;
    const ids = { pg: 0, maria: 0, relayed: 0, url: 0, pgServer: 0, mongoServer: 0 };
    /** Every answer body, to prove no secret ever comes back. */
    const answers: string[] = [];

    async function call(method: 'GET' | 'POST', path: string, body?: unknown, token = tokens.a) {
      const res = await app.request(`/api${path}`, {
        method,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      answers.push(text);
      return new Response(text, { status: res.status, headers: res.headers });
    }

    /** Registers a config through the real onboarding calls: a connection test, then register. */
    async function register(service: string, name: string, config: object): Promise<RegisterServiceData> {
      const res = await call('POST', '/v2/worker/command/enqueue', {
        command: 'connection_test',
        service,
        config,
      });
      const { command_id } = (await expectOk(res, CommandEnqueueData)).data;
      const status = await until(
        `connection test of ${name}`,
        async () =>
          (await expectOk(await call('POST', '/v2/worker/command/status', { command_id }), CommandStatusData))
            .data,
        (s) => s.status !== 'pending',
      );
      expect(status, status.message).toMatchObject({ status: 'ok' });
      return (
        await expectOk(await call('POST', `/${service}/register`, { name, config }), RegisterServiceData)
      ).data;
    }

    /** A service row inserted directly, as for an engine whose onboarding has no connection test here. */
    async function insertService(
      serviceCode: string,
      config: object,
    ): Promise<{ server: number; service: number }> {
      const owner = await t.db
        .selectFrom('users')
        .select('customer_id')
        .where('email', '=', 'a@example.com')
        .executeTakeFirstOrThrow();
      const server = await t.db
        .insertInto('servers')
        .values({
          customer_id: owner.customer_id,
          host_key: `${serviceCode}-${randomBytes(3).toString('hex')}`,
          hostname: '127.0.0.1',
          type: serviceCode,
          created_at: 1,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const service = await t.db
        .insertInto('services')
        .values({
          customer_id: owner.customer_id,
          server_id: server.id,
          service_code: serviceCode,
          config: JSON.stringify(config),
          interval_s: 10,
          created_at: 1,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { server: server.id, service: service.id };
    }

    const status = async (service: string, id: number) =>
      (
        await expectOk(
          await call('POST', `/services_monitored/${service}/get_status`, { id }),
          ServiceStatusData,
        )
      ).data;

    beforeAll(async () => {
      admin = new pg.Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database: 'postgres' });
      await admin.connect();
      await admin.query(`CREATE SCHEMA ${fixture}`);
      await admin.query(
        `CREATE TABLE ${fixture}.orders (id serial PRIMARY KEY, customer text NOT NULL, total numeric(10,2) DEFAULT 0)`,
      );
      await admin.query(`CREATE INDEX orders_customer ON ${fixture}.orders (customer)`);
      await admin.query(
        `INSERT INTO ${fixture}.orders (customer, total) SELECT 'c' || g, g FROM generate_series(1, 500) g`,
      );
      await admin.query(`ANALYZE ${fixture}.orders`);
      await mariadb(
        `CREATE DATABASE ${fixture}; CREATE TABLE ${fixture}.orders (id int AUTO_INCREMENT PRIMARY KEY, ` +
          `customer varchar(40) NOT NULL, total decimal(10,2) DEFAULT 0, KEY orders_customer (customer)) ENGINE=InnoDB; ` +
          `INSERT INTO ${fixture}.orders (customer, total) VALUES ('a', 1), ('b', 2), ('c', 3); ANALYZE TABLE ${fixture}.orders;`,
      );

      t = await createTestDatabase(engine);
      await migrateToLatest(t.db);
      dir = mkdtempSync(join(tmpdir(), 'fd-dbtools-'));
      store = createSqliteStore({ path: join(dir, 'metrics.db') });
      bus = createInProcessBus({ logger });
      await bus.consumeMetrics(async (b) => {
        await store.write([b]);
      });
      coordinator = await startAgentlessCoordinator({
        db: t.db,
        bus,
        box: createSecretBox(parseSecretsKey(key)!),
        logger,
        refreshMs: COLLECTOR_REFRESH_MS,
      });
      worker = await startAgentlessWorker({
        bus,
        logger,
        refreshMs: COLLECTOR_REFRESH_MS,
        intervalMs: () => 1_000,
      });
      app = createApp({
        db: t.db,
        store,
        bus,
        config: loadApiConfig({ DATA_DIR: dir, SECRETS_KEY: key }),
        logger,
        version: '0.0.0-test',
        agentless: coordinator,
      });
      await createAccount(t.db, 'a@example.com', PASSWORD);
      await createAccount(t.db, 'b@example.com', PASSWORD);
      for (const who of ['a', 'b'] as const) {
        const res = await app.request('/api/signin', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ email: `${who}@example.com`, password: PASSWORD }),
        });
        tokens[who] = okEnvelope(SigninData).parse(await res.json()).data.token;
      }

      relay = await startRelay();
      const pgReg = await register('postgresql', 'main pg', PG);
      ids.pg = pgReg.service_id;
      ids.pgServer = pgReg.server_id;
      ids.maria = (await register('mysql', 'main maria', MARIADB)).service_id;
      ids.relayed = (await register('postgresql', 'relayed pg', { ...PG, port: relay.port })).service_id;
      ids.url = (await insertService('url', { url: 'https://user:hunter2@example.invalid/health' })).service;
      ids.mongoServer = (await insertService('mongodb', { host: '127.0.0.1', port: 1, user: 'x' })).server;
      await worker.refresh();
    });

    afterAll(async () => {
      await worker?.stop();
      await coordinator?.stop();
      await bus?.close();
      await store?.close();
      await t?.drop();
      relay?.destroy();
      rmSync(dir, { recursive: true, force: true });
      await admin?.query(`DROP SCHEMA IF EXISTS ${fixture} CASCADE`);
      await admin?.end();
      await mariadb(`DROP DATABASE IF EXISTS ${fixture}`);
    });

    const pgTable: TableRef = { database: 'postgres', schema: fixture, name: 'orders' };
    const mariaTable: TableRef = { database: fixture, schema: null, name: 'orders' };

    it('lists the PostgreSQL sessions, a running pg_sleep among them', async () => {
      const sleeper = new pg.Client({
        host: '127.0.0.1',
        port: 5432,
        user: 'postgres',
        database: 'postgres',
      });
      await sleeper.connect();
      const marker = `fd_marker_${randomBytes(4).toString('hex')}`;
      const sleeping = sleeper.query(`SELECT pg_sleep(4), '${marker}'`);
      try {
        const list = await until(
          'process list without the pg_sleep',
          async () =>
            (await expectOk(await call('POST', '/process_list', { id: ids.pg }), ProcessListData)).data,
          (d) => d.sessions.some((s) => s.query?.includes(marker)),
        );
        const session = list.sessions.find((s) => s.query?.includes(marker))!;
        expect(session).toMatchObject({ user: 'postgres', database: 'postgres' });
        expect(list.long_query_s).toBe(60);
      } finally {
        await sleeping;
        await sleeper.end();
      }
    });

    it('lists the MariaDB sessions, a running SLEEP among them', async () => {
      const marker = `fd_marker_${randomBytes(4).toString('hex')}`;
      const sleeping = mariadb(`SELECT SLEEP(4), '${marker}'`);
      try {
        await until(
          'process list without the SLEEP',
          async () =>
            (await expectOk(await call('POST', '/process_list', { id: ids.maria }), ProcessListData)).data,
          (d) => d.sessions.some((s) => s.query?.includes(marker)),
        );
      } finally {
        await sleeping;
      }
    });

    it('lists the tables, then reads the definition and counters of one (PostgreSQL and MariaDB)', async () => {
      for (const [id, table, engineName] of [
        [ids.pg, pgTable, 'postgresql'],
        [ids.maria, mariaTable, 'mysql'],
      ] as const) {
        const tables = (
          await expectOk(await call('GET', `/services/database_tables?id=${id}`), DatabaseTablesData)
        ).data;
        const listed = tables.tables.find(
          (x) => x.database === table.database && x.name === 'orders' && x.schema === table.schema,
        );
        expect(listed, `${engineName}: ${JSON.stringify(tables.tables.slice(0, 5))}`).toBeDefined();

        const definition = (
          await expectOk(await call('POST', '/get_table_definition', { id, table }), TableDefinitionData)
        ).data;
        expect(definition.table).toEqual(table);
        expect(definition.columns.map((c) => c.name)).toEqual(['id', 'customer', 'total']);
        expect(definition.columns.find((c) => c.name === 'id')).toMatchObject({
          primary: true,
          nullable: false,
        });
        expect(definition.columns.find((c) => c.name === 'customer')).toMatchObject({ nullable: false });
        expect(definition.indexes.some((i) => i.primary && i.columns.join() === 'id')).toBe(true);
        expect(definition.indexes.find((i) => i.name === 'orders_customer')?.columns).toEqual(['customer']);

        const counters = (
          await expectOk(await call('POST', '/get_table_counters', { id, table }), TableCountersData)
        ).data;
        expect(counters.table).toEqual(table);
        expect(counters.counters.length, engineName).toBeGreaterThan(0);
      }
    });

    it('answers 404 for a table that does not exist, and 400 for a request without the table', async () => {
      const missing = await expectError(
        await call('POST', '/get_table_definition', {
          id: ids.pg,
          table: { ...pgTable, name: 'no_such_table' },
        }),
        404,
        'not_found',
      );
      expect(missing.message).toContain('no_such_table');
      await expectError(
        await call('POST', '/get_table_counters', {
          id: ids.maria,
          table: { ...mariaTable, name: 'no_such_table' },
        }),
        404,
        'not_found',
      );
      await expectError(await call('POST', '/get_table_counters', { id: ids.pg }), 400, 'validation_failed');
      await expectError(await call('GET', '/services/database_tables'), 400, 'validation_failed');
    });

    it('reads the health of every database of the instance', async () => {
      const pgHealth = (
        await expectOk(await call('POST', '/get_all_db_health', { id: ids.pg }), DbHealthData)
      ).data;
      expect(pgHealth.databases.map((d) => d.name)).toContain('postgres');
      expect(pgHealth.checks.length).toBeGreaterThan(0);
      const mariaHealth = (
        await expectOk(await call('POST', '/get_all_db_health', { id: ids.maria }), DbHealthData)
      ).data;
      expect(mariaHealth.databases.map((d) => d.name)).toContain(fixture);
    });

    it("answers 404 for another customer's service and server, exactly as for a missing one", async () => {
      const calls: [string, string, unknown][] = [
        ['POST', '/process_list', { id: ids.pg }],
        ['GET', `/services/database_tables?id=${ids.pg}`, undefined],
        ['POST', '/get_table_definition', { id: ids.pg, table: pgTable }],
        ['POST', '/get_table_counters', { id: ids.pg, table: pgTable }],
        ['POST', '/get_all_db_health', { id: ids.pg }],
        ['POST', '/services_monitored/postgresql/get_status', { id: ids.pg }],
        ['POST', '/mongodb/get_replication_members', { server_id: ids.mongoServer }],
      ];
      for (const [method, path, body] of calls) {
        const theirs = await expectError(await call(method as 'GET', path, body, tokens.b), 404, 'not_found');
        const missingPath = path.replace(/id=\d+/, 'id=999999');
        const missingBody =
          body && typeof body === 'object'
            ? Object.fromEntries(Object.entries(body).map(([k, v]) => [k, k === 'table' ? v : 999_999]))
            : undefined;
        const missing = await expectError(
          await call(method as 'GET', missingPath, missingBody),
          404,
          'not_found',
        );
        expect(theirs.message, path).toBe(missing.message);
      }
    });

    it('refuses an inspection the engine does not have, and names who has it', async () => {
      const res = await expectError(
        await call('POST', '/process_list', { id: ids.url }),
        400,
        'validation_failed',
      );
      expect(res.message).toMatch(/^URL services have no process list: only PostgreSQL, MySQL/);
      // MongoDB: the server is found and the request reaches a collector, which names its failure.
      const mongo = await call('POST', '/mongodb/get_replication_members', { server_id: ids.mongoServer });
      const body = (await mongo.json()) as { code: string };
      expect([400, 502]).toContain(mongo.status);
      expect(['bad_config', 'connection_failed']).toContain(body.code);
      await expectError(
        await call('POST', '/mongodb/get_replication_members', { server_id: ids.pgServer }),
        404,
        'not_found',
      );
    });

    it('shows the status tiles of a polled service from its latest samples', async () => {
      const pgStatus = await until(
        'PostgreSQL figures',
        () => status('postgresql', ids.pg),
        (s) => s.status === 'up' && 'pg.connections_total' in s.figures,
      );
      expect(pgStatus).toMatchObject({
        id: ids.pg,
        service: 'postgresql',
        target: '127.0.0.1:5432',
        interval_s: 10,
      });
      // The service's own series only: its engine's and its availability.
      expect(Object.keys(pgStatus.figures).filter((k) => !k.startsWith('pg.'))).toEqual(['service.up']);
      expect(pgStatus.uptime_s).toBeGreaterThan(0);
      expect(pgStatus.last_sample_ts).toBeGreaterThan(Date.now() - 60_000);
      const mariaStatus = await until(
        'MariaDB figures',
        () => status('mysql', ids.maria),
        (s) => s.status === 'up' && 'mysql.threads_connected' in s.figures,
      );
      expect(Object.keys(mariaStatus.figures).filter((k) => !k.startsWith('mysql.'))).toEqual(['service.up']);
      expect(mariaStatus.target).toBe('127.0.0.1:3306');
      // The path names the engine: a PostgreSQL id under mysql is not found.
      await expectError(
        await call('POST', '/services_monitored/mysql/get_status', { id: ids.pg }),
        404,
        'not_found',
      );
      const url = await status('url', ids.url);
      expect(url.target).toBe('https://example.invalid/health');
      // The Linux status tiles of the same path family still answer.
      await expectOk(
        await call('POST', '/services_monitored/linux/get_status', { id: ids.pgServer }),
        LinuxStatusData,
      );
    });

    it("lists the live collector with the customer's services it polls, and only that customer's", async () => {
      // The URL target does not resolve: its failure names the URL, never the password in it.
      const mine = await until(
        'URL target reported unavailable',
        async () => (await expectOk(await call('GET', '/workers/get_snoop_info'), SnoopInfoData)).data,
        (d) =>
          d.collectors.some((c) =>
            c.services.some((s) => s.id === ids.url && s.availability === 'unavailable'),
          ),
      );
      const collector = mine.collectors.find((c) => c.id === worker!.collectorId);
      expect(collector).toMatchObject({ worker: 'collectors' });
      expect(collector!.targets).toBeGreaterThanOrEqual(3);
      expect(collector!.services.map((s) => s.id)).toEqual(
        expect.arrayContaining([ids.pg, ids.maria, ids.relayed, ids.url]),
      );
      expect(collector!.services.find((s) => s.id === ids.pg)).toMatchObject({
        target: '127.0.0.1:5432',
        availability: 'available',
      });
      const url = collector!.services.find((s) => s.id === ids.url)!;
      expect(url.last_error).toContain('example.invalid');
      expect(url.target).toBe('https://example.invalid/health');
      expect(mine.unassigned).toEqual([]);
      const theirs = (
        await expectOk(await call('GET', '/workers/get_snoop_info', undefined, tokens.b), SnoopInfoData)
      ).data;
      expect(theirs.collectors.map((c) => c.id)).toContain(worker!.collectorId);
      expect(theirs.collectors.flatMap((c) => c.services)).toEqual([]);
      expect(theirs.unassigned).toEqual([]);
    });

    it('names the failure of a target that went away, within the deadline, and shows it down', async () => {
      await until(
        'relayed target polled',
        () => status('postgresql', ids.relayed),
        (s) => s.status === 'up',
      );
      relay.silence();
      const started = Date.now();
      const failed = await expectError(
        await call('POST', '/process_list', { id: ids.relayed }),
        502,
        'connection_failed',
      );
      expect(Date.now() - started).toBeLessThan(inspectionDeadlineMs(PG));
      expect(failed.message).toContain(`127.0.0.1:${relay.port}`);
      const down = await until(
        'relayed target down',
        () => status('postgresql', ids.relayed),
        (s) => s.status === 'down',
      );
      expect(down.message).toContain(`127.0.0.1:${relay.port}`);
      expect(down.message).not.toMatch(/^connection_failed:/);
    });

    it('answers no_collector, with what to do, when no collector runs', async () => {
      await worker!.stop();
      worker = undefined;
      const right = await expectError(
        await call('POST', '/process_list', { id: ids.pg }),
        503,
        'no_collector',
      );
      expect(right.message).toMatch(/start/i);
      // Once the collector's presence has lapsed, the snoop view shows the services unassigned.
      const snoop = await until(
        'collector presence lapsed',
        async () => (await expectOk(await call('GET', '/workers/get_snoop_info'), SnoopInfoData)).data,
        (d) => d.collectors.length === 0,
      );
      expect(snoop.unassigned.map((s) => s.id)).toEqual(expect.arrayContaining([ids.pg, ids.maria]));
      const later = await expectError(
        await call('GET', `/services/database_tables?id=${ids.pg}`),
        503,
        'no_collector',
      );
      expect(later.message).toMatch(/start a collector/);
    });

    it('never returns a password in any answer', () => {
      expect(answers.length).toBeGreaterThan(20);
      for (const text of answers) {
        expect(text).not.toContain(PG_PASSWORD);
        expect(text).not.toContain('hunter2');
      }
    });
  });
}
