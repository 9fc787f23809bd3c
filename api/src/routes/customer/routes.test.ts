import { tmpdir } from 'node:os';
import type { Bus } from '@flightdeck/collector/bus';
import type { MetricStore } from '@flightdeck/collector/store';
import {
  ErrorEnvelope,
  IsAvailableData,
  ModuleValidityData,
  okEnvelope,
  PlanConfig,
  PlanResourceAvailability,
  PlanResources,
  PlansFromResourceData,
  PlatformMaxUsersData,
  PlatformPermissionData,
  PlatformServicesData,
  RoutesData,
  ServersResourceData,
  SigninData,
  UserLimitData,
} from '@flightdeck/schemas';
import { Hono } from 'hono';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../app';
import { requireSession } from '../../auth/middleware';
import { hashPassword } from '../../auth/password';
import { ensureSystemAdmin } from '../../bootstrap';
import { loadApiConfig } from '../../config';
import { migrateToLatest } from '../../db/migrate';
import { createCustomer } from '../../db/queries/customers';
import { createPlan, getCataloguePlan } from '../../db/queries/plans';
import { createServer, createService } from '../../db/queries/servers';
import { createUser } from '../../db/queries/users';
import { createTestDatabase, type TestDatabase } from '../../db/testing';
import type { AppEnv } from '../../env';
import { errorHandler } from '../../errors';
import { loadPlanContext, planContextOf } from '../../plans/context';
import { requireDeployPermission, requireResource } from '../../plans/guards';
import { assertWithinLimit, limitStatus } from '../../plans/limits';

const ADMIN = 'admin@example.com';
const PASSWORD = 'correct-horse-battery';
const logger = pino({ level: 'silent' });

let t: TestDatabase;
let app: ReturnType<typeof createApp>;
/** Session tokens: the Enterprise admin, a Freemium customer A, another Freemium customer B, a custom plan. */
const tokens = { admin: '', a: '', b: '', custom: '' };
let registerInA = 0;
let customerA = 0;

async function signin(email: string) {
  const res = await app.request('/api/signin', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  expect(res.status).toBe(200);
  return okEnvelope(SigninData).parse(await res.json()).data.token;
}

async function addCustomer(name: string, planId: number, email: string) {
  const customer = await createCustomer(t.db, { name, plan_id: planId });
  await createUser(t.db, customer.id, { email, name, password_hash: await hashPassword(PASSWORD) });
  return customer;
}

async function addServer(customerId: number, hostname: string, services: string[]) {
  const server = await createServer(t.db, customerId, { host_key: hostname, hostname, name: null });
  for (const code of services) await createService(t.db, customerId, server.id, { service_code: code });
  return server;
}

function get(path: string, token: string) {
  return app.request(`/api${path}`, { headers: { Authorization: `Bearer ${token}` } });
}

function post(path: string, token: string, body: unknown = {}) {
  return app.request(`/api${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
}

async function data<T>(res: Response, schema: import('zod').ZodType<T>): Promise<T> {
  expect(res.status).toBe(200);
  return okEnvelope(schema).parse(await res.json()).data as T;
}

beforeAll(async () => {
  t = await createTestDatabase('sqlite');
  await migrateToLatest(t.db);
  await ensureSystemAdmin(t.db, { email: ADMIN, password: PASSWORD });
  app = createApp({
    db: t.db,
    store: { kind: 'sqlite', health: async () => ({ state: 'ok' }) } as unknown as MetricStore,
    bus: { kind: 'in-process', health: async () => ({ state: 'ok' }) } as unknown as Bus,
    config: loadApiConfig({ DATA_DIR: tmpdir() }),
    logger,
    version: '0.0.0-test',
  });

  const freemium = (await getCataloguePlan(t.db, 'freemium'))!;
  const a = await addCustomer('Customer A', freemium.id, 'a@example.com');
  registerInA = a.register_in;
  customerA = a.id;
  await createUser(t.db, a.id, { email: 'blocked@example.com', name: 'Blocked', status: 'BLOCKED' });
  await addServer(a.id, 'a-db', ['linux', 'mysql']);
  await addServer(a.id, 'a-web', ['linux']);
  await addServer(a.id, 'a-ora', ['oracle']);

  const b = await addCustomer('Customer B', freemium.id, 'b@example.com');
  await addServer(b.id, 'b-db', ['linux', 'mysql']);

  const custom = await createPlan(t.db, {
    name: 'No about',
    lifetime_days: null,
    user_limit: null,
    max_servers: null,
    max_services: null,
    data_retention_days: 30,
    concurrent_sessions: null,
    instance_quantity: null,
    resources: JSON.stringify({ managements: { about: 1 } }),
    product_permissions: JSON.stringify({ managements: 1, about: 0 }),
  });
  await addCustomer('Custom', custom.id, 'custom@example.com');

  tokens.admin = await signin(ADMIN);
  tokens.a = await signin('a@example.com');
  tokens.b = await signin('b@example.com');
  tokens.custom = await signin('custom@example.com');
});
afterAll(async () => {
  await t?.drop();
});

describe('session', () => {
  it('answers 401 in the envelope without a session', async () => {
    for (const path of ['/customer/plan/get_resource', '/customer/system/get_routes']) {
      const res = await app.request(`/api${path}`);
      expect(res.status).toBe(401);
      expect(ErrorEnvelope.parse(await res.json()).code).toBe('unauthorized');
    }
    const res = await app.request('/api/customer/system/is_available', {
      method: 'POST',
      body: JSON.stringify({ resource: 'tower_control' }),
    });
    expect(res.status).toBe(401);
  });
});

describe('/customer/plan', () => {
  it('get_resource gives the plan resources object', async () => {
    const resources = await data(await get('/customer/plan/get_resource', tokens.a), PlanResources);
    expect(resources.tower_control).toBe(0);
    expect(resources.service).toEqual(expect.arrayContaining(['linux', 'mysql']));
    const all = await data(await get('/customer/plan/get_resource', tokens.admin), PlanResources);
    expect(all.tower_control).toBe(1);
  });

  it('get_limit_user counts only ACTIVE users of the customer', async () => {
    expect(await data(await get('/customer/plan/get_limit_user', tokens.a), UserLimitData)).toEqual({
      max_users: 3,
      users: 1,
    });
    expect(await data(await get('/customer/plan/get_limit_user', tokens.admin), UserLimitData)).toEqual({
      max_users: null,
      users: 1,
    });
  });

  it('get_plan_info gives the PlanConfig', async () => {
    const a = await data(await get('/customer/plan/get_plan_info', tokens.a), PlanConfig);
    expect(a).toMatchObject({
      name: 'Freemium',
      is_freemium: 1,
      lifetime: 14,
      register_in: registerInA,
      plataform_permitions: { deploy: { agent: 1, agentless: 0 } },
      limits: { users: 3, servers: 3, services: 5, max_flashback_days: 7 },
    });
    expect(a.plan_config.product_permition.tower_control).toBe(0);
    const admin = await data(await get('/customer/plan/get_plan_info', tokens.admin), PlanConfig);
    expect(admin).toMatchObject({ name: 'Enterprise', is_freemium: 0, lifetime: null });
    expect(Object.values(admin.limits).every((v) => v === null)).toBe(true);
  });

  it('get_plataform_permition_services lists the granted service types and the service limit', async () => {
    const res = await post('/customer/plan/get_plataform_permition_services', tokens.a);
    const answer = await data(res, PlatformServicesData);
    expect(answer).toMatchObject({ max_services: 5, used_services: 4, can_add: true });
    expect(answer.services).toContain('mysql');
    expect(answer.services).not.toContain('oracle');
  });

  it('get_plataform_max_users answers the user limit and rejects unknown fields', async () => {
    expect(
      await data(await post('/customer/plan/get_plataform_max_users', tokens.a), PlatformMaxUsersData),
    ).toEqual({ max_users: 3, users: 1, can_add: true });
    const res = await post('/customer/plan/get_plataform_max_users', tokens.a, { extra: 1 });
    expect(res.status).toBe(400);
    expect(ErrorEnvelope.parse(await res.json()).code).toBe('validation_failed');
  });

  it('get_plataform_permition answers each deploy permission', async () => {
    const ask = async (permition: string) =>
      data(
        await post('/customer/plan/get_plataform_permition', tokens.a, { permition }),
        PlatformPermissionData,
      );
    expect((await ask('deploy')).allowed).toBe(true);
    expect((await ask('deploy.agent')).allowed).toBe(true);
    expect(await ask('deploy.agentless')).toEqual({
      permition: 'deploy.agentless',
      allowed: false,
      deploy: { agent: 1, agentless: 0 },
    });
    expect((await post('/customer/plan/get_plataform_permition', tokens.a, { permition: 'x' })).status).toBe(
      400,
    );
  });

  it('resource answers whether the plan grants it, with or without the service. prefix', async () => {
    const ask = async (token: string, resource: string) =>
      (await data(await post('/customer/plan/resource', token, { resource }), PlanResourceAvailability))
        .available;
    expect(await ask(tokens.a, 'service.mysql')).toBe(true);
    expect(await ask(tokens.a, 'mysql')).toBe(true);
    expect(await ask(tokens.a, 'service.oracle')).toBe(false);
    expect(await ask(tokens.a, 'tower_control')).toBe(false);
    expect(await ask(tokens.a, 'flightdeck.cockpit.master_warning')).toBe(true);
    expect(await ask(tokens.admin, 'tower_control')).toBe(true);
    expect((await post('/customer/plan/resource', tokens.a, { resource: '../x' })).status).toBe(400);
  });

  it('module_validity gives the max_flashback days', async () => {
    const ask = async (token: string) =>
      data(
        await post('/customer/plan/module_validity', token, { module: 'max_flashback' }),
        ModuleValidityData,
      );
    expect(await ask(tokens.a)).toBe(7);
    expect(await ask(tokens.custom)).toBe(30);
    expect(await ask(tokens.admin)).toBe(3650);
    expect((await post('/customer/plan/module_validity', tokens.a, { module: 'other' })).status).toBe(400);
  });
});

describe('/customer/system', () => {
  it('is_available needs the plan grant and, for a service type, a registered service of it', async () => {
    const ask = async (token: string, resource: string) =>
      data(await post('/customer/system/is_available', token, { resource }), IsAvailableData);
    expect(await ask(tokens.a, 'service.mysql')).toBe(1);
    expect(await ask(tokens.a, 'mysql')).toBe(1);
    expect(await ask(tokens.a, 'service.postgresql')).toBe(0); // granted, none registered
    expect(await ask(tokens.a, 'service.oracle')).toBe(0); // registered, not granted
    expect(await ask(tokens.a, 'tower_control')).toBe(0);
    expect(await ask(tokens.admin, 'tower_control')).toBe(1);
    expect(await ask(tokens.admin, 'service.mysql')).toBe(0); // other customers' services do not count
  });

  it("get_servers_resource lists the customer's servers with that service, never another customer's", async () => {
    const ask = async (token: string, resource: string) =>
      data(await post('/customer/system/get_servers_resource', token, { resource }), ServersResourceData);
    const mysql = await ask(tokens.a, 'service.mysql');
    expect(mysql).toEqual([
      { server_id: expect.any(Number), name: 'a-db', hostname: 'a-db', service_code: 'mysql' },
    ]);
    expect((await ask(tokens.a, 'linux')).map((s) => s.hostname)).toEqual(['a-db', 'a-web']);
    expect((await ask(tokens.b, 'service.mysql')).map((s) => s.hostname)).toEqual(['b-db']);
    expect(await ask(tokens.a, 'service.oracle')).toEqual([]); // not in the plan
    expect(await ask(tokens.admin, 'service.mysql')).toEqual([]);
  });

  it('get_plan_from_resource lists the catalogue plans offering it, cheapest first', async () => {
    const ask = async (resource: string) =>
      (
        await data(
          await post('/customer/system/get_plan_from_resource', tokens.a, { resource }),
          PlansFromResourceData,
        )
      ).map((p) => p.name);
    expect(await ask('tower_control')).toEqual(['Enterprise']);
    expect(await ask('service.mysql')).toEqual(['Freemium', 'Standard', 'Enterprise']);
    expect(await ask('service.oracle')).toEqual(['Standard', 'Enterprise']);
    expect(await ask('unknown_feature')).toEqual([]);
    const [offer] = await data(
      await post('/customer/system/get_plan_from_resource', tokens.a, { resource: 'apm' }),
      PlansFromResourceData,
    );
    expect(offer).toMatchObject({ name: 'Enterprise', price: 199, description: expect.any(String) });
  });

  it('get_routes gives the menu tree filtered by the product permissions', async () => {
    const about = [
      {
        name: 'managements',
        label: 'menu.management',
        icon: 'settings',
        to: null,
        extra_config: {},
        sub_menu: [
          {
            name: 'thresholds',
            label: 'menu.thresholds',
            icon: 'chart',
            to: '/flightdeck/management/thresholds',
            validation: 'flightdeck.management.thresholds',
            sub_menu: [],
            extra_config: {},
          },
          {
            name: 'management_alerts',
            label: 'menu.management_alerts',
            icon: 'alert',
            to: '/flightdeck/management/alerts',
            validation: 'flightdeck.management.alerts',
            sub_menu: [],
            extra_config: {},
          },
          {
            name: 'maintenance',
            label: 'menu.maintenance',
            icon: 'tools',
            to: '/flightdeck/management/maintenance',
            validation: 'flightdeck.management.maintenance',
            sub_menu: [],
            extra_config: {},
          },
          {
            name: 'escalation',
            label: 'menu.escalation',
            icon: 'bell',
            to: '/flightdeck/management/escalation',
            validation: 'flightdeck.management.escalation',
            sub_menu: [],
            extra_config: {},
          },
          {
            name: 'about',
            label: 'menu.about',
            icon: 'info',
            to: '/managements/about',
            sub_menu: [],
            extra_config: {},
          },
        ],
      },
    ];
    const hosts = {
      name: 'hosts',
      label: 'menu.hosts',
      icon: 'server',
      to: '/flightdeck/services',
      sub_menu: [],
      extra_config: {},
    };
    const masterWarning = {
      name: 'master_warning',
      label: 'menu.master_warning',
      icon: 'alert',
      to: '/flightdeck/cockpit/master_warning',
      validation: 'flightdeck.cockpit.master_warning',
      sub_menu: [],
      extra_config: {},
    };
    const flashback = {
      name: 'flashback',
      label: 'menu.flashback',
      icon: 'history',
      to: null,
      extra_config: {},
      sub_menu: [
        {
          name: 'flashback_alerts',
          label: 'menu.flashback_alerts',
          icon: 'bell',
          to: '/flightdeck/flashback/alerts',
          validation: 'flightdeck.flashback.alerts',
          sub_menu: [],
          extra_config: {},
        },
      ],
    };
    // Enterprise grants the critical files; Freemium does not, so its Cockpit shows Master warning only.
    const cockpit = {
      name: 'cockpit',
      label: 'menu.cockpit',
      icon: 'dashboard',
      to: null,
      extra_config: {},
      sub_menu: [
        masterWarning,
        {
          name: 'files_criticals',
          label: 'menu.files_criticals',
          icon: 'shield',
          to: '/flightdeck/cockpit/files_criticals',
          validation: 'flightdeck.cockpit.files_criticals',
          sub_menu: [],
          extra_config: {},
        },
      ],
    };
    expect(await data(await get('/customer/system/get_routes', tokens.admin), RoutesData)).toEqual([
      hosts,
      cockpit,
      flashback,
      ...about,
    ]);
    // Freemium has no escalation page.
    const freemiumAbout = about.map((g) => ({
      ...g,
      sub_menu: g.sub_menu.filter((e) => e.name !== 'escalation'),
    }));
    expect(await data(await get('/customer/system/get_routes', tokens.a), RoutesData)).toEqual([
      hosts,
      { ...cockpit, sub_menu: [masterWarning] },
      flashback,
      ...freemiumAbout,
    ]);
    // The plan hides "about"; the Management group, left empty, goes too.
    expect(await data(await get('/customer/system/get_routes', tokens.custom), RoutesData)).toEqual([hosts]);
  });
});

describe('plan guards', () => {
  /** A test-only app using the guards the way a product route will. */
  function guardedApp() {
    return new Hono<AppEnv>()
      .onError(errorHandler(logger))
      .use('*', requireSession(t.db))
      .get('/tickets', requireResource(t.db, 'tower_control'), (c) => c.json({ status: 'ok', data: 1 }))
      .get('/agentless', requireDeployPermission(t.db, 'agentless'), (c) => c.json({ status: 'ok', data: 1 }))
      .get('/deploy', requireDeployPermission(t.db), (c) => c.json({ status: 'ok', data: 1 }))
      .get('/twice', requireResource(t.db, 'service.mysql'), async (c) => {
        // One load per request, whoever asks.
        const first = await planContextOf(c, t.db);
        const second = await planContextOf(c, t.db);
        return c.json({ same: first === second });
      });
  }
  const call = (path: string, token: string) =>
    guardedApp().request(path, { headers: { Authorization: `Bearer ${token}` } });

  it('answers 403 plan_gated naming the feature to a freemium customer, and nothing else', async () => {
    const res = await call('/tickets', tokens.a);
    expect(res.status).toBe(403);
    const body = await res.json();
    expect(Object.keys(body).sort()).toEqual(['code', 'message', 'status']);
    expect(ErrorEnvelope.parse(body)).toEqual({
      status: 'error',
      code: 'plan_gated',
      message: 'The feature "tower_control" is not part of your plan.',
    });
    expect((await call('/agentless', tokens.a)).status).toBe(403);
    expect((await call('/deploy', tokens.a)).status).toBe(200);
  });

  it('lets a plan that grants the feature through', async () => {
    expect((await call('/tickets', tokens.admin)).status).toBe(200);
    expect((await call('/agentless', tokens.admin)).status).toBe(200);
    expect(await (await call('/twice', tokens.a)).json()).toEqual({ same: true });
  });

  it('checks the limits: users, services and servers', async () => {
    const ctx = await loadPlanContext(t.db, customerA);
    expect(await limitStatus(t.db, ctx, 'servers')).toEqual({ max: 3, used: 3, can_add: false });
    await expect(assertWithinLimit(t.db, ctx, 'servers')).rejects.toMatchObject({
      code: 'server_limit_reached',
      status: 409,
    });
    await expect(assertWithinLimit(t.db, ctx, 'users')).resolves.toBeUndefined();
    await expect(assertWithinLimit(t.db, ctx, 'services', 2)).rejects.toMatchObject({
      code: 'service_limit_reached',
      message: expect.stringMatching(/Service limit reached/),
    });
  });
});
