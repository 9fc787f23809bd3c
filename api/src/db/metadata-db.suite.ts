import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../auth/password';
import { createSession, findActiveSession, revokeSession } from '../auth/sessions';
import { DEFAULT_ADMIN_EMAIL, ensureSystemAdmin } from '../bootstrap';
import { unixNow } from '../clock';
import type { Db, Engine } from './kysely';
import { migrateToLatest, migrations } from './migrate';
import { createCustomer, getCustomer } from './queries/customers';
import { createPlan } from './queries/plans';
import {
  createServer,
  createService,
  getServer,
  getServerByHostKey,
  listServers,
  listServices,
} from './queries/servers';
import {
  createUser,
  findUserForSignin,
  getUser,
  getUserPreferences,
  listUsers,
  setUserPreference,
} from './queries/users';
import { createTestDatabase, type TestDatabase } from './testing';

const planInput = {
  name: 'Test',
  lifetime_days: null,
  user_limit: 5,
  max_servers: 10,
  max_services: 20,
  data_retention_days: 30,
  concurrent_sessions: 3,
  instance_quantity: 1,
} as const;

async function newCustomer(db: Db, name: string) {
  const plan = await createPlan(db, { ...planInput, name: `${name} plan` });
  return createCustomer(db, { name, plan_id: plan.id });
}

/**
 * The metadata DB's migrations and data-access functions, run once per engine by
 * metadata-db.test.ts (SQLite) and metadata-db.integration.test.ts (PostgreSQL).
 */
export function metadataDbSuite(engine: Engine) {
  describe(`metadata DB on ${engine}`, () => {
    let t: TestDatabase;
    let db: Db;
    beforeAll(async () => {
      t = await createTestDatabase(engine);
      db = t.db;
    });
    afterAll(async () => {
      await t?.drop();
    });

    it('migrates up once, and a second run changes nothing', async () => {
      expect(await migrateToLatest(db)).toEqual(Object.keys(migrations));
      expect(await migrateToLatest(db)).toEqual([]);
      const tables = (await db.introspection.getTables()).map((x) => x.name);
      for (const table of [
        'plans',
        'customers',
        'users',
        'user_preferences',
        'sessions',
        'servers',
        'services',
      ]) {
        expect(tables).toContain(table);
      }
    });

    it('returns unix seconds, bigints and flags as numbers on both engines', async () => {
      const customer = await newCustomer(db, 'Numbers');
      const server = await createServer(db, customer.id, {
        host_key: 'big',
        hostname: 'big.example',
        memory_bytes: 64 * 1024 ** 3,
        environment: 'prd',
      });
      const fetched = await getServer(db, customer.id, server.id);
      expect(fetched?.memory_bytes).toBe(64 * 1024 ** 3);
      expect(typeof fetched?.created_at).toBe('number');
      const c = await getCustomer(db, customer.id);
      expect(c?.status).toBe('active');
      expect(typeof c?.register_in).toBe('number');
      const plan = await db
        .selectFrom('plans')
        .selectAll()
        .where('id', '=', c!.plan_id)
        .executeTakeFirstOrThrow();
      expect(plan.is_freemium).toBe(0);
      expect(plan.price).toBe(0);
      const count = await db
        .selectFrom('servers')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      expect(typeof count.n).toBe('number');
    });

    it('rejects a second server with the same host key in one customer, not across customers', async () => {
      const a = await newCustomer(db, 'HostKeyA');
      const b = await newCustomer(db, 'HostKeyB');
      await createServer(db, a.id, { host_key: 'web-1', hostname: 'web-1' });
      await createServer(db, b.id, { host_key: 'web-1', hostname: 'web-1' });
      await expect(createServer(db, a.id, { host_key: 'web-1', hostname: 'again' })).rejects.toThrow();
      expect((await getServerByHostKey(db, b.id, 'web-1'))?.customer_id).toBe(b.id);
    });

    it('never shows customer B the servers, services, users or preferences of customer A', async () => {
      const a = await newCustomer(db, 'Tenant A');
      const b = await newCustomer(db, 'Tenant B');
      const aServer = await createServer(db, a.id, { host_key: 'db-a', hostname: 'db-a' });
      const aService = await createService(db, a.id, aServer.id, { service_code: 'mysql', name: 'orders' });
      const aUser = await createUser(db, a.id, { email: 'Ops@A.example', name: 'Ops A' });
      await setUserPreference(db, a.id, aUser.id, 'dark_mode', '1');
      const bServer = await createServer(db, b.id, { host_key: 'db-b', hostname: 'db-b' });
      await createUser(db, b.id, { email: 'ops@b.example', name: 'Ops B' });

      expect(aService?.interval_s).toBe(60);
      expect((await listServers(db, b.id)).map((s) => s.id)).toEqual([bServer.id]);
      expect(await getServer(db, b.id, aServer.id)).toBeUndefined();
      expect(await getServerByHostKey(db, b.id, 'db-a')).toBeUndefined();
      expect(await listServices(db, b.id)).toEqual([]);
      expect(await listServices(db, b.id, aServer.id)).toEqual([]);
      expect(await createService(db, b.id, aServer.id, { service_code: 'linux' })).toBeUndefined();
      expect((await listServices(db, a.id)).map((s) => s.id)).toEqual([aService!.id]);
      expect((await listUsers(db, b.id)).map((u) => u.email)).toEqual(['ops@b.example']);
      expect(await getUser(db, b.id, aUser.id)).toBeUndefined();
      await setUserPreference(db, b.id, aUser.id, 'dark_mode', '0');
      expect(await getUserPreferences(db, a.id, aUser.id)).toEqual([{ preference: 'dark_mode', value: '1' }]);
      expect(await getUserPreferences(db, b.id, aUser.id)).toEqual([]);
    });

    it('keeps e-mails unique across customers and finds them without regard to case', async () => {
      const a = await newCustomer(db, 'Unique A');
      const b = await newCustomer(db, 'Unique B');
      const user = await createUser(db, a.id, { email: 'same@example.com', name: 'One' });
      expect(user.is_admin).toBe('0');
      expect(user.role_code).toBe(5);
      expect(user.timezone_code).toBe('UTC');
      expect(user.locale).toBe('en');
      expect(user.status).toBe('ACTIVE');
      await expect(createUser(db, b.id, { email: 'SAME@example.com', name: 'Two' })).rejects.toThrow();
      expect((await findUserForSignin(db, 'Same@Example.com'))?.id).toBe(user.id);
    });

    it('opens, finds, expires and revokes sessions, and stores only the token hash', async () => {
      const c = await newCustomer(db, 'Sessions');
      const user = await createUser(db, c.id, { email: 'session@example.com', name: 'S' });
      const now = unixNow();
      const { token, expiresAt } = await createSession(
        db,
        { userId: user.id, customerId: c.id, ttlHours: 1 },
        now,
      );
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(expiresAt).toBe(now + 3600);
      const stored = await db
        .selectFrom('sessions')
        .select('token_hash')
        .where('user_id', '=', user.id)
        .execute();
      expect(stored).toHaveLength(1);
      expect(stored[0]!.token_hash).not.toContain(token);

      expect(await findActiveSession(db, token, now)).toMatchObject({ userId: user.id, customerId: c.id });
      expect(await findActiveSession(db, token, expiresAt)).toBeUndefined();
      expect(await findActiveSession(db, 'not-a-token', now)).toBeUndefined();

      await db.updateTable('users').set({ status: 'BLOCKED' }).where('id', '=', user.id).execute();
      expect(await findActiveSession(db, token, now)).toBeUndefined();
      await db.updateTable('users').set({ status: 'ACTIVE' }).where('id', '=', user.id).execute();

      expect(await revokeSession(db, token)).toBe(true);
      expect(await revokeSession(db, token)).toBe(false);
      expect(await findActiveSession(db, token, now)).toBeUndefined();
    });

    it('rejects values outside the enumerations at the database too', async () => {
      const c = await newCustomer(db, 'Checks');
      await expect(
        sql`update customers set status = 'frozen' where id = ${c.id}`.execute(db),
      ).rejects.toThrow();
      await expect(
        createServer(db, c.id, { host_key: 'x', hostname: 'x', environment: 'qa' as never }),
      ).rejects.toThrow();
    });
  });

  describe(`first-start bootstrap on ${engine}`, () => {
    const opened: TestDatabase[] = [];
    async function fresh() {
      const t = await createTestDatabase(engine);
      opened.push(t);
      await migrateToLatest(t.db);
      return t.db;
    }
    afterAll(async () => {
      await Promise.all(opened.map((t) => t.drop()));
    });

    it('creates the plan, customer and system administrator once, with a generated password', async () => {
      const db = await fresh();
      const first = await ensureSystemAdmin(db);
      expect(first).toMatchObject({ created: true, email: DEFAULT_ADMIN_EMAIL });
      const password = first.created ? first.password : undefined;
      expect(password).toMatch(/^[A-Za-z0-9]{20}$/);

      const admin = await findUserForSignin(db, DEFAULT_ADMIN_EMAIL);
      expect(admin).toMatchObject({ is_admin: '1', role_code: 1, status: 'ACTIVE' });
      expect(await verifyPassword(admin!.password_hash!, password!)).toBe(true);
      expect(admin!.password_hash).toMatch(/^\$argon2id\$/);
      const plan = await db
        .selectFrom('plans')
        .selectAll()
        .where('id', '=', (await getCustomer(db, admin!.customer_id))!.plan_id)
        .executeTakeFirstOrThrow();
      expect(plan).toMatchObject({
        name: 'Enterprise',
        user_limit: null,
        max_servers: null,
        max_services: null,
      });
      expect(JSON.parse(plan.product_permissions)).toMatchObject({ tower_control: 1 });
      expect(JSON.parse(plan.deploy_permissions)).toEqual({ agent: 1, agentless: 1 });

      const second = await ensureSystemAdmin(db, { email: 'other@example.com', password: 'another-secret' });
      expect(second).toEqual({ created: false });
      expect(await db.selectFrom('users').selectAll().execute()).toHaveLength(1);
      expect(await db.selectFrom('customers').selectAll().execute()).toHaveLength(1);
    });

    it('uses the credentials from the environment and returns no password', async () => {
      const db = await fresh();
      const result = await ensureSystemAdmin(db, { email: 'Root@Example.com', password: 'correct-horse' });
      expect(result).toEqual({ created: true, email: 'root@example.com' });
      const admin = await findUserForSignin(db, 'root@example.com');
      expect(await verifyPassword(admin!.password_hash!, 'correct-horse')).toBe(true);
    });
  });
}
