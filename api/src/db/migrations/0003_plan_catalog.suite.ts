import { PlanResources } from '@flightdeck/schemas';
import { type Kysely, Migrator } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../kysely';
import { migrateToLatest, migrations } from '../migrate';
import { createCustomer, getCustomer } from '../queries/customers';
import { createPlan, listCataloguePlans } from '../queries/plans';
import { createTestDatabase, type TestDatabase } from '../testing';
import { seedPlanCatalogue } from './0003_plan_catalog';

const legacyPlan = {
  lifetime_days: null,
  user_limit: null,
  max_servers: null,
  max_services: null,
  data_retention_days: null,
  concurrent_sessions: null,
  instance_quantity: null,
} as const;

/** Migration 0003 (the plan catalogue), run once per engine by the .test and .integration.test files. */
export function planCatalogueSuite(engine: Engine) {
  describe(`migration 0003_plan_catalog on ${engine}`, () => {
    let t: TestDatabase | undefined;
    afterEach(async () => {
      await t?.drop();
      t = undefined;
    });

    function migrator(db: TestDatabase['db']) {
      return new Migrator({ db, provider: { getMigrations: async () => migrations } });
    }

    it('seeds Freemium, Standard and Enterprise with their rules', async () => {
      t = await createTestDatabase(engine);
      await migrateToLatest(t.db);
      const plans = await listCataloguePlans(t.db);
      expect(plans.map((p) => [p.code, p.name])).toEqual([
        ['freemium', 'Freemium'],
        ['standard', 'Standard'],
        ['enterprise', 'Enterprise'],
      ]);
      const [freemium, , enterprise] = plans;
      expect(freemium).toMatchObject({ is_freemium: 1, lifetime_days: 14, price: 0, user_limit: 3 });
      const resources = PlanResources.parse(JSON.parse(freemium!.resources));
      expect(resources.tower_control).toBe(0);
      expect(JSON.parse(freemium!.deploy_permissions)).toEqual({ agent: 1, agentless: 0 });
      expect(JSON.parse(freemium!.product_permissions)).toMatchObject({ tower_control: 0, about: 1 });
      expect(enterprise).toMatchObject({
        is_freemium: 0,
        lifetime_days: null,
        user_limit: null,
        max_servers: null,
        max_services: null,
        max_flashback_days: null,
        description: expect.any(String),
      });
      expect(PlanResources.parse(JSON.parse(enterprise!.resources)).tower_control).toBe(1);
    });

    it('adopts the Freemium (and an earlier Enterprise) plan already there instead of duplicating it', async () => {
      t = await createTestDatabase(engine);
      const { error } = await migrator(t.db).migrateTo('0002_auth_codes');
      expect(error).toBeUndefined();
      const signupFreemium = await createPlan(t.db, { ...legacyPlan, name: 'Freemium', is_freemium: 1 });
      const firstStart = await createPlan(t.db, { ...legacyPlan, name: 'Enterprise', resources: '["apm"]' });
      const customer = await createCustomer(t.db, { name: 'Early', plan_id: signupFreemium.id });

      expect((await migrateToLatest(t.db))[0]).toBe('0003_plan_catalog');
      const plans = await t.db.selectFrom('plans').selectAll().orderBy('id').execute();
      expect(plans).toHaveLength(3);
      const catalogue = await listCataloguePlans(t.db);
      expect(catalogue.find((p) => p.code === 'freemium')).toMatchObject({
        id: signupFreemium.id,
        lifetime_days: 14,
      });
      expect(catalogue.find((p) => p.code === 'enterprise')?.id).toBe(firstStart.id);
      expect((await getCustomer(t.db, customer.id))?.plan_id).toBe(signupFreemium.id);
    });

    it('changes nothing when the seed runs again, and comes back after a down and up', async () => {
      t = await createTestDatabase(engine);
      await migrateToLatest(t.db);
      const before = await listCataloguePlans(t.db);
      await seedPlanCatalogue(t.db as unknown as Kysely<unknown>);
      expect(await listCataloguePlans(t.db)).toEqual(before);

      const { error } = await migrator(t.db).migrateTo('0002_auth_codes');
      expect(error).toBeUndefined();
      const columns = (await t.db.introspection.getTables())
        .find((x) => x.name === 'plans')
        ?.columns.map((c) => c.name);
      expect(columns).not.toContain('code');
      await migrateToLatest(t.db);
      const after = await listCataloguePlans(t.db);
      expect(after.map((p) => p.id)).toEqual(before.map((p) => p.id));
      expect(await t.db.selectFrom('plans').selectAll().execute()).toHaveLength(3);
    });
  });
}
