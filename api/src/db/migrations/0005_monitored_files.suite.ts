import { Migrator } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../kysely';
import { migrateToLatest, migrations } from '../migrate';
import { createCustomer } from '../queries/customers';
import { createPlan } from '../queries/plans';
import { upsertHostServer } from '../queries/servers';
import { createTestDatabase, type TestDatabase } from '../testing';

/** Migration 0005 (critical files), run once per engine by the .test and .integration.test files. */
export function monitoredFilesMigrationSuite(engine: Engine) {
  describe(`migration 0005_monitored_files on ${engine}`, () => {
    let t: TestDatabase | undefined;
    afterEach(async () => {
      await t?.drop();
      t = undefined;
    });

    async function server(db: TestDatabase['db']) {
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
      const host = await upsertHostServer(db, customer.id, {
        hostKey: 'h1',
        agentVersion: '1.0.0',
        intervalSeconds: 10,
        seenAt: 1_700_000_000,
      });
      return { customerId: customer.id, serverId: host.id };
    }

    function file(customerId: number, serverId: number, path: string) {
      return {
        customer_id: customerId,
        server_id: serverId,
        path,
        baseline_sha256: null,
        sha256: null,
        size: 5_000_000_000,
        mtime: null,
        error: null,
        last_checked_at: null,
        changed_at: null,
        baseline_at: null,
        baseline_by: null,
        created_by: null,
        created_at: 1_700_000_000,
      };
    }

    it('monitors a path once per server, and drops files, changes and tests with their server', async () => {
      t = await createTestDatabase(engine);
      await migrateToLatest(t.db);
      const { customerId, serverId } = await server(t.db);
      const row = await t.db
        .insertInto('monitored_files')
        .values(file(customerId, serverId, '/etc/my.cnf'))
        .returningAll()
        .executeTakeFirstOrThrow();
      // Defaults, and a size above 32 bits read back as a number.
      expect(row).toMatchObject({ status: 'pending', size: 5_000_000_000 });
      await expect(
        t.db
          .insertInto('monitored_files')
          .values(file(customerId, serverId, '/etc/my.cnf'))
          .execute(),
      ).rejects.toThrow();
      await t.db
        .insertInto('monitored_file_changes')
        .values({
          customer_id: customerId,
          file_id: row.id,
          detected_at: 1_700_000_100,
          previous_sha256: 'a'.repeat(64),
          sha256: 'b'.repeat(64),
          size: 1,
          mtime: 1,
          accepted_at: null,
          accepted_by: null,
        })
        .execute();
      await t.db
        .insertInto('file_path_tests')
        .values({
          customer_id: customerId,
          server_id: serverId,
          path: '/etc/hosts',
          reason: null,
          message: null,
          size: null,
          created_at: 1_700_000_000,
          answered_at: null,
        })
        .execute();
      expect(await t.db.selectFrom('file_path_tests').select('status').executeTakeFirstOrThrow()).toEqual({
        status: 'pending',
      });

      await t.db.deleteFrom('services').where('server_id', '=', serverId).execute();
      await t.db.deleteFrom('servers').where('id', '=', serverId).execute();
      for (const table of ['monitored_files', 'monitored_file_changes', 'file_path_tests'] as const) {
        expect(await t.db.selectFrom(table).select('id').execute(), table).toEqual([]);
      }
    });

    it('goes down and up again', async () => {
      t = await createTestDatabase(engine);
      await migrateToLatest(t.db);
      const names = Object.keys(migrations);
      const migrator = new Migrator({ db: t.db, provider: { getMigrations: async () => migrations } });
      const { error } = await migrator.migrateTo('0004_hosts');
      expect(error).toBeUndefined();
      const tables = (await t.db.introspection.getTables()).map((x) => x.name);
      expect(tables).not.toContain('monitored_files');
      expect(tables).not.toContain('monitored_file_changes');
      expect(tables).not.toContain('file_path_tests');
      expect(await migrateToLatest(t.db)).toEqual(names.slice(names.indexOf('0005_monitored_files')));
    });
  });
}
