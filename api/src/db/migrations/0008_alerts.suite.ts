import { Migrator } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { Db, Engine } from '../kysely';
import { migrateToLatest, migrations } from '../migrate';
import { createCustomer } from '../queries/customers';
import { createPlan } from '../queries/plans';
import { createServer } from '../queries/servers';
import { createUser } from '../queries/users';
import { createTestDatabase, type TestDatabase } from '../testing';

const NAME = '0008_alerts';

async function customerWithServer(db: Db) {
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
  const server = await createServer(db, customer.id, { host_key: 'web-1', hostname: 'web-1' });
  const user = await createUser(db, customer.id, {
    email: 'ops@example.com',
    name: 'Ops',
    password_hash: null,
  });
  return { customer, server, user };
}

/** Migration 0008 (alerts), run once per engine by the .test and .integration.test files. */
export function alertsMigrationSuite(engine: Engine) {
  describe(`migration ${NAME} on ${engine}`, () => {
    let t: TestDatabase | undefined;
    afterEach(async () => {
      await t?.drop();
      t = undefined;
    });

    it('keeps a threshold, its open alert with the history row, and removes them with the server', async () => {
      t = await createTestDatabase(engine);
      await migrateToLatest(t.db);
      const { customer, server } = await customerWithServer(t.db);
      const threshold = await t.db
        .insertInto('alert_thresholds')
        .values({
          customer_id: customer.id,
          server_id: server.id,
          metric: 'cpu.total',
          scope_key: 'k',
          operator: 'gt',
          yellow: 70.5,
          red: 90,
          recovery: 60,
          type_id: 10,
          sensitivity: null,
          direction: null,
          created_by: null,
          created_at: 1_700_000_000,
          updated_at_ms: 1_700_000_000_123,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      expect(threshold).toMatchObject({
        service: '',
        labels: '',
        mode: 'defined',
        enabled: 1,
        for_s: 0,
        yellow: 70.5,
      });
      expect(Number(threshold.updated_at_ms)).toBe(1_700_000_000_123);
      // The scope is unique per customer.
      await expect(
        t.db
          .insertInto('alert_thresholds')
          .values({ ...threshold, id: undefined })
          .execute(),
      ).rejects.toThrow();

      const series = { host_key: 'web-1', service: '', metric: 'cpu.total', labels: '', type_id: 10 };
      const history = await t.db
        .insertInto('alert_history')
        .values({
          customer_id: customer.id,
          server_id: server.id,
          threshold_id: threshold.id,
          alert_id: null,
          ...series,
          level: 'R',
          last_level: 'R',
          event: 'new',
          text: 'web-1: CPU at 95 %, above 90 %.',
          value: 95.25,
          date_enter: 1_700_000_100,
          date_exit: null,
          acknowledged_until: null,
          ack_by: null,
          ack_user_id: null,
          ack_comment: null,
          quiet: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      expect(history).toMatchObject({ notified: 0, value: 95.25, date_exit: null });
      const alert = {
        customer_id: customer.id,
        server_id: server.id,
        threshold_id: threshold.id,
        historic_id: history.id,
        ...series,
        level: 'R' as const,
        event: 'new',
        text: history.text,
        value: 95.25,
        entered_at_ms: 1_700_000_100_000,
        changed_at_ms: 1_700_000_100_000,
        ack_until: null,
        ack_by: null,
        ack_user_id: null,
        ack_comment: null,
      };
      const open = await t.db.insertInto('alerts').values(alert).returningAll().executeTakeFirstOrThrow();
      expect(open).toMatchObject({ change_seq: 0, recurring: 0 });
      // One open alert per threshold and series.
      await expect(t.db.insertInto('alerts').values(alert).execute()).rejects.toThrow();

      await t.db
        .insertInto('alert_rule_states')
        .values({
          customer_id: customer.id,
          threshold_id: threshold.id,
          host_key: 'web-1',
          service: '',
          labels: '',
          level: 'G',
          pending: 'Y',
          pending_since_ms: 1_700_000_000_000,
          updated_at_ms: 1_700_000_000_000,
        })
        .execute();

      await t.db.deleteFrom('servers').where('id', '=', server.id).execute();
      for (const table of ['alert_thresholds', 'alerts', 'alert_history', 'alert_rule_states'] as const) {
        const rows = await t.db.selectFrom(table).select('customer_id').execute();
        expect(rows, table).toEqual([]);
      }
    });

    it('keeps one e-mail integration per user and outbox items unique by notification id', async () => {
      t = await createTestDatabase(engine);
      await migrateToLatest(t.db);
      const { customer, user } = await customerWithServer(t.db);
      const integration = {
        customer_id: customer.id,
        user_id: user.id,
        channel: 'email',
        target: 'ops@example.com',
        created_at: 1,
        updated_at: 1,
        last_sent_at: null,
        last_error: null,
      };
      const row = await t.db
        .insertInto('notification_integrations')
        .values(integration)
        .returningAll()
        .executeTakeFirstOrThrow();
      expect(row.status).toBe('enabled');
      await expect(
        t.db.insertInto('notification_integrations').values(integration).execute(),
      ).rejects.toThrow();
      const item = {
        customer_id: customer.id,
        notification_id: '1:new:1:1:email',
        channel: 'email',
        recipient_key: 'email:ops@example.com',
        payload: '{}',
        enqueued_at_ms: 1,
        next_at_ms: 1,
        done_at_ms: null,
        last_error: null,
      };
      const queued = await t.db
        .insertInto('notification_outbox')
        .values(item)
        .returningAll()
        .executeTakeFirstOrThrow();
      expect(queued).toMatchObject({ state: 'pending', attempts: 0 });
      await expect(t.db.insertInto('notification_outbox').values(item).execute()).rejects.toThrow();
      await t.db.deleteFrom('users').where('id', '=', user.id).execute();
      expect(await t.db.selectFrom('notification_integrations').selectAll().execute()).toEqual([]);
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
      expect(tables).not.toContain('alerts');
      expect(tables).not.toContain('notification_outbox');
      expect(await migrateToLatest(t.db)).toContain(NAME);
    });
  });
}
