import { Migrator } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../kysely';
import { migrateToLatest, migrations } from '../migrate';
import { createCustomer } from '../queries/customers';
import { createPlan } from '../queries/plans';
import { createTestDatabase, type TestDatabase } from '../testing';

const NAME = '0011_escalation';

/** Migration 0011 (escalation chains), run once per engine by the .test and .integration.test files. */
export function escalationMigrationSuite(engine: Engine) {
  describe(`migration ${NAME} on ${engine}`, () => {
    let t: TestDatabase | undefined;
    afterEach(async () => {
      await t?.drop();
      t = undefined;
    });

    async function customer(db: TestDatabase['db']) {
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
      return createCustomer(db, { name: 'c', plan_id: plan.id });
    }

    it('keeps one chain per customer and severity, and removes them with the customer', async () => {
      t = await createTestDatabase(engine);
      await migrateToLatest(t.db);
      const c = await customer(t.db);
      const chain = { customer_id: c.id, steps: '[]', updated_at: 1, updated_by: null };
      await t.db
        .insertInto('escalation_chains')
        .values({ ...chain, severity: 'default' })
        .execute();
      await t.db
        .insertInto('escalation_chains')
        .values({ ...chain, severity: 'R' })
        .execute();
      await expect(
        t.db
          .insertInto('escalation_chains')
          .values({ ...chain, severity: 'R' })
          .execute(),
      ).rejects.toThrow();
      const rows = await t.db
        .selectFrom('escalation_chains')
        .select('severity')
        .orderBy('severity')
        .execute();
      expect(rows.map((r) => r.severity)).toEqual(['R', 'default']);
      await t.db.deleteFrom('customers').where('id', '=', c.id).execute();
      expect(await t.db.selectFrom('escalation_chains').selectAll().execute()).toEqual([]);
    });

    it('goes down and up again', async () => {
      t = await createTestDatabase(engine);
      await migrateToLatest(t.db);
      const names = Object.keys(migrations);
      const before = names[names.indexOf(NAME) - 1]!;
      const migrator = new Migrator({ db: t.db, provider: { getMigrations: async () => migrations } });
      const { error } = await migrator.migrateTo(before);
      expect(error).toBeUndefined();
      const tables = (await t.db.introspection.getTables()).map((x) => x.name);
      expect(tables).not.toContain('escalation_chains');
      expect(tables).not.toContain('alert_escalations');
      expect(await migrateToLatest(t.db)).toContain(NAME);
    });
  });
}
