import { Migrator } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../kysely';
import { migrateToLatest, migrations } from '../migrate';
import { createCustomer } from '../queries/customers';
import { createPlan } from '../queries/plans';
import { createTestDatabase, type TestDatabase } from '../testing';

const NAME = '0012_alert_mutes';

/** Migration 0012 (alert mutes, dependencies, first acknowledgement), run once per engine. */
export function alertMutesMigrationSuite(engine: Engine) {
  describe(`migration ${NAME} on ${engine}`, () => {
    let t: TestDatabase | undefined;
    afterEach(async () => {
      await t?.drop();
      t = undefined;
    });

    it('keeps one mute per customer and scope, and removes them with the customer', async () => {
      t = await createTestDatabase(engine);
      await migrateToLatest(t.db);
      const plan = await createPlan(t.db, {
        name: 'p',
        lifetime_days: null,
        user_limit: null,
        max_servers: null,
        max_services: null,
        data_retention_days: null,
        concurrent_sessions: null,
        instance_quantity: null,
      });
      const customer = await createCustomer(t.db, { name: 'c', plan_id: plan.id });
      const mute = {
        customer_id: customer.id,
        server_id: null,
        type_id: 10,
        kind: 'disabled' as const,
        scope_key: 'disabled:*:10',
        created_by: null,
        created_at: 1,
      };
      const row = await t.db.insertInto('alert_mutes').values(mute).returningAll().executeTakeFirstOrThrow();
      expect(row).toMatchObject({ service: '', type_id: 10, server_id: null });
      await expect(t.db.insertInto('alert_mutes').values(mute).execute()).rejects.toThrow();
      await t.db.deleteFrom('customers').where('id', '=', customer.id).execute();
      expect(await t.db.selectFrom('alert_mutes').selectAll().execute()).toEqual([]);
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
      expect(tables.map((x) => x.name)).not.toContain('alert_mutes');
      const history = tables.find((x) => x.name === 'alert_history');
      expect(history?.columns.map((c) => c.name)).not.toContain('parent_id');
      expect(history?.columns.map((c) => c.name)).not.toContain('acknowledged_at');
      expect(await migrateToLatest(t.db)).toContain(NAME);
    });
  });
}
