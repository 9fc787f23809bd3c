import { Migrator } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../kysely';
import { migrateToLatest, migrations } from '../migrate';
import { createCustomer } from '../queries/customers';
import { createPlan } from '../queries/plans';
import { createUser } from '../queries/users';
import { createTestDatabase, type TestDatabase } from '../testing';

const NAME = '0010_integrations';

/** Migration 0010 (chat integrations), run once per engine by the .test and .integration.test files. */
export function integrationsMigrationSuite(engine: Engine) {
  describe(`migration ${NAME} on ${engine}`, () => {
    let t: TestDatabase | undefined;
    afterEach(async () => {
      await t?.drop();
      t = undefined;
    });

    it('keeps a sealed secret and a pending key on an integration, with no attempts counted', async () => {
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
      const user = await createUser(t.db, customer.id, {
        email: 'o@example.com',
        name: 'O',
        password_hash: null,
      });
      const row = await t.db
        .insertInto('notification_integrations')
        .values({
          customer_id: customer.id,
          user_id: user.id,
          channel: 'whatsapp',
          target: '',
          created_at: 1,
          updated_at: 1,
          last_sent_at: null,
          last_error: null,
          secret: 'v1.a.b.c',
          pending_target: '5511999998888',
          verify_hash: 'f'.repeat(64),
          verify_until: 4_102_444_800,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        secret: 'v1.a.b.c',
        detail: null,
        pending_target: '5511999998888',
        verify_until: 4_102_444_800,
        verify_attempts: 0,
      });
      const found = await t.db
        .selectFrom('notification_integrations')
        .select('id')
        .where('channel', '=', 'whatsapp')
        .where('verify_hash', '=', 'f'.repeat(64))
        .execute();
      expect(found).toEqual([{ id: row.id }]);
    });

    it('goes down and up again', async () => {
      t = await createTestDatabase(engine);
      await migrateToLatest(t.db);
      const names = Object.keys(migrations);
      const before = names[names.indexOf(NAME) - 1]!;
      const migrator = new Migrator({ db: t.db, provider: { getMigrations: async () => migrations } });
      const { error } = await migrator.migrateTo(before);
      expect(error).toBeUndefined();
      const table = (await t.db.introspection.getTables()).find(
        (x) => x.name === 'notification_integrations',
      );
      expect(table?.columns.map((c) => c.name)).not.toContain('secret');
      expect(await migrateToLatest(t.db)).toContain(NAME);
    });
  });
}
