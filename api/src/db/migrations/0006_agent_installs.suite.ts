import { Migrator } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { registerInstall } from '../../hosts/installs';
import type { Engine } from '../kysely';
import { migrateToLatest, migrations } from '../migrate';
import { createCustomer } from '../queries/customers';
import { createPlan } from '../queries/plans';
import { createTestDatabase, type TestDatabase } from '../testing';

const NAME = '0006_agent_installs';
const machine = (n: number) => `machine-${String(n).padStart(8, '0')}`;

/** Migration 0006 (agent installs), run once per engine by the .test and .integration.test files. */
export function agentInstallsMigrationSuite(engine: Engine) {
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
      return (await createCustomer(db, { name: 'c', plan_id: plan.id })).id;
    }

    it('keeps one install per machine and one host key per customer, even when registrations race', async () => {
      t = await createTestDatabase(engine);
      await migrateToLatest(t.db);
      const a = await customer(t.db);
      const b = await customer(t.db);
      const db = t.db;

      const first = await registerInstall(db, a, {
        machineId: machine(1),
        hostname: 'Web.local',
        platform: 'linux',
      });
      expect(first).toMatchObject({ customer_id: a, host_key: 'web-local', hostname: 'Web.local' });
      const again = await registerInstall(db, a, {
        machineId: machine(1),
        hostname: 'web2',
        platform: 'linux',
      });
      expect(again).toMatchObject({ id: first.id, host_key: 'web-local', hostname: 'web2' });

      // Four other machines named alike, at once: each gets an install and a key of its own.
      const racing = await Promise.all(
        [2, 3, 4, 5].map((n) =>
          registerInstall(db, a, { machineId: machine(n), hostname: 'web.local', platform: 'linux' }),
        ),
      );
      expect(racing.map((r) => r.host_key).sort()).toEqual([
        'web-local-2',
        'web-local-3',
        'web-local-4',
        'web-local-5',
      ]);
      // The same new machine twice at once: one install.
      const twice = await Promise.all(
        [1, 2].map(() =>
          registerInstall(db, a, { machineId: machine(9), hostname: 'db', platform: 'linux' }),
        ),
      );
      expect(twice[0]!.id).toBe(twice[1]!.id);
      // Another customer's machine with the same id and name is another install with the plain key.
      const other = await registerInstall(db, b, {
        machineId: machine(1),
        hostname: 'web.local',
        platform: 'linux',
      });
      expect(other).toMatchObject({ customer_id: b, host_key: 'web-local' });
      expect(other.id).not.toBe(first.id);

      const count = await db
        .selectFrom('agent_installs')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(7);
      await expect(
        db
          .insertInto('agent_installs')
          .values({
            customer_id: a,
            machine_id: machine(1),
            host_key: 'fresh',
            hostname: 'x',
            platform: 'linux',
            registered_at: 1,
            last_registered_at: 1,
          })
          .execute(),
      ).rejects.toThrow();
    });

    it('goes down and up again', async () => {
      t = await createTestDatabase(engine);
      await migrateToLatest(t.db);
      const names = Object.keys(migrations);
      const before = names[names.indexOf(NAME) - 1]!;
      const migrator = new Migrator({ db: t.db, provider: { getMigrations: async () => migrations } });
      const { error } = await migrator.migrateTo(before);
      expect(error).toBeUndefined();
      expect((await t.db.introspection.getTables()).map((x) => x.name)).not.toContain('agent_installs');
      expect((await migrateToLatest(t.db))[0]).toBe(NAME);
    });
  });
}
