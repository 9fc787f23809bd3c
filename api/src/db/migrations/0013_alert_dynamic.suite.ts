import { Migrator } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../kysely';
import { migrateToLatest, migrations } from '../migrate';
import { createTestDatabase, type TestDatabase } from '../testing';

const NAME = '0013_alert_dynamic';

const columnsOf = async (t: TestDatabase, table: string) =>
  (await t.db.introspection.getTables()).find((x) => x.name === table)?.columns ?? [];

/** Migration 0013 (why a dynamic alert fired), run once per engine. */
export function alertDynamicMigrationSuite(engine: Engine) {
  describe(`migration ${NAME} on ${engine}`, () => {
    let t: TestDatabase | undefined;
    afterEach(async () => {
      await t?.drop();
      t = undefined;
    });

    it('adds a nullable text column for the reason to the history and the open alerts', async () => {
      t = await createTestDatabase(engine);
      await migrateToLatest(t.db);
      for (const table of ['alert_history', 'alerts']) {
        const column = (await columnsOf(t, table)).find((c) => c.name === 'dynamic');
        expect(column, table).toMatchObject({ isNullable: true });
        expect(column?.dataType.toLowerCase(), table).toBe('text');
      }
    });

    it('goes down and up again', async () => {
      t = await createTestDatabase(engine);
      await migrateToLatest(t.db);
      const names = Object.keys(migrations);
      const before = names[names.indexOf(NAME) - 1]!;
      const migrator = new Migrator({ db: t.db, provider: { getMigrations: async () => migrations } });
      const { error } = await migrator.migrateTo(before);
      expect(error).toBeUndefined();
      expect((await columnsOf(t, 'alert_history')).map((c) => c.name)).not.toContain('dynamic');
      expect((await columnsOf(t, 'alerts')).map((c) => c.name)).not.toContain('dynamic');
      expect(await migrateToLatest(t.db)).toContain(NAME);
    });
  });
}
