import { tmpdir } from 'node:os';
import type { Bus } from '@flightdeck/collector/bus';
import type { MetricStore } from '@flightdeck/collector/store';
import { ErrorEnvelope, okEnvelope } from '@flightdeck/schemas';
import pino from 'pino';
import { expect } from 'vitest';
import type { z } from 'zod';
import { createApp } from '../../app';
import { hashPassword } from '../../auth/password';
import { loadApiConfig } from '../../config';
import { migrateToLatest } from '../../db/migrate';
import { createCustomer } from '../../db/queries/customers';
import { createPlan } from '../../db/queries/plans';
import { createUser } from '../../db/queries/users';
import { createTestDatabase, type TestDatabase } from '../../db/testing';
import type { User } from '../../db/types';
import type { AppDeps } from '../../env';

/** An app on a fresh, migrated SQLite file, for route tests; `drop()` removes it. */
export interface TestApp {
  app: ReturnType<typeof createApp>;
  t: TestDatabase;
  deps: AppDeps;
  /** JSON log lines the app wrote. */
  logLines: string[];
  drop(): Promise<void>;
}

const store = { kind: 'sqlite', health: async () => ({ state: 'ok' }) } as unknown as MetricStore;
const bus = { kind: 'in-process', health: async () => ({ state: 'ok' }) } as unknown as Bus;

export async function createTestApp(
  env: Record<string, string> = {},
  overrides: Partial<AppDeps> = {},
): Promise<TestApp> {
  const t = await createTestDatabase('sqlite');
  await migrateToLatest(t.db);
  const logLines: string[] = [];
  const deps: AppDeps = {
    db: t.db,
    store,
    bus,
    config: loadApiConfig({ DATA_DIR: tmpdir(), ...env }),
    logger: pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) }),
    version: '0.0.0-test',
    ...overrides,
  };
  return { app: createApp(deps), t, deps, logLines, drop: () => t.drop() };
}

/** Another app on the same database (fresh rate limits), e.g. after `createTestApp`. */
export function sameDbApp(base: TestApp, overrides: Partial<AppDeps> = {}) {
  return createApp({ ...base.deps, ...overrides });
}

type Requester = { request: ReturnType<typeof createApp>['request'] };

export function post(app: Requester, path: string, body: unknown, token?: string): Promise<Response> {
  return Promise.resolve(
    app.request(path, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    }),
  );
}

/** Checks a failure envelope with its status and code; returns it. */
export async function expectError(res: Response, status: number, code: string): Promise<ErrorEnvelope> {
  const body = ErrorEnvelope.parse(await res.json());
  expect({ status: res.status, code: body.code, message: body.message }).toMatchObject({ status, code });
  return body;
}

/** Checks a success envelope (status 200) against the shared schema of its data; returns it. */
export async function expectOk<T extends z.ZodType>(res: Response, data: T) {
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return okEnvelope(data).parse(JSON.parse(text));
}

/** A customer with one ACTIVE user who signs in with `password`. */
export async function createAccount(
  db: TestDatabase['db'],
  email: string,
  password: string,
  user: Partial<Pick<User, 'locale' | 'status' | 'name'>> = {},
): Promise<User> {
  const plan = await createPlan(db, {
    name: `Plan of ${email}`,
    lifetime_days: null,
    user_limit: null,
    max_servers: null,
    max_services: null,
    data_retention_days: null,
    concurrent_sessions: null,
    instance_quantity: null,
  });
  const customer = await createCustomer(db, { name: `Company of ${email}`, plan_id: plan.id });
  return createUser(db, customer.id, {
    email,
    name: user.name ?? 'Test User',
    password_hash: await hashPassword(password),
    locale: user.locale ?? 'en',
    status: user.status ?? 'ACTIVE',
  });
}
