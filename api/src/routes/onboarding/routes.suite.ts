import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type AgentlessWorker,
  type AlertEngine,
  createIngest,
  type Ingest,
  startAgentlessWorker,
  startAlertEngine,
} from '@flightdeck/collector';
import { createInProcessBus } from '@flightdeck/collector/bus';
import { createSqliteStore, type MetricStore } from '@flightdeck/collector/store';
import {
  type AlertGroup,
  AlertListData,
  AlterThresholdData,
  AvailableWorkersData,
  ChartData,
  CommandEnqueueData,
  CommandStatusData,
  GetThresholdsServerData,
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
import { type AlertService, startAlertService } from '../alerts/service';
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
/** Short time-outs for the targets made unreachable (polled every second by the worker). */
const FAST = { connect_timeout_ms: 1_000, query_timeout_ms: 2_000 };

/**
 * A TCP relay to the local PostgreSQL that can take the target off the network: while dark it
 * accepts connections and never answers, and the connections already open go quiet, as when a
 * host stops answering; back, it relays again and the connections it held are cut.
 */
async function startRelay() {
  let dark = false;
  const open = new Set<Socket>();
  const track = (s: Socket) => {
    open.add(s);
    s.on('close', () => open.delete(s));
    s.on('error', () => s.destroy());
  };
  const server = createServer((client) => {
    track(client);
    if (dark) {
      client.pause();
      return;
    }
    const upstream = connect(5432, '127.0.0.1');
    track(upstream);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the relay has no port');
  return {
    port: address.port,
    goDark() {
      dark = true;
      for (const s of open) {
        s.unpipe();
        s.pause();
      }
    },
    comeBack() {
      dark = false;
      for (const s of [...open]) s.destroy();
    },
    async close() {
      for (const s of [...open]) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The value `read` gives once `done` holds, reading again every 100 ms for up to `ms`. */
async function until<T>(what: string, read: () => Promise<T>, done: (v: T) => boolean, ms = 20_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value).slice(0, 800)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Agentless onboarding through `app.request()` with an in-process bus, the api's coordinator and a
 * collector's agentless worker, its ingest and alert engine and the api's alert service:
 * connection tests against the local PostgreSQL and MariaDB, then registration, polling, the chart
 * of the registered server and the "server unreachable" alert of a target that stops answering.
 * Run per metadata DB engine.
 */
export function onboardingRoutesSuite(engine: Engine) {
  describe(`agentless onboarding on ${engine}`, () => {
    let t: TestDatabase;
    let dir: string;
    let store: MetricStore;
    let bus: ReturnType<typeof createInProcessBus>;
    let coordinator: AgentlessCoordinator;
    let worker: AgentlessWorker;
    let ingest: Ingest;
    let alertEngine: AlertEngine | undefined;
    let alerts: AlertService;
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

    const thresholdsOf = async (serverId: number) =>
      (
        await expectOk(
          await call('POST', '/server/get_thresholds_server', { server_id: serverId }),
          GetThresholdsServerData,
        )
      ).data.thresholds;
    const alertList = async () =>
      (await expectOk(await call('GET', '/services_monitored/alerts/list'), AlertListData)).data;
    const groupOf = (groups: AlertGroup[], serverId: number) => groups.find((g) => g.server_id === serverId);
    const availabilityThreshold = (serverId: number, service: string) => ({
      server_id: serverId,
      service,
      metric: 'service.up',
      mode: 'defined',
      operator: 'lt',
      yellow: null,
      red: 1,
      recovery: null,
      for_s: 0,
      type_id: 1,
      enabled: true,
    });

    beforeAll(async () => {
      t = await createTestDatabase(engine);
      await migrateToLatest(t.db);
      dir = mkdtempSync(join(tmpdir(), 'fd-onboarding-'));
      store = createSqliteStore({ path: join(dir, 'metrics.db') });
      bus = createInProcessBus({ logger });
      const config = loadApiConfig({ DATA_DIR: dir, SECRETS_KEY: key });
      alerts = await startAlertService({ db: t.db, bus, logger, config, refreshMs: 100 });
      ingest = createIngest({ bus, store, logger, onWritten: (b) => alertEngine?.evaluate(b) });
      await ingest.start();
      alertEngine = await startAlertEngine({ bus, logger, refreshMs: 100, checkpointMs: 100 });
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
        alerts,
      });
      const owner = await createAccount(t.db, 'a@example.com', PASSWORD);
      await createAccount(t.db, 'b@example.com', PASSWORD);
      // Customer A's plan has the thresholds page, whose calls list the thresholds.
      const plan = await t.db
        .selectFrom('customers')
        .select('plan_id')
        .where('id', '=', owner.customer_id)
        .executeTakeFirstOrThrow();
      await t.db
        .updateTable('plans')
        .set({ resources: JSON.stringify({ flightdeck: { management: { thresholds: 1 } } }) })
        .where('id', '=', plan.plan_id)
        .execute();
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
      await alertEngine?.stop();
      await alerts?.stop();
      await ingest?.stop();
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
      let changed = 0;
      const stopListening = coordinator.onServicesChanged(() => changed++);
      const reg = (
        await expectOk(await call('POST', '/postgresql/register', { name: 'main db' }), RegisterServiceData)
      ).data;
      stopListening();
      // Collectors of this process are told at once, so the new target is polled without waiting.
      expect(changed).toBe(1);
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
      // Registered with its availability threshold, listed like any other.
      expect(await thresholdsOf(reg.server_id)).toEqual([
        expect.objectContaining(availabilityThreshold(reg.server_id, 'postgresql')),
      ]);

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
      expect(await thresholdsOf(first)).toEqual([
        expect.objectContaining(availabilityThreshold(first, 'postgresql')),
        expect.objectContaining(availabilityThreshold(first, 'mysql')),
      ]);
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

    it('keeps the availability threshold as the user left it when another target of the service is added', async () => {
      const first = (await t.db.selectFrom('servers').select('id').orderBy('id').executeTakeFirstOrThrow())
        .id;
      const [before] = (await thresholdsOf(first)).filter((th) => th.service === 'postgresql');
      await expectOk(
        await call('POST', '/services_monitored/alerts/alter_threshold', {
          id: before!.id,
          action: 'disable',
        }),
        AlterThresholdData,
      );
      await t.db.updateTable('plans').set({ max_services: null }).execute();
      await connectionTest('postgresql', PG);
      await expectOk(
        await call('POST', '/postgresql/add', { server_id: first, name: 'replica', config: PG }),
        RegisterServiceData,
      );
      expect(await thresholdsOf(first)).toEqual([
        expect.objectContaining({
          ...availabilityThreshold(first, 'postgresql'),
          id: before!.id,
          enabled: false,
        }),
        expect.objectContaining(availabilityThreshold(first, 'mysql')),
      ]);
    });

    it('marks an unreachable target unavailable with its error, and one stored without a threshold gets it and its alert', async () => {
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
      // Stored as before registrations came with a threshold: it got one when first assigned.
      expect(await thresholdsOf(server.id)).toEqual([
        expect.objectContaining(availabilityThreshold(server.id, 'postgresql')),
      ]);
      const groups = await until('the alert of the unreachable target', alertList, (g) =>
        Boolean(groupOf(g, server.id)),
      );
      expect(groupOf(groups, server.id)?.alerts).toEqual([
        expect.objectContaining({
          type: 1,
          status: 'R',
          service: 'postgresql',
          metric: 'service.up',
          value: 0,
          alert_text: '127.0.0.1 is unreachable: postgresql did not answer the connection.',
        }),
      ]);
    });

    it('raises "server unreachable" for a target that stops answering, resolves it when it answers again and keeps polling the others on time', async () => {
      const relay = await startRelay();
      try {
        const relayed = { ...PG, ...FAST, port: relay.port };
        const healthy = { ...PG, ...FAST };
        expect(await connectionTest('postgresql', relayed)).toMatchObject({ status: 'ok' });
        expect(await connectionTest('postgresql', healthy)).toMatchObject({ status: 'ok' });
        const orders = (
          await expectOk(
            await call('POST', '/postgresql/register', { name: 'orders db', config: relayed }),
            RegisterServiceData,
          )
        ).data;
        const billing = (
          await expectOk(
            await call('POST', '/postgresql/register', { name: 'billing db', config: healthy }),
            RegisterServiceData,
          )
        ).data;
        const hostOf = async (serverId: number) =>
          (
            await t.db
              .selectFrom('servers')
              .select('host_key')
              .where('id', '=', serverId)
              .executeTakeFirstOrThrow()
          ).host_key;
        const tenant = String(
          (
            await t.db
              .selectFrom('servers')
              .select('customer_id')
              .where('id', '=', orders.server_id)
              .executeTakeFirstOrThrow()
          ).customer_id,
        );
        const up = async (host: string) =>
          (await store.latest({ tenant, host, service: 'postgresql', metric: 'service.up' }))[0];
        const ordersHost = await hostOf(orders.server_id);
        const billingHost = await hostOf(billing.server_id);
        await worker.refresh();
        await until(
          'both targets polled',
          async () => [await up(ordersHost), await up(billingHost)],
          (v) => v.every((s) => s?.value === 1),
        );
        expect(groupOf(await alertList(), orders.server_id)).toBeUndefined();

        relay.goDark();
        const darkAt = Date.now();
        const groups = await until('the alert of the target gone dark', alertList, (g) =>
          Boolean(groupOf(g, orders.server_id)),
        );
        const group = groupOf(groups, orders.server_id)!;
        expect(group).toMatchObject({ server_name: 'orders db', status: 'R' });
        expect(group.alerts).toEqual([
          expect.objectContaining({
            type: 1,
            status: 'R',
            service: 'postgresql',
            metric: 'service.up',
            value: 0,
            event: 'new',
            alert_text: 'orders db is unreachable: postgresql did not answer the connection.',
          }),
        ]);
        // Within a few polls (1 s apart) of the target going dark, its poll time-outs included.
        expect(Date.now() - darkAt).toBeLessThan(12_000);
        expect(groupOf(groups, billing.server_id)).toBeUndefined();
        // The target stays dark for at least 7 s (7 polls of the healthy one) before it comes back.
        await new Promise((r) => setTimeout(r, Math.max(1_000, darkAt + 7_000 - Date.now())));

        relay.comeBack();
        const backAt = Date.now();
        await until('the alert resolved', alertList, (g) => !groupOf(g, orders.server_id));
        const history = await t.db
          .selectFrom('alert_history')
          .selectAll()
          .where('server_id', '=', orders.server_id)
          .execute();
        expect(history).toEqual([
          expect.objectContaining({ type_id: 1, level: 'R', event: 'resolved', metric: 'service.up' }),
        ]);
        expect(history[0]!.date_exit).not.toBeNull();

        // The healthy target was polled every second all along, and reached each time.
        const start = Math.ceil(darkAt / 1000);
        const end = Math.floor(backAt / 1000);
        const chart = await store.query({
          series: [{ tenant, host: billingHost, service: 'postgresql', metric: 'service.up' }],
          start,
          end,
          step: 1,
          agg: 'min',
        });
        const seconds = chart.x_values.filter((_, i) => chart.y_values['service.up']?.[i] != null);
        expect(end - start).toBeGreaterThan(5);
        expect(seconds.length).toBeGreaterThanOrEqual(end - start - 2);
        for (let i = 1; i < seconds.length; i++) expect(seconds[i]! - seconds[i - 1]!).toBeLessThanOrEqual(2);
        expect(chart.y_values['service.up']?.filter((v) => v != null && v !== 1)).toEqual([]);
      } finally {
        await relay.close();
      }
    });
  });
}
