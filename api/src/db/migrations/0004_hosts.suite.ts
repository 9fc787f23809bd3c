import { Migrator } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgentKey, verifyAgentKey } from '../../hosts/agent-keys';
import type { Engine } from '../kysely';
import { migrateToLatest, migrations } from '../migrate';
import { createCustomer } from '../queries/customers';
import { createPlan } from '../queries/plans';
import { listServices, upsertHostServer } from '../queries/servers';
import { createTestDatabase, type TestDatabase } from '../testing';

/** Migration 0004 (host inventory, agent keys), run once per engine by the .test and .integration.test files. */
export function hostsMigrationSuite(engine: Engine) {
  describe(`migration 0004_hosts on ${engine}`, () => {
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

    it('stores a host inventory and agent keys, hashed', async () => {
      t = await createTestDatabase(engine);
      await migrateToLatest(t.db);
      const id = await customer(t.db);
      const server = await upsertHostServer(t.db, id, {
        hostKey: 'h1',
        agentVersion: '1.0.0',
        intervalSeconds: 10,
        seenAt: 1_700_000_000,
        inventory: {
          hostname: 'h1.local',
          os: 'Debian',
          kernel: '6.1',
          platform: 'linux',
          architecture: 'x64',
          cores: 2,
          memory_bytes: 4_294_967_296 * 2,
          swap_bytes: 0,
          ips: ['10.1.1.1'],
          containerized: true,
        },
      });
      expect(server).toMatchObject({
        hostname: 'h1.local',
        memory_bytes: 8_589_934_592,
        containerized: 1,
        interval_s: 10,
      });
      const again = await upsertHostServer(t.db, id, {
        hostKey: 'h1',
        agentVersion: '1.0.1',
        intervalSeconds: 10,
        seenAt: 1_700_000_060,
      });
      expect(again).toMatchObject({
        id: server.id,
        hostname: 'h1.local',
        agent_version: '1.0.1',
        last_seen_at: 1_700_000_060,
      });
      expect((await listServices(t.db, id)).map((s) => s.service_code)).toEqual(['linux']);

      const { key, row } = await createAgentKey(t.db, id, 'default');
      expect(row.key_hash).not.toContain(key);
      expect(await verifyAgentKey(t.db, key)).toBe(id);
      await createAgentKey(t.db, id, 'default');
      expect(await verifyAgentKey(t.db, key)).toBeUndefined();
    });

    it('goes down and up again', async () => {
      t = await createTestDatabase(engine);
      await migrateToLatest(t.db);
      const migrator = new Migrator({ db: t.db, provider: { getMigrations: async () => migrations } });
      const { error } = await migrator.migrateTo('0003_plan_catalog');
      expect(error).toBeUndefined();
      const tables = await t.db.introspection.getTables();
      expect(tables.map((x) => x.name)).not.toContain('agent_keys');
      expect(tables.find((x) => x.name === 'servers')?.columns.map((c) => c.name)).not.toContain('platform');
      expect((await migrateToLatest(t.db))[0]).toBe('0004_hosts');
    });
  });
}
