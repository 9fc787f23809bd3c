import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentlessWorker, startAgentlessWorker } from '@flightdeck/collector';
import { createInProcessBus } from '@flightdeck/collector/bus';
import { createSqliteStore, type MetricStore } from '@flightdeck/collector/store';
import {
  AvailableWorkersData,
  ChartData,
  CommandEnqueueData,
  CommandStatusData,
  MaskedConfigData,
  okEnvelope,
  RegisterServiceData,
  SECRET_MASK,
  SigninData,
} from '@flightdeck/schemas';
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

const PASSWORD = 'correct-horse-battery';
const logger = pino({ level: 'silent' });
const PG = {
  host: '127.0.0.1',
  port: 5432,
  user: 'postgres',
  password: 'unused-by-trust',
  database: 'postgres',
};
const MARIADB = { host: '127.0.0.1', port: 3306, user: 'root' };

/**
 * Agentless onboarding through `app.request()` with an in-process bus, the api's coordinator and a
 * collector's agentless worker: connection tests against the local PostgreSQL and MariaDB, then
 * registration, polling and the chart of the registered server. Run per metadata DB engine.
 */
export function onboardingRoutesSuite(engine: Engine) {
  describe(`agentless onboarding on ${engine}`, () => {
    let t: TestDatabase;
    let dir: string;
    let store: MetricStore;
    let bus: ReturnType<typeof createInProcessBus>;
    let coordinator: AgentlessCoordinator;
    let worker: AgentlessWorker;
    let app: ReturnType<typeof createApp>;
    const key = randomBytes(32).toString('base64');
    const tokens = { a: '', b: '' };

    const call = (method: 'GET' | 'POST', path: string, body?: unknown, token = tokens.a) =>
      app.request(`/api${path}`, {
        method,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });

    async function connectionTest(service: string, config: object, token = tokens.a) {
      const res = await call(
        'POST',
        '/v2/worker/command/enqueue',
        { command: 'connection_test', service, config },
        token,
      );
      const { command_id } = (await expectOk(res, CommandEnqueueData)).data;
      for (let i = 0; i < 200; i++) {
        const status = (
          await expectOk(
            await call('POST', '/v2/worker/command/status', { command_id }, token),
            CommandStatusData,
          )
        ).data;
        if (status.status !== 'pending') return { command_id, ...status };
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('connection test still pending');
    }

    beforeAll(async () => {
      t = await createTestDatabase(engine);
      await migrateToLatest(t.db);
      dir = mkdtempSync(join(tmpdir(), 'fd-onboarding-'));
      store = createSqliteStore({ path: join(dir, 'metrics.db') });
      bus = createInProcessBus({ logger });
      await bus.consumeMetrics(async (b) => {
        await store.write([b]);
      });
      const config = loadApiConfig({ DATA_DIR: dir, SECRETS_KEY: key });
      coordinator = await startAgentlessCoordinator({
        db: t.db,
        bus,
        box: createSecretBox(parseSecretsKey(key)!),
        logger,
        refreshMs: 300,
      });
      worker = await startAgentlessWorker({ bus, logger, refreshMs: 300, intervalMs: () => 1_000 });
      app = createApp({
        db: t.db,
        store,
        bus,
        config,
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
    });

    afterAll(async () => {
      await worker?.stop();
      await coordinator?.stop();
      await bus?.close();
      await store?.close();
      await t?.drop();
      rmSync(dir, { recursive: true, force: true });
    });

    it('lists the collector that asked for its targets and the default config', async () => {
      const workers = (await expectOk(await call('GET', '/workers/available'), AvailableWorkersData)).data;
      expect(workers.map((w) => w.id)).toEqual([worker.collectorId]);
      const def = (await expectOk(await call('GET', '/postgresql/default_config'), MaskedConfigData)).data;
      expect(def.config).toMatchObject({ host: 'localhost', port: 5432, interval_s: 60 });
    });

    it('tests the local PostgreSQL and MariaDB through the collector, and names what fails', async () => {
      const pg = await connectionTest('postgresql', PG);
      expect(pg).toMatchObject({ status: 'ok' });
      expect(pg.version).toMatch(/\d+/);
      const maria = await connectionTest('mysql', MARIADB);
      expect(maria).toMatchObject({ status: 'ok' });
      const closed = await connectionTest('postgresql', { ...PG, port: 1, connect_timeout_ms: 1_000 });
      expect(closed).toMatchObject({ status: 'error', code: 'connection_failed' });
      const wrongUser = await connectionTest('mysql', { ...MARIADB, user: 'nobody_here', password: 'x' });
      expect(wrongUser).toMatchObject({ status: 'error', code: 'auth_failed' });
      // Another customer cannot read this customer's test.
      await expectError(
        await call('POST', '/v2/worker/command/status', { command_id: pg.command_id }, tokens.b),
        404,
        'not_found',
      );
      await expectError(
        await call('POST', '/v2/worker/command/enqueue', {
          command: 'connection_test',
          service: 'postgresql',
          config: { port: 5432 },
        }),
        400,
        'validation_failed',
      );
    });

    it('registers only a tested config, never returns its password and keeps it sealed', async () => {
      const untested = { ...PG, database: 'template1' };
      await expectError(
        await call('POST', '/postgresql/register', { name: 'db', config: untested }),
        409,
        'conflict',
      );
      // Tested by customer A only: customer B may not register it.
      await connectionTest('postgresql', PG);
      await expectError(
        await call('POST', '/postgresql/register', { name: 'db', config: PG }, tokens.b),
        409,
        'conflict',
      );
      const saved = (
        await expectOk(await call('POST', '/postgresql/save_in_session', { config: PG }), MaskedConfigData)
      ).data;
      expect(saved.config.password).toBe(SECRET_MASK);
      const reg = (
        await expectOk(await call('POST', '/postgresql/register', { name: 'main db' }), RegisterServiceData)
      ).data;
      const row = await t.db
        .selectFrom('services')
        .selectAll()
        .where('id', '=', reg.service_id)
        .executeTakeFirstOrThrow();
      expect(row.config).not.toContain(PG.password);
      expect(row.secrets).not.toContain(PG.password);
      expect(JSON.stringify(row)).not.toContain(PG.password);
      const server = await t.db
        .selectFrom('servers')
        .selectAll()
        .where('id', '=', reg.server_id)
        .executeTakeFirstOrThrow();
      expect(server).toMatchObject({
        platform: null,
        hostname: '127.0.0.1',
        host_key: 'postgresql-127-0-0-1-5432',
      });

      // Polled by the collector: pg.connections reaches the store and the server's chart.
      await worker.refresh();
      const deadline = Date.now() + 15_000;
      let chart: ChartData | undefined;
      for (;;) {
        const res = await call('POST', '/bot/get_server_service_graphic_data', {
          server_id: reg.server_id,
          graph_id: 'pg_connections',
          start: Math.floor(Date.now() / 1000) - 600,
          end: Math.floor(Date.now() / 1000) + 60,
        });
        chart = (await expectOk(res, ChartData)).data;
        const values = Object.values(chart.y_values ?? {})
          .flat()
          .filter((v) => typeof v === 'number');
        if (values.length > 0) break;
        if (Date.now() > deadline) throw new Error(`no pg.connections polled: ${JSON.stringify(chart)}`);
        await new Promise((r) => setTimeout(r, 200));
      }
      const status = await t.db
        .selectFrom('services')
        .select('availability')
        .where('id', '=', reg.service_id)
        .executeTakeFirstOrThrow();
      expect(status.availability).toBe('available');
    });

    it('adds a service to an existing server and enforces the plan limits', async () => {
      await connectionTest('mysql', MARIADB);
      const first = (await t.db.selectFrom('servers').select('id').orderBy('id').executeTakeFirstOrThrow())
        .id;
      const added = (
        await expectOk(
          await call('POST', '/mysql/add', { server_id: first, config: MARIADB }),
          RegisterServiceData,
        )
      ).data;
      expect(added.server_id).toBe(first);
      await expectError(
        await call('POST', '/mysql/add', { server_id: first, config: MARIADB }, tokens.b),
        404,
        'not_found',
      );
      const customer = await t.db
        .selectFrom('users')
        .select('customer_id')
        .where('email', '=', 'a@example.com')
        .executeTakeFirstOrThrow();
      const plan = await t.db
        .selectFrom('customers')
        .select('plan_id')
        .where('id', '=', customer.customer_id)
        .executeTakeFirstOrThrow();
      await t.db.updateTable('plans').set({ max_services: 2 }).where('id', '=', plan.plan_id).execute();
      const limited = await expectError(
        await call('POST', '/mysql/add', { server_id: first, config: MARIADB }),
        409,
        'service_limit_reached',
      );
      expect(limited.message).toMatch(/Service limit reached/);
    });

    it('marks an unreachable registered target unavailable with its error', async () => {
      // A target that answered its test and went away: registered directly, as after an outage.
      const bad = { ...PG, port: 1, connect_timeout_ms: 1_000 };
      const row = await t.db
        .selectFrom('services')
        .select('customer_id')
        .orderBy('id')
        .executeTakeFirstOrThrow();
      await t.db.updateTable('plans').set({ max_services: null }).execute();
      const server = await t.db
        .insertInto('servers')
        .values({ customer_id: row.customer_id, host_key: 'gone', hostname: '127.0.0.1', created_at: 1 })
        .returning('id')
        .executeTakeFirstOrThrow();
      const svc = await t.db
        .insertInto('services')
        .values({
          customer_id: row.customer_id,
          server_id: server.id,
          service_code: 'postgresql',
          config: JSON.stringify(bad),
          created_at: 1,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await worker.refresh();
      const deadline = Date.now() + 10_000;
      for (;;) {
        const s = await t.db
          .selectFrom('services')
          .selectAll()
          .where('id', '=', svc.id)
          .executeTakeFirstOrThrow();
        if (s.availability === 'unavailable') {
          expect(s.last_error).toMatch(/^connection_failed: /);
          break;
        }
        if (Date.now() > deadline) throw new Error('target never marked unavailable');
        await new Promise((r) => setTimeout(r, 100));
      }
    });
  });
}
