import { waitFor } from '@flightdeck/collector/testing';
import { EmailIntegration, MaintenanceItem, Threshold } from '@flightdeck/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AlertHarness, startAlertHarness } from '../alerts/test-harness';
import { expectOk } from '../auth/test-app';

const BASE_MS = 1_800_000_000_000;
const BASE_S = BASE_MS / 1000;

/**
 * Maintenance through the whole alert slice (collector alert engine, api alert service, local SMTP
 * server): an alert raised inside an approved window is recorded but not e-mailed, and stays quiet
 * when it resolves after the window; outside a window, or inside an unapproved one, it is e-mailed.
 */
describe('alerts during maintenance windows', () => {
  let h: AlertHarness;

  beforeAll(async () => {
    h = await startAlertHarness('sqlite');
    const plan = await h.t.db
      .selectFrom('customers')
      .select('plan_id')
      .where('id', '=', h.a.customerId)
      .executeTakeFirstOrThrow();
    await h.t.db
      .updateTable('plans')
      .set({ resources: JSON.stringify({ flightdeck: { management: { thresholds: 1, maintenance: 1 } } }) })
      .where('id', '=', plan.plan_id)
      .execute();
    const res = await h.call('POST', '/integrations/integration/email/register', {
      address: 'ops@example.com',
    });
    await expectOk(res, EmailIntegration);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('records an alert raised in an approved window without e-mailing it, and e-mails one raised outside', async () => {
    const th = await h.call('POST', '/services_monitored/alerts/defined_threshold', {
      server_id: h.a.serverId,
      metric: 'cpu.total',
      operator: 'gt',
      yellow: 50,
      red: 80,
      recovery: 40,
    });
    await expectOk(th, Threshold);
    await h.engine.refresh();

    const window = (
      await expectOk(
        await h.call('POST', '/maintenance/new2', {
          server_ids: [h.a.serverId],
          start: BASE_S - 60,
          end: BASE_S + 3_600,
          reason: 'Kernel upgrade',
          approved: true,
        }),
        MaintenanceItem,
      )
    ).data;
    // An unapproved window later on silences nothing.
    await expectOk(
      await h.call('POST', '/maintenance/new2', {
        server_ids: 'all',
        start: BASE_S + 3 * 3_600,
        duration: 3_600,
        reason: 'Not approved yet',
        approved: false,
      }),
      MaintenanceItem,
    );

    const cpuMails = () => h.smtp.received.filter((m) => m.subject.includes('CPU'));
    const historyRows = () =>
      h.t.db
        .selectFrom('alert_history')
        .select(['id', 'event', 'notified', 'quiet', 'maintenance_id', 'date_exit'])
        .where('customer_id', '=', h.a.customerId)
        .orderBy('id')
        .execute();

    // Inside the window: recorded, not told.
    await h.publish('cpu.total', 91.5, BASE_MS + 1_000);
    await waitFor(async () => (await historyRows()).length === 1, 'the alert in the history');
    const [quiet] = await historyRows();
    expect(quiet).toMatchObject({
      event: 'new',
      notified: 0,
      quiet: 'maintenance',
      maintenance_id: window.id,
    });

    // It resolves after the window ended: nothing was told, so the resolution is not told either.
    await h.publish('cpu.total', 10, BASE_MS + 2 * 3_600_000);
    await waitFor(async () => (await historyRows())[0]?.date_exit != null, 'the resolution');

    // Outside any approved window: told when it opens and when it resolves.
    await h.publish('cpu.total', 92.5, BASE_MS + 3 * 3_600_000 + 60_000);
    await waitFor(async () => (await historyRows()).length === 2, 'the second alert');
    await h.publish('cpu.total', 10, BASE_MS + 3 * 3_600_000 + 120_000);
    await waitFor(() => cpuMails().length >= 2, 'the e-mails of the second alert');

    const rows = await historyRows();
    expect(rows[1]).toMatchObject({ notified: 1, quiet: null, maintenance_id: null, event: 'resolved' });
    // The outbox sends in order: had the first alert been queued, its mails would be there already.
    const queued = await h.t.db
      .selectFrom('notification_outbox')
      .select('notification_id')
      .where('customer_id', '=', h.a.customerId)
      .execute();
    expect(queued.map((q) => q.notification_id.split(':')[0])).toEqual([
      String(rows[1]!.id),
      String(rows[1]!.id),
    ]);
    expect(cpuMails()).toHaveLength(2);
    expect(cpuMails()[0]!.text).toContain('92.5');
  });
});
