import { waitFor } from '@flightdeck/collector/testing';
import {
  AlertItem,
  AlertListData,
  EmailIntegration,
  EscalationConfigData,
  Threshold,
} from '@flightdeck/schemas';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../db/kysely';
import { createUser } from '../../db/queries/users';
import { type AlertHarness, startAlertHarness } from '../alerts/test-harness';
import { expectOk } from '../auth/test-app';
import { maintenanceLookup } from '../maintenance/lookup';
import { createEscalationRunner } from './runner';

const ALERTS = '/services_monitored/alerts';
const BASE_TS = 1_800_000_000_000;
const MINUTE = 60_000;

/**
 * Escalation through the whole alert slice (collector engine, api alert service, outbox, local SMTP
 * server), per metadata DB engine: a chain whose step 2 goes to an on-call colleague after 5 minutes.
 */
export function escalationRunnerSuite(engine: Engine) {
  describe(`escalation runner on ${engine}`, () => {
    let h: AlertHarness;
    let ts = BASE_TS;
    const next = (ms = 1_000) => {
      ts += ms;
      return ts;
    };
    const mailsTo = (address: string, word: string) =>
      h.smtp.received.filter((m) => m.to.includes(address) && m.text.includes(word));

    async function openAlert(metric: string, value: number): Promise<{ historicId: number; at: number }> {
      const res = await h.call('POST', `${ALERTS}/defined_threshold`, {
        server_id: h.a.serverId,
        metric,
        operator: 'gt',
        yellow: 50,
        red: 80,
        recovery: 40,
      });
      await expectOk(res, Threshold);
      await h.engine.refresh();
      const at = next();
      await h.publish(metric, value, at);
      let historicId = 0;
      await waitFor(async () => {
        const list = (await expectOk(await h.call('GET', `${ALERTS}/list`), AlertListData)).data;
        // Alerts of one type sit under the first one of it.
        const item = list
          .flatMap((g) => g.alerts)
          .flatMap((a) => [a, ...a.alerts])
          .find((a) => a.metric === metric);
        historicId = item?.historic_id ?? 0;
        return historicId > 0;
      }, `the ${metric} alert`);
      return { historicId, at };
    }

    beforeAll(async () => {
      h = await startAlertHarness(engine);
      const plan = await h.t.db
        .selectFrom('customers')
        .select('plan_id')
        .where('id', '=', h.a.customerId)
        .executeTakeFirstOrThrow();
      await h.t.db
        .updateTable('plans')
        .set({ resources: JSON.stringify({ flightdeck: { management: { thresholds: 1, escalation: 1 } } }) })
        .where('id', '=', plan.plan_id)
        .execute();
      const registered = await h.call('POST', '/integrations/integration/email/register', {
        address: 'ops@example.com',
      });
      await expectOk(registered, EmailIntegration);
      const colleague = await createUser(h.t.db, h.a.customerId, {
        email: 'oncall@example.com',
        name: 'On call',
        password_hash: null,
      });
      await h.t.db
        .insertInto('notification_integrations')
        .values({
          customer_id: h.a.customerId,
          user_id: colleague.id,
          channel: 'email',
          target: 'oncall@example.com',
          status: 'enabled',
          created_at: 1,
          updated_at: 1,
          last_sent_at: null,
          last_error: null,
        })
        .execute();
      h.alerts.recipientsChanged(h.a.customerId);
      const saved = await h.call('POST', '/integrations/integration/save_escalation_config', {
        severity: 'default',
        steps: [
          { delay_minutes: 0, recipients: [] },
          { delay_minutes: 5, recipients: [{ kind: 'user', user_id: colleague.id }] },
          { delay_minutes: 30, recipients: [{ kind: 'user', user_id: colleague.id }] },
        ],
      });
      expect((await expectOk(saved, EscalationConfigData)).data.chains).toHaveLength(1);
    });
    afterAll(async () => {
      await h?.close();
    });

    it('e-mails step 2 to the on-call colleague once the delay has passed, and never twice across a restart', async () => {
      const { historicId, at } = await openAlert('cpu.total', 91.5);
      await waitFor(() => mailsTo('oncall@example.com', 'CPU').length === 1, 'the opening e-mail');

      expect(await h.alerts.escalation.tick(at + 4 * MINUTE)).toBe(0);
      expect(await h.alerts.escalation.tick(at + 6 * MINUTE)).toBe(1);
      await waitFor(
        () => mailsTo('oncall@example.com', 'escalation step 2').length === 1,
        'the step 2 e-mail',
      );
      const step2 = mailsTo('oncall@example.com', 'escalation step 2')[0]!;
      expect(step2.text).toContain('not acknowledged after 5 min');
      expect(mailsTo('ops@example.com', 'escalation step')).toEqual([]);
      const progress = await h.t.db
        .selectFrom('alert_escalations')
        .selectAll()
        .where('historic_id', '=', historicId)
        .executeTakeFirstOrThrow();
      expect(progress.step).toBe(1);

      // A restarted api: a new runner on the same database finds step 2 already sent.
      const restarted = createEscalationRunner({
        db: h.t.db,
        logger: pino({ level: 'silent' }),
        queue: h.alerts.queue,
        secrets: () => {
          throw new Error('no webhook integration here');
        },
        publicUrl: 'http://flightdeck.test',
      });
      expect(await restarted.tick(at + 10 * MINUTE)).toBe(0);
      expect(await restarted.tick(at + 31 * MINUTE)).toBe(1);
      await waitFor(
        () => mailsTo('oncall@example.com', 'escalation step 3').length === 1,
        'the step 3 e-mail',
      );
      expect(await h.alerts.escalation.tick(at + 40 * MINUTE)).toBe(0);
      await restarted.stop();
      expect(mailsTo('oncall@example.com', 'escalation step 2')).toHaveLength(1);
    });

    it('sends no step for an acknowledged alert', async () => {
      const { historicId, at } = await openAlert('cpu.iowait', 95);
      await waitFor(() => mailsTo('oncall@example.com', 'I/O wait').length === 1, 'the opening e-mail');
      const ack = await h.call('POST', `${ALERTS}/set_acknowledge`, {
        historic_id: historicId,
        hours: '2',
        comment: 'on it',
      });
      expect((await expectOk(ack, AlertItem)).data.acknowledged).toBe(true);
      expect(await h.alerts.escalation.tick(at + 60 * MINUTE)).toBe(0);
      const progress = await h.t.db
        .selectFrom('alert_escalations')
        .selectAll()
        .where('historic_id', '=', historicId)
        .executeTakeFirst();
      expect(progress).toBeUndefined();
      expect(mailsTo('oncall@example.com', 'I/O wait').filter((m) => m.text.includes('escalation'))).toEqual(
        [],
      );
    });

    it('holds the steps while a maintenance window covers the server and sends them after it', async () => {
      const { at } = await openAlert('cpu.user', 90);
      await waitFor(() => mailsTo('oncall@example.com', 'CPU at 90 %').length === 1, 'the opening e-mail');
      const start = Math.floor((at + 3 * MINUTE) / 1000);
      const end = Math.floor((at + 20 * MINUTE) / 1000);
      await h.t.db
        .insertInto('maintenance_windows')
        .values({
          customer_id: h.a.customerId,
          all_servers: 1,
          start_at: start,
          end_at: end,
          until_at: null,
          last_end_at: end,
          reason: 'kernel upgrade',
          approved: 1,
          created_by: h.a.userId,
          created_at: start,
          finished_at: null,
        })
        .execute();
      maintenanceLookup(h.t.db).changed(h.a.customerId);
      expect(await h.alerts.escalation.tick(at + 6 * MINUTE)).toBe(0);
      expect(await h.alerts.escalation.tick(at + 21 * MINUTE)).toBe(1);
      await waitFor(
        () => mailsTo('oncall@example.com', 'escalation step 2').length === 2,
        'the step 2 e-mail after the window',
      );
    });

    it("follows the chain of the alert's level over the default one", async () => {
      const saved = await h.call('POST', '/integrations/integration/save_escalation_config', {
        severity: 'R',
        steps: [
          { delay_minutes: 0, recipients: [] },
          { delay_minutes: 2, recipients: [{ kind: 'user', user_id: h.a.userId }] },
        ],
      });
      expect((await expectOk(saved, EscalationConfigData)).data.chains.map((c) => c.severity)).toEqual([
        'default',
        'R',
      ]);
      const { at } = await openAlert('cpu.system', 97);
      await waitFor(() => mailsTo('ops@example.com', 'CPU at 97 %').length === 1, 'the opening e-mail');
      // Past the maintenance window of the test before.
      expect(await h.alerts.escalation.tick(at + 25 * MINUTE)).toBe(1);
      await waitFor(
        () => mailsTo('ops@example.com', 'not acknowledged after 2 min').length === 1,
        'the red chain step 2 e-mail',
      );
      expect(mailsTo('oncall@example.com', 'escalation step 2')).toHaveLength(2);
    });
  });
}
