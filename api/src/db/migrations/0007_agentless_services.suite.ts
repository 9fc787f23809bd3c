import { Migrator } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../kysely';
import { migrateToLatest, migrations } from '../migrate';
import { createCustomer } from '../queries/customers';
import { createPlan } from '../queries/plans';
import { createServer, createService } from '../queries/servers';
import { createTestDatabase, type TestDatabase } from '../testing';

const NAME = '0007_agentless_services';

/** Migration 0007 (agentless services), run once per engine by the .test and .integration.test files. */
export function agentlessServicesMigrationSuite(engine: Engine) {
  describe(`migration ${NAME} on ${engine}`, () => {
    let t: TestDatabase | undefined;
    afterEach(async () => {
      await t?.drop();
      t = undefined;
    });

    it('keeps a registered database as a server without platform and a service with sealed secrets', async () => {
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
      const server = await createServer(t.db, customer.id, { host_key: 'pg-db1-5432', hostname: 'db1' });
      expect(server.platform).toBeNull();
      const service = await createService(t.db, customer.id, server.id, {
        service_code: 'postgresql',
        name: 'main',
        config: JSON.stringify({ host: 'db1', port: 5432 }),
        secrets: 'v1.sealed',
        interval_s: 30,
      });
      expect(service).toMatchObject({
        secrets: 'v1.sealed',
        availability: null,
        availability_since: null,
        last_error: null,
        interval_s: 30,
      });
      const updated = await t.db
        .updateTable('services')
        .set({ availability: 'unavailable', availability_since: 1_700_000_000, last_error: 'timeout: x' })
        .where('id', '=', service!.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      expect(updated).toMatchObject({ availability: 'unavailable', last_error: 'timeout: x' });
      expect(Number(updated.availability_since)).toBe(1_700_000_000);
    });

    it('goes down and up again', async () => {
      t = await createTestDatabase(engine);
      await migrateToLatest(t.db);
      const names = Object.keys(migrations);
      const before = names[names.indexOf(NAME) - 1]!;
      const migrator = new Migrator({ db: t.db, provider: { getMigrations: async () => migrations } });
      const { error } = await migrator.migrateTo(before);
      expect(error).toBeUndefined();
      const services = (await t.db.introspection.getTables()).find((x) => x.name === 'services')!;
      expect(services.columns.map((c) => c.name)).not.toContain('secrets');
      expect((await migrateToLatest(t.db))[0]).toBe(NAME);
    });
  });
}
