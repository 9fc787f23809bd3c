import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AlertEngine, createIngest, type Ingest, startAlertEngine } from '@flightdeck/collector';
import { type Bus, createInProcessBus, createNatsBus } from '@flightdeck/collector/bus';
import { createSqliteStore, type MetricStore } from '@flightdeck/collector/store';
import {
  type OwnNatsServer,
  startOwnNatsServer,
  startTestSmtpServer,
  type TestSmtpServer,
} from '@flightdeck/collector/testing';
import { AlertEvent, SigninData } from '@flightdeck/schemas';
import pino from 'pino';
import { createApp } from '../../app';
import { loadApiConfig } from '../../config';
import type { Engine } from '../../db/kysely';
import { migrateToLatest } from '../../db/migrate';
import { createServer } from '../../db/queries/servers';
import { createTestDatabase, type TestDatabase } from '../../db/testing';
import { createAccount, expectOk } from '../auth/test-app';
import { type AlertService, startAlertService } from './service';

const PASSWORD = 'correct-horse-battery';
const logger = pino({ level: process.env.FD_TEST_LOG ?? 'silent' });

/** An SSE client of `GET /api/events`: what it received, parsed, and a way to hang up. */
export interface EventClient {
  events: { event: string; data: string }[];
  alerts(): AlertEvent[];
  close(): Promise<void>;
}

/** One signed-in customer: its session token, ids and a server. */
export interface TestCustomer {
  token: string;
  customerId: number;
  userId: number;
  serverId: number;
  hostKey: string;
}

/**
 * The whole alert slice in one process, as `npm start` assembles it: a metadata DB of the given
 * engine, a bus, the collector's ingest writing to a SQLite metric store with the alert engine
 * evaluating each written batch, the api's alert service (notifications to a local SMTP server) and
 * the HTTP app. With `nats` the bus is a private NATS server and the api and the collector each
 * have their own connection, as separate processes do. `a` has the thresholds page in its plan,
 * `b` does not.
 */
export interface AlertHarness {
  t: TestDatabase;
  /** The collector's bus (the api's own connection when on NATS). */
  bus: Bus;
  store: MetricStore;
  smtp: TestSmtpServer;
  alerts: AlertService;
  engine: AlertEngine;
  ingest: Ingest;
  app: ReturnType<typeof createApp>;
  a: TestCustomer;
  b: TestCustomer;
  call(method: 'GET' | 'POST', path: string, body?: unknown, token?: string): Promise<Response>;
  openEvents(token?: string): Promise<EventClient>;
  /** Publishes one sample of `a`'s server (or `host`) on the bus. */
  publish(metric: string, v: number, ts: number, host?: string, tenant?: string): Promise<void>;
  /** Stops the alert engine and starts a new one (a collector restart). */
  restartEngine(): Promise<void>;
  close(): Promise<void>;
}

export async function startAlertHarness(
  engineName: Engine,
  transport: 'in-process' | 'nats' = 'in-process',
  /** More api variables, e.g. the chat channels' base URLs pointing at a local capture server. */
  env: Record<string, string> = {},
): Promise<AlertHarness> {
  const t = await createTestDatabase(engineName);
  await migrateToLatest(t.db);
  const dir = mkdtempSync(join(tmpdir(), 'fd-alerts-'));
  const store = createSqliteStore({ path: join(dir, 'metrics.db') });
  let nats: OwnNatsServer | undefined;
  let bus: Bus;
  let apiBus: Bus;
  if (transport === 'nats') {
    nats = await startOwnNatsServer();
    await nats.start();
    bus = await createNatsBus({ servers: nats.url, logger, name: 'collector' });
    apiBus = await createNatsBus({ servers: nats.url, logger, name: 'api' });
  } else {
    bus = createInProcessBus({ logger });
    apiBus = bus;
  }
  const smtp = await startTestSmtpServer();
  const config = loadApiConfig({
    DATA_DIR: dir,
    SMTP_URL: smtp.url,
    PUBLIC_URL: 'http://flightdeck.test',
    ...env,
  });
  const alerts = await startAlertService({
    db: t.db,
    bus: apiBus,
    logger,
    config,
    refreshMs: 100,
    queueOptions: { backoffBaseMs: 50, backoffMaxMs: 200, sendTimeoutMs: 5_000 },
  });
  let engine: AlertEngine | undefined;
  const ingest = createIngest({ bus, store, logger, onWritten: (b) => engine?.evaluate(b) });
  await ingest.start();
  const startEngine = () => startAlertEngine({ bus, logger, refreshMs: 100, checkpointMs: 100 });
  engine = await startEngine();
  const app = createApp({ db: t.db, store, bus: apiBus, config, logger, version: '0.0.0-test', alerts });

  async function customer(email: string, host: string, grantThresholds: boolean): Promise<TestCustomer> {
    const user = await createAccount(t.db, email, PASSWORD, { name: email.split('@')[0]! });
    if (grantThresholds) {
      const c = await t.db
        .selectFrom('customers')
        .select('plan_id')
        .where('id', '=', user.customer_id)
        .executeTakeFirstOrThrow();
      await t.db
        .updateTable('plans')
        .set({ resources: JSON.stringify({ flightdeck: { management: { thresholds: 1 } } }) })
        .where('id', '=', c.plan_id)
        .execute();
    }
    const server = await createServer(t.db, user.customer_id, { host_key: host, hostname: host });
    const res = await app.request('/api/signin', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    const { token } = (await expectOk(res, SigninData)).data;
    return { token, customerId: user.customer_id, userId: user.id, serverId: server.id, hostKey: host };
  }
  const a = await customer('a@example.com', 'web-1', true);
  const b = await customer('b@example.com', 'web-1', false);

  const call = (method: 'GET' | 'POST', path: string, body?: unknown, token = a.token) =>
    Promise.resolve(
      app.request(`/api${path}`, {
        method,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );

  const clients = new Set<EventClient>();
  const harness: AlertHarness = {
    t,
    bus,
    store,
    smtp,
    alerts,
    get engine() {
      return engine!;
    },
    ingest,
    app,
    a,
    b,
    call,
    async openEvents(token = a.token) {
      const res = await call('GET', '/events', undefined, token);
      if (res.status !== 200) throw new Error(`events answered ${res.status}: ${await res.text()}`);
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      const events: { event: string; data: string }[] = [];
      let buffer = '';
      const reading = (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          buffer += decoder.decode(value, { stream: true });
          for (let i = buffer.indexOf('\n\n'); i >= 0; i = buffer.indexOf('\n\n')) {
            const block = buffer.slice(0, i);
            buffer = buffer.slice(i + 2);
            let event = 'message';
            const data: string[] = [];
            for (const line of block.split('\n')) {
              if (line.startsWith('event: ')) event = line.slice(7);
              else if (line.startsWith('data: ')) data.push(line.slice(6));
            }
            events.push({ event, data: data.join('\n') });
          }
        }
      })().catch(() => {});
      const client: EventClient = {
        events,
        alerts: () =>
          events.filter((e) => e.event === 'alert').map((e) => AlertEvent.parse(JSON.parse(e.data))),
        async close() {
          clients.delete(client);
          await reader.cancel().catch(() => {});
          await reading;
        },
      };
      clients.add(client);
      return client;
    },
    publish(metric, v, ts, host = a.hostKey, tenant = String(a.customerId)) {
      return bus.publishMetrics({ v: 1, tenant, host, source: 'agent', ts, samples: [{ m: metric, v }] });
    },
    async restartEngine() {
      const old = engine!;
      engine = undefined;
      await old.stop();
      engine = await startEngine();
    },
    async close() {
      for (const c of [...clients]) await c.close();
      await engine?.stop();
      await alerts.stop();
      await ingest.stop();
      await bus.close();
      if (apiBus !== bus) await apiBus.close();
      await nats?.dispose();
      await store.close();
      await smtp.close();
      await t.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return harness;
}
