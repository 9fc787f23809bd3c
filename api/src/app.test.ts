import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Bus } from '@flightdeck/collector/bus';
import type { ComponentHealth, MetricStore } from '@flightdeck/collector/store';
import {
  AuthUser,
  type CollectorComponentHealth,
  ErrorEnvelope,
  HealthResponse,
  okEnvelope,
  SigninData,
} from '@flightdeck/schemas';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app';
import { ensureSystemAdmin } from './bootstrap';
import { unixNow } from './clock';
import { loadApiConfig } from './config';
import { migrateToLatest } from './db/migrate';
import { createTestDatabase, type TestDatabase } from './db/testing';
import type { AppDeps } from './env';
import { startServer } from './server';

const ADMIN = 'admin@example.com';
const PASSWORD = 'correct-horse-battery';

/** Health reports the fake parts give; tests change them. */
const health: { bus: ComponentHealth; store: ComponentHealth; collector: CollectorComponentHealth } = {
  bus: { state: 'ok' },
  store: { state: 'ok' },
  collector: { state: 'ok' },
};
// Only health() matters here: the store and the bus are not what these tests are about.
const store = { kind: 'sqlite', health: async () => health.store } as unknown as MetricStore;
const bus = { kind: 'in-process', health: async () => health.bus } as unknown as Bus;

let t: TestDatabase;
const logLines: string[] = [];

function deps(overrides: Partial<AppDeps> = {}): AppDeps {
  return {
    db: t.db,
    store,
    bus,
    collector: { health: async () => health.collector },
    config: loadApiConfig({ DATA_DIR: tmpdir() }),
    logger: pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) }),
    version: '9.9.9-test',
    ...overrides,
  };
}

let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  t = await createTestDatabase('sqlite');
  await migrateToLatest(t.db);
  await ensureSystemAdmin(t.db, { email: ADMIN, password: PASSWORD });
  app = createApp(deps());
});
afterAll(async () => {
  await t?.drop();
});

function post(path: string, body: unknown, headers: Record<string, string> = {}, target = app) {
  return target.request(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function signin(target = app) {
  const res = await post('/api/signin', { email: ADMIN, password: PASSWORD }, {}, target);
  expect(res.status).toBe(200);
  return okEnvelope(SigninData).parse(await res.json()).data.token;
}

async function expectError(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  const body = ErrorEnvelope.parse(await res.json());
  expect(body.code).toBe(code);
  return body;
}

describe('GET /api/health', () => {
  it('reports every component, the version and the collector counters', async () => {
    health.collector = { state: 'ok', batches_written: 3, samples_written: 120, last_write_at: null };
    const res = await app.request('/api/health');
    expect(res.status).toBe(200);
    const body = HealthResponse.parse(await res.json());
    expect(body.data).toMatchObject({
      status: 'ok',
      version: '9.9.9-test',
      components: {
        bus: { state: 'ok' },
        metadata_db: { state: 'ok' },
        metric_store: { state: 'ok' },
        collector: { state: 'ok', batches_written: 3, samples_written: 120 },
      },
    });
    expect(body.data.uptime_s).toBeGreaterThanOrEqual(0);
  });

  it('answers 503 with the same body when a component is down, and degraded stays 200', async () => {
    health.store = { state: 'down', detail: 'disk full' };
    const down = await app.request('/api/health');
    expect(down.status).toBe(503);
    const body = HealthResponse.parse(await down.json());
    expect(body.data.status).toBe('down');
    expect(body.data.components.metric_store).toEqual({ state: 'down', detail: 'disk full' });

    health.store = { state: 'ok' };
    health.bus = { state: 'degraded', detail: 'reconnecting' };
    const degraded = await app.request('/api/health');
    expect(degraded.status).toBe(200);
    expect(HealthResponse.parse(await degraded.json()).data.status).toBe('degraded');
    health.bus = { state: 'ok' };
  });

  it('counts a component whose check throws as down, and an absent collector as ok', async () => {
    const failing = {
      kind: 'in-process',
      health: () => Promise.reject(new Error('nats gone')),
    } as unknown as Bus;
    const res = await createApp(deps({ bus: failing, collector: undefined })).request('/api/health');
    expect(res.status).toBe(503);
    const body = HealthResponse.parse(await res.json());
    expect(body.data.components.bus).toEqual({ state: 'down', detail: 'nats gone' });
    expect(body.data.components.collector.state).toBe('ok');
  });
});

describe('POST /api/signin', () => {
  it('answers the token and sets it as an HttpOnly SameSite=Lax cookie', async () => {
    const res = await post('/api/signin', { email: 'Admin@Example.com', password: PASSWORD });
    expect(res.status).toBe(200);
    const { token } = okEnvelope(SigninData).parse(await res.json()).data;
    const cookie = res.headers.get('Set-Cookie') ?? '';
    expect(cookie).toContain(`fd_session=${token}`);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).toContain('Path=/');
    expect(cookie).toContain(`Max-Age=${168 * 3600}`);
    expect(cookie).not.toContain('Secure');
  });

  it('marks the cookie Secure when PUBLIC_URL is https', async () => {
    const secureApp = createApp(deps({ config: loadApiConfig({ PUBLIC_URL: 'https://fd.example.com' }) }));
    const res = await post('/api/signin', { email: ADMIN, password: PASSWORD }, {}, secureApp);
    expect(res.headers.get('Set-Cookie')).toContain('Secure');
  });

  it('answers 401 "Invalid login" for a wrong password and for an unknown e-mail alike', async () => {
    const wrong = await expectError(
      await post('/api/signin', { email: ADMIN, password: 'wrong-password' }),
      401,
      'invalid_credentials',
    );
    const unknown = await expectError(
      await post('/api/signin', { email: 'nobody@example.com', password: 'wrong-password' }),
      401,
      'invalid_credentials',
    );
    expect(wrong.message).toBe('Invalid login');
    expect(unknown.message).toBe(wrong.message);
  });

  it('rejects unknown fields with 400 naming the field', async () => {
    const body = await expectError(
      await post('/api/signin', { email: ADMIN, password: PASSWORD, remember: true }),
      400,
      'validation_failed',
    );
    expect(body.path).toEqual(['remember']);
    expect(body.message).toContain('remember');
  });

  it('names a missing or malformed field', async () => {
    const missing = await expectError(await post('/api/signin', { email: ADMIN }), 400, 'validation_failed');
    expect(missing.path).toEqual(['password']);
    expect(missing.message).toMatch(/^password: /);
    const bad = await expectError(
      await post('/api/signin', { email: 'nope', password: 'x' }),
      400,
      'validation_failed',
    );
    expect(bad.message).toBe('email: expected an e-mail address');
  });

  it('answers 400 with a clear message for a body that is not JSON', async () => {
    const body = await expectError(await post('/api/signin', '{"email": '), 400, 'validation_failed');
    expect(body.message).toMatch(/^The request body is not valid JSON/);
  });

  it('answers 403 to a blocked user with the right password', async () => {
    const admin = await t.db.selectFrom('users').selectAll().executeTakeFirstOrThrow();
    await t.db
      .insertInto('users')
      .values({
        customer_id: admin.customer_id,
        email: 'blocked@example.com',
        name: 'Blocked',
        password_hash: admin.password_hash,
        status: 'BLOCKED',
        created_at: unixNow(),
      })
      .execute();
    const body = await expectError(
      await post('/api/signin', { email: 'blocked@example.com', password: PASSWORD }),
      403,
      'forbidden',
    );
    expect(body.message).toContain('blocked');
    await expectError(
      await post('/api/signin', { email: 'blocked@example.com', password: 'wrong-password' }),
      401,
      'invalid_credentials',
    );
  });

  it('answers 403 to a user whose company is suspended', async () => {
    const admin = await t.db.selectFrom('users').selectAll().executeTakeFirstOrThrow();
    const customer = await t.db
      .insertInto('customers')
      .values({
        name: 'Suspended Co',
        plan_id: 1,
        status: 'suspended',
        register_in: unixNow(),
        created_at: unixNow(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db
      .insertInto('users')
      .values({
        customer_id: customer.id,
        email: 'ops@suspended.example',
        name: 'Ops',
        password_hash: admin.password_hash,
        created_at: unixNow(),
      })
      .execute();
    const body = await expectError(
      await post('/api/signin', { email: 'ops@suspended.example', password: PASSWORD }),
      403,
      'forbidden',
    );
    expect(body.message).toContain('suspended');
  });

  it('answers 429 after too many failures, even with the right password', async () => {
    const limited = createApp(deps());
    for (let i = 0; i < 10; i++) {
      await expectError(
        await post('/api/signin', { email: ADMIN, password: 'wrong-password' }, {}, limited),
        401,
        'invalid_credentials',
      );
    }
    await expectError(
      await post('/api/signin', { email: ADMIN, password: PASSWORD }, {}, limited),
      429,
      'rate_limited',
    );
  });
});

describe('session check and logout', () => {
  it('accepts the token as a bearer and as the cookie, and answers the user', async () => {
    const token = await signin();
    const ways: Record<string, string>[] = [
      { Authorization: `Bearer ${token}` },
      { Cookie: `fd_session=${token}` },
    ];
    for (const headers of ways) {
      const res = await app.request('/api/auth/flightdeck/check', { headers });
      expect(res.status).toBe(200);
      const user = okEnvelope(AuthUser).parse(await res.json()).data;
      expect(user).toMatchObject({
        user_login_email: ADMIN,
        user_name: 'System administrator',
        is_admin: '1',
        role_code: 1,
        timezone_code: 'UTC',
        locale: 'en',
        picture: null,
        preferences: [{ preference: 'first_access_banner', value: '1' }],
      });
    }
  });

  it('answers 401 in the envelope without a session or with an unknown token', async () => {
    await expectError(await app.request('/api/auth/flightdeck/check'), 401, 'unauthorized');
    await expectError(
      await app.request('/api/auth/flightdeck/check', { headers: { Authorization: 'Bearer nope' } }),
      401,
      'unauthorized',
    );
  });

  it('revokes the session on logout and clears the cookie', async () => {
    const token = await signin();
    const res = await post('/api/logout', {}, { Authorization: `Bearer ${token}` });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', data: null });
    expect(res.headers.get('Set-Cookie')).toMatch(/fd_session=;.*Max-Age=0/);
    await expectError(
      await app.request('/api/auth/flightdeck/check', { headers: { Cookie: `fd_session=${token}` } }),
      401,
      'unauthorized',
    );
  });

  it('answers 401 once the session has expired', async () => {
    const token = await signin();
    await t.db
      .updateTable('sessions')
      .set({ expires_at: unixNow() - 1 })
      .where('revoked_at', 'is', null)
      .execute();
    await expectError(
      await app.request('/api/auth/flightdeck/check', { headers: { Authorization: `Bearer ${token}` } }),
      401,
      'unauthorized',
    );
  });
});

describe('errors and unknown paths', () => {
  it('answers unknown /api paths with a 404 envelope', async () => {
    for (const path of ['/api/nothing/here', '/api']) {
      const body = await expectError(await app.request(path), 404, 'not_found');
      expect(body.message).toBe('This page could not be found');
    }
    await expectError(await post('/api/health', {}), 404, 'not_found');
  });

  it('answers 500 with a request id that is also in the log line, and no stack', async () => {
    const boom = createApp(deps());
    boom.get('/boom', () => {
      throw new Error('secret detail');
    });
    const res = await boom.request('/boom');
    const body = await expectError(res, 500, 'internal');
    expect(body.request_id).toBeTruthy();
    expect(JSON.stringify(body)).not.toContain('secret detail');
    const line = logLines.map((l) => JSON.parse(l)).find((l) => l.request_id === body.request_id);
    expect(line?.err?.message).toBe('secret detail');
  });
});

describe('console', () => {
  let dir: string;
  let withConsole: ReturnType<typeof createApp>;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'fd-console-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Flightdeck</title>');
    writeFileSync(join(dir, 'assets', 'app-abc123.js'), 'console.log(1)');
    withConsole = createApp(deps({ consoleDir: dir }));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('serves assets with a long cache and index.html for any other page', async () => {
    const asset = await withConsole.request('/assets/app-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('Cache-Control')).toContain('immutable');
    expect(await asset.text()).toBe('console.log(1)');
    expect((await withConsole.request('/assets/missing.js')).status).toBe(404);
    for (const path of ['/', '/flightdeck/cockpit/master_warning', '/signin?redirect=%2Fdeploy']) {
      const page = await withConsole.request(path);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<title>Flightdeck</title>');
      expect(page.headers.get('Cache-Control')).toBe('no-cache');
    }
  });

  it('still answers unknown /api paths with the JSON envelope', async () => {
    await expectError(await withConsole.request('/api/unknown'), 404, 'not_found');
  });
});

describe('startServer', () => {
  it('listens on the port, answers over HTTP and closes', async () => {
    const server = await startServer(app, 0, '127.0.0.1');
    try {
      const res = await fetch(`http://127.0.0.1:${server.port}/api/health`);
      expect(res.status).toBe(200);
      HealthResponse.parse(await res.json());
    } finally {
      await server.close();
    }
    await expect(fetch(`http://127.0.0.1:${server.port}/api/health`)).rejects.toThrow();
  });
});
