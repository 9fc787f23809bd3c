import { Migrator } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { Db, Engine } from '../kysely';
import { migrateToLatest, migrations } from '../migrate';
import { createCustomer } from '../queries/customers';
import { createPlan } from '../queries/plans';
import { createServer } from '../queries/servers';
import { createUser } from '../queries/users';
import { createTestDatabase, type TestDatabase } from '../testing';

const NAME = '0009_maintenance';

async function customerWithServers(db: Db) {
  const plan = await createPlan(db, {
    name: 'p',
    lifetime_days: null,
    user_limit: null,
    max_servers: null,
    max_services: null,
    data_retention_days: null,
    concurrent_sessions: null,
    instance_quantity: null,
  });
  const customer = await createCustomer(db, { name: 'c', plan_id: plan.id });
  const web = await createServer(db, customer.id, { host_key: 'web-1', hostname: 'web-1' });
  const dbServer = await createServer(db, customer.id, { host_key: 'db-1', hostname: 'db-1' });
  const user = await createUser(db, customer.id, {
    email: 'ops@example.com',
    name: 'Ops',
    password_hash: null,
  });
  return { customer, web, dbServer, user };
}

/** Migration 0009 (maintenance windows), run once per engine by the .test and .integration.test files. */
export function maintenanceMigrationSuite(engine: Engine) {
  describe(`migration ${NAME} on ${engine}`, () => {
    let t: TestDatabase | undefined;
    afterEach(async () => {
      await t?.drop();
      t = undefined;
    });

    it('keeps a window with its servers, forgets a removed server and its creator, and goes with the customer', async () => {
      t = await createTestDatabase(engine);
      await migrateToLatest(t.db);
      const { customer, web, dbServer, user } = await customerWithServers(t.db);
      const window = await t.db
        .insertInto('maintenance_windows')
        .values({
          customer_id: customer.id,
          start_at: 1_800_000_000,
          end_at: 1_800_003_600,
          until_at: null,
          last_end_at: 1_800_003_600,
          reason: 'Kernel upgrade',
          created_by: user.id,
          created_at: 1_799_999_000,
          finished_at: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      expect(window).toMatchObject({
        all_servers: 0,
        service: '',
        recurrence: 'none',
        weekdays: '',
        approved: 0,
        start_at: 1_800_000_000,
        last_end_at: 1_800_003_600,
      });
      const link = { customer_id: customer.id, window_id: window.id };
      await t.db
        .insertInto('maintenance_window_servers')
        .values([
          { ...link, server_id: web.id },
          { ...link, server_id: dbServer.id },
        ])
        .execute();
      // A server is named once per window.
      await expect(
        t.db
          .insertInto('maintenance_window_servers')
          .values({ ...link, server_id: web.id })
          .execute(),
      ).rejects.toThrow();

      await t.db.deleteFrom('servers').where('id', '=', web.id).execute();
      const left = await t.db.selectFrom('maintenance_window_servers').select('server_id').execute();
      expect(left).toEqual([{ server_id: dbServer.id }]);

      await t.db.deleteFrom('users').where('id', '=', user.id).execute();
      const kept = await t.db
        .selectFrom('maintenance_windows')
        .select('created_by')
        .where('id', '=', window.id)
        .executeTakeFirstOrThrow();
      expect(kept.created_by).toBeNull();

      await t.db.deleteFrom('customers').where('id', '=', customer.id).execute();
      for (const table of ['maintenance_windows', 'maintenance_window_servers'] as const) {
        expect(await t.db.selectFrom(table).select('customer_id').execute(), table).toEqual([]);
      }
    });

    it('records on an alert history row the window that kept it quiet', async () => {
      t = await createTestDatabase(engine);
      await migrateToLatest(t.db);
      const { customer, web } = await customerWithServers(t.db);
      const row = await t.db
        .insertInto('alert_history')
        .values({
          customer_id: customer.id,
          server_id: web.id,
          threshold_id: 1,
          alert_id: null,
          host_key: 'web-1',
          service: '',
          metric: 'cpu.total',
          labels: '',
          type_id: 10,
          level: 'R',
          last_level: 'R',
          event: 'new',
          text: 'web-1: CPU at 95 %, above 90 %.',
          value: 95,
          date_enter: 1_800_000_100,
          date_exit: null,
          acknowledged_until: null,
          ack_by: null,
          ack_user_id: null,
          ack_comment: null,
          quiet: 'maintenance',
          maintenance_id: 7,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ quiet: 'maintenance', maintenance_id: 7, notified: 0 });
    });

    it('goes down and up again', async () => {
      t = await createTestDatabase(engine);
      await migrateToLatest(t.db);
      const names = Object.keys(migrations);
      const before = names[names.indexOf(NAME) - 1]!;
      const migrator = new Migrator({ db: t.db, provider: { getMigrations: async () => migrations } });
      const { error } = await migrator.migrateTo(before);
      expect(error).toBeUndefined();
      const tables = await t.db.introspection.getTables();
      const names0 = tables.map((x) => x.name);
      expect(names0).not.toContain('maintenance_windows');
      expect(names0).not.toContain('maintenance_window_servers');
      const history = tables.find((x) => x.name === 'alert_history')!;
      expect(history.columns.map((c) => c.name)).not.toContain('maintenance_id');
      expect(await migrateToLatest(t.db)).toContain(NAME);
    });
  });
}
