import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MetricStore } from '@flightdeck/collector/store';
import { EmailIntegration, EscalationConfigData, SigninData } from '@flightdeck/schemas';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../app';
import { loadApiConfig } from '../../config';
import type { Engine } from '../../db/kysely';
import { migrateToLatest } from '../../db/migrate';
import { createUser } from '../../db/queries/users';
import { createTestDatabase, type TestDatabase } from '../../db/testing';
import { createAccount, expectError, expectOk, post } from '../auth/test-app';

const I = '/api/integrations/integration';
const PASSWORD = 'correct-horse-battery';
const store = { kind: 'sqlite', health: async () => ({ state: 'ok' }) } as unknown as MetricStore;
const bus = { kind: 'in-process', health: async () => ({ state: 'ok' }) } as unknown as never;

/** The escalation calls through `app.request()`, per metadata DB engine. */
export function escalationRoutesSuite(engine: Engine) {
  describe(`escalation chains on ${engine}`, () => {
    let t: TestDatabase;
    let app: ReturnType<typeof createApp>;
    let dir: string;
    let owner: { token: string; userId: number; customerId: number };
    let other: { token: string; userId: number };
    let colleagueId: number;
    let integrationId: number;

    async function signIn(email: string) {
      const res = await post(app, '/api/signin', { email, password: PASSWORD });
      return (await expectOk(res, SigninData)).data.token;
    }
    async function grant(customerId: number) {
      const c = await t.db
        .selectFrom('customers')
        .select('plan_id')
        .where('id', '=', customerId)
        .executeTakeFirstOrThrow();
      await t.db
        .updateTable('plans')
        .set({ resources: JSON.stringify({ flightdeck: { management: { escalation: 1 } } }) })
        .where('id', '=', c.plan_id)
        .execute();
    }
    const config = async (token = owner.token) =>
      (await expectOk(await post(app, `${I}/escalation_config`, {}, token), EscalationConfigData)).data;
    const save = (body: unknown, token = owner.token) =>
      post(app, `${I}/save_escalation_config`, body, token);

    beforeAll(async () => {
      t = await createTestDatabase(engine);
      await migrateToLatest(t.db);
      dir = mkdtempSync(join(tmpdir(), 'fd-escalation-'));
      app = createApp({
        db: t.db,
        store,
        bus,
        logger: pino({ level: 'silent' }),
        version: '0.0.0-test',
        config: loadApiConfig({ DATA_DIR: dir }),
      });
      const user = await createAccount(t.db, 'owner@example.com', PASSWORD, { name: 'Owner' });
      await grant(user.customer_id);
      const colleague = await createUser(t.db, user.customer_id, {
        email: 'oncall@example.com',
        name: 'On call',
        password_hash: null,
      });
      colleagueId = colleague.id;
      owner = { token: await signIn('owner@example.com'), userId: user.id, customerId: user.customer_id };
      const registered = await post(
        app,
        `${I}/email/register`,
        { address: 'owner@example.com' },
        owner.token,
      );
      expect((await expectOk(registered, EmailIntegration)).data.status).toBe('enabled');
      const row = await t.db
        .selectFrom('notification_integrations')
        .select('id')
        .where('user_id', '=', user.id)
        .executeTakeFirstOrThrow();
      integrationId = row.id;
      const stranger = await createAccount(t.db, 'other@example.com', PASSWORD, { name: 'Other' });
      other = { token: await signIn('other@example.com'), userId: stranger.id };
    });
    afterAll(async () => {
      await t?.drop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('answers no chain, the active users and their integrations for a new customer', async () => {
      const data = await config();
      expect(data.chains).toEqual([]);
      expect(data.users.map((u) => u.email).sort()).toEqual(['oncall@example.com', 'owner@example.com']);
      expect(data.integrations).toEqual([
        {
          id: integrationId,
          user_id: owner.userId,
          channel: 'email',
          target: 'owner@example.com',
          enabled: true,
        },
      ]);
      await expectError(await post(app, `${I}/escalation_config`, {}), 401, 'unauthorized');
    });

    it('saves a chain per severity, replaces it, and removes it when only the first step is left', async () => {
      const steps = [
        { delay_minutes: 0, recipients: [] },
        { delay_minutes: 5, recipients: [{ kind: 'user', user_id: colleagueId }] },
        { delay_minutes: 30, recipients: [{ kind: 'integration', integration_id: integrationId }] },
      ];
      const saved = (await expectOk(await save({ severity: 'default', steps }), EscalationConfigData)).data;
      expect(saved.chains).toHaveLength(1);
      expect(saved.chains[0]).toMatchObject({ severity: 'default', steps });
      await expectOk(await save({ severity: 'R', steps: steps.slice(0, 2) }), EscalationConfigData);
      expect((await config()).chains.map((c) => [c.severity, c.steps.length])).toEqual([
        ['default', 3],
        ['R', 2],
      ]);
      await expectOk(await save({ severity: 'R', steps: steps.slice(0, 1) }), EscalationConfigData);
      expect((await config()).chains.map((c) => c.severity)).toEqual(['default']);
      expect((await config(other.token)).chains).toEqual([]);
    });

    it('refuses chains out of shape with a message naming the step', async () => {
      const late = await expectError(
        await save({
          severity: 'default',
          steps: [
            { delay_minutes: 0, recipients: [] },
            { delay_minutes: 10, recipients: [{ kind: 'user', user_id: colleagueId }] },
            { delay_minutes: 10, recipients: [{ kind: 'user', user_id: owner.userId }] },
          ],
        }),
        400,
        'validation_failed',
      );
      expect(late.message).toContain('Step 3 must wait longer than step 2');
      const first = await expectError(
        await save({ severity: 'Y', steps: [{ delay_minutes: 3, recipients: [] }] }),
        400,
        'validation_failed',
      );
      expect(first.message).toContain('opening notification');
      const tooLong = await expectError(
        await save({
          severity: 'Y',
          steps: [
            { delay_minutes: 0, recipients: [] },
            { delay_minutes: 1441, recipients: [{ kind: 'user', user_id: colleagueId }] },
          ],
        }),
        400,
        'validation_failed',
      );
      expect(tooLong.message).toContain('1440');
      const eleven = Array.from({ length: 11 }, (_, i) => ({
        delay_minutes: i,
        recipients: i === 0 ? [] : [{ kind: 'user', user_id: colleagueId }],
      }));
      await expectError(await save({ severity: 'Y', steps: eleven }), 400, 'validation_failed');
      await expectError(
        await save({
          severity: 'Y',
          steps: [
            { delay_minutes: 0, recipients: [] },
            { delay_minutes: 5, recipients: [] },
          ],
        }),
        400,
        'validation_failed',
      );
    });

    it("refuses recipients of another customer and saving without the plan's escalation page", async () => {
      const foreign = await expectError(
        await save({
          severity: 'default',
          steps: [
            { delay_minutes: 0, recipients: [] },
            { delay_minutes: 5, recipients: [{ kind: 'user', user_id: other.userId }] },
          ],
        }),
        400,
        'validation_failed',
      );
      expect(foreign.message).toContain(`Step 2 names user ${other.userId}`);
      const steps = [
        { delay_minutes: 0, recipients: [] },
        { delay_minutes: 5, recipients: [{ kind: 'user', user_id: other.userId }] },
      ];
      await expectError(await save({ severity: 'default', steps }, other.token), 403, 'plan_gated');
      expect((await config()).chains[0]!.steps).toHaveLength(3);
    });
  });
}
