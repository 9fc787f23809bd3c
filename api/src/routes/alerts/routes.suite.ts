import { waitFor } from '@flightdeck/collector/testing';
import {
  AlertCountData,
  AlertHistoricData,
  AlertItem,
  AlertListData,
  AlterThresholdData,
  EmailIntegration,
  EmailIntegrationData,
  GetThresholdsServerData,
  ServerAlertHistoricData,
  Threshold,
} from '@flightdeck/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Engine } from '../../db/kysely';
import { createServer } from '../../db/queries/servers';
import { expectError, expectOk } from '../auth/test-app';
import { type AlertHarness, startAlertHarness } from './test-harness';

const ALERTS = '/services_monitored/alerts';

/** The row `read` finds, once it finds one. */
async function waitForRow<T>(read: () => Promise<T | undefined>): Promise<T> {
  let row: T | undefined;
  await waitFor(async () => {
    row = await read();
    return row !== undefined;
  }, 'a row');
  return row!;
}
const BASE_TS = 1_800_000_000_000;

/**
 * The alert slice end to end through `app.request()`, per metadata DB engine: thresholds set by
 * the calls reach the collector's alert engine over the bus, samples published on the bus cross
 * them, and the alert shows in the list, on the SSE stream and at a local SMTP server.
 */
export function alertRoutesSuite(engine: Engine, transport: 'in-process' | 'nats' = 'in-process') {
  describe(`alerts and thresholds on ${engine} over the ${transport} bus`, () => {
    let h: AlertHarness;
    let ts = BASE_TS;
    const next = (ms = 1_000) => {
      ts += ms;
      return ts;
    };

    async function threshold(body: object, token?: string) {
      const res = await h.call('POST', `${ALERTS}/defined_threshold`, body, token);
      const data = (await expectOk(res, Threshold)).data;
      await h.engine.refresh();
      return data;
    }
    const list = async (token?: string) =>
      (await expectOk(await h.call('GET', `${ALERTS}/list`, undefined, token), AlertListData)).data;
    const count = async (token?: string) =>
      (await expectOk(await h.call('GET', `${ALERTS}/count`, undefined, token), AlertCountData)).data;
    const mailsAbout = (word: string) => h.smtp.received.filter((m) => m.text.includes(word));

    beforeAll(async () => {
      h = await startAlertHarness(engine, transport);
      const res = await h.call('POST', '/integrations/integration/email/register', {
        address: 'Ops@Example.com',
      });
      expect((await expectOk(res, EmailIntegration)).data).toMatchObject({
        address: 'ops@example.com',
        status: 'enabled',
      });
    });
    afterAll(async () => {
      await h?.close();
    });

    it('raises an alert when a sample crosses a threshold, e-mails it, hides it when acknowledged and resolves it when the threshold is raised', async () => {
      const events = await h.openEvents();
      const th = await threshold({
        server_id: h.a.serverId,
        metric: 'cpu.total',
        operator: 'gt',
        yellow: 50,
        red: 80,
        recovery: 40,
      });
      expect(th).toMatchObject({
        type_id: 10,
        mode: 'defined',
        enabled: true,
        for_s: 0,
        server_id: h.a.serverId,
      });

      await h.publish('cpu.total', 91.5, next());
      await waitFor(
        () => events.alerts().some((e) => e.event === 'new'),
        'the new alert on the event stream',
      );
      const opened = events.alerts().find((e) => e.event === 'new')!;
      expect(opened).toMatchObject({
        tenant: String(h.a.customerId),
        alert: {
          server_id: h.a.serverId,
          type_id: 10,
          status: 'R',
          text: 'web-1: CPU at 91.5 %, above 80 %.',
        },
      });

      const groups = await list();
      expect(groups).toHaveLength(1);
      expect(groups[0]).toMatchObject({ server_id: h.a.serverId, server_name: 'web-1', status: 'R' });
      const item = groups[0]!.alerts[0]!;
      expect(item).toMatchObject({
        status: 'R',
        type: 10,
        event: 'new',
        acknowledged: false,
        metric: 'cpu.total',
      });
      expect(await count()).toEqual({ open: 1, unacknowledged: 1, acknowledged: 0, status: 'R' });

      await waitFor(() => mailsAbout('CPU at 91.5 %').length === 1, 'the alert e-mail');
      const mail = mailsAbout('CPU at 91.5 %')[0]!;
      expect(mail.to).toEqual(['ops@example.com']);
      expect(mail.text).toContain('http://flightdeck.test/flightdeck/services/');

      const ack = await h.call('POST', `${ALERTS}/set_acknowledge`, {
        historic_id: item.historic_id,
        hours: '2',
        comment: 'rebooting the box',
      });
      const acked = (await expectOk(ack, AlertItem)).data;
      expect(acked).toMatchObject({ acknowledged: true, ack_by: 'a', ack_comment: 'rebooting the box' });
      expect(acked.ack_until! - Math.floor(Date.now() / 1000)).toBeGreaterThan(7_190);
      await waitFor(
        () => events.alerts().some((e) => e.event === 'acknowledged'),
        'the acknowledgement event',
      );
      expect(await count()).toEqual({ open: 1, unacknowledged: 0, acknowledged: 1, status: 'G' });
      expect((await list())[0]).toMatchObject({ status: 'G', alerts: [{ acknowledged: true }] });

      // Raising the levels keeps the series' state; the next sample is below the new recovery level.
      const raised = await threshold({
        id: th.id,
        server_id: h.a.serverId,
        metric: 'cpu.total',
        operator: 'gt',
        yellow: 95,
        red: 99,
        recovery: 93,
      });
      expect(raised.id).toBe(th.id);
      await h.publish('cpu.total', 91.5, next());
      await waitFor(() => events.alerts().some((e) => e.event === 'resolved'), 'the resolution event');
      expect(await list()).toEqual([]);
      expect(await count()).toEqual({ open: 0, unacknowledged: 0, acknowledged: 0, status: 'G' });
      // An acknowledged alert that recovers is still told.
      await waitFor(
        () => h.smtp.received.filter((m) => m.subject.includes('CPU')).length === 2,
        'the resolution e-mail',
      );

      const history = await h.call('POST', `${ALERTS}/get_historic`, { start: 0, end: 4_000_000_000 });
      const rows = (await expectOk(history, AlertHistoricData)).data.filter((r) => r.metric === 'cpu.total');
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        historic_id: item.historic_id,
        status: 'R',
        event: 'resolved',
        ack_by: 'a',
        ack_comment: 'rebooting the box',
        notified: true,
        date_enter: Math.floor((ts - 1_000) / 1000),
        date_exit: Math.floor(ts / 1000),
      });
      const buckets = await h.call('POST', '/server/get_alert_historic', {
        server_id: h.a.serverId,
        start: Math.floor(BASE_TS / 1000) - 600,
        end: Math.floor(ts / 1000) + 600,
      });
      const grouped = (await expectOk(buckets, ServerAlertHistoricData)).data;
      expect(grouped.time_grouping).toBe(5);
      expect(grouped.rows).toContainEqual(expect.objectContaining({ alert_id: 10, status: 'R', count: 1 }));
      await events.close();
    });

    it('keeps open alerts, acknowledgements and running durations across a collector restart without telling anything twice', async () => {
      await threshold({ server_id: h.a.serverId, metric: 'cpu.iowait', operator: 'gt', yellow: 10 });
      await threshold({
        server_id: h.a.serverId,
        metric: 'cpu.system',
        operator: 'gt',
        yellow: 10,
        for_s: 60,
      });
      await h.publish('cpu.iowait', 42, next());
      await waitFor(() => mailsAbout('I/O wait at 42 %').length === 1, 'the I/O wait e-mail');
      const startedAt = next();
      await h.publish('cpu.system', 55, startedAt);
      await waitFor(async () => (await count()).open === 1, 'the I/O wait alert');
      const iowait = (await list())[0]!.alerts.find((a) => a.metric === 'cpu.iowait')!;
      await expectOk(
        await h.call('POST', `${ALERTS}/set_acknowledge`, { historic_id: iowait.historic_id, hours: 1 }),
        AlertItem,
      );
      // The running 60 s duration of cpu.system reaches the api with the next checkpoint.
      await h.engine.flush();
      await waitFor(
        async () => (await h.t.db.selectFrom('alert_rule_states').select('pending').execute()).length === 1,
        'the checkpoint of the running duration',
      );

      await h.restartEngine();
      const events = await h.openEvents();
      await h.publish('cpu.iowait', 43, next());
      // 61 s after the duration started (not after the restart): cpu.system is due now.
      await h.publish('cpu.system', 56, startedAt + 61_000);
      ts = startedAt + 61_000;
      await waitFor(() => events.alerts().some((e) => e.event === 'new'), 'the cpu.system alert');
      await h.engine.flush();
      const after = (await list())[0]!.alerts;
      expect(after.map((a) => a.metric).sort()).toEqual(['cpu.iowait', 'cpu.system']);
      expect(after.find((a) => a.metric === 'cpu.iowait')).toMatchObject({
        historic_id: iowait.historic_id,
        acknowledged: true,
        event: 'acknowledged',
      });
      // Only the new cpu.system alert was told after the restart; the I/O wait one was not raised again.
      expect(events.alerts().map((e) => [e.event, e.alert.type_id])).toEqual([['new', 10]]);
      await waitFor(
        () => h.smtp.received.some((m) => m.text.includes('CPU at 56 %')),
        'the cpu.system e-mail',
      );
      expect(mailsAbout('I/O wait').length).toBe(1);
      await events.close();
    });

    it('queues notifications while the SMTP server is down and sends each once when it is back', async () => {
      await h.smtp.stop();
      await threshold({ server_id: h.a.serverId, metric: 'cpu.steal', operator: 'gt', red: 5 });
      await h.publish('cpu.steal', 20, next());
      const history = await waitForRow(() =>
        h.t.db.selectFrom('alert_history').select('id').where('metric', '=', 'cpu.steal').executeTakeFirst(),
      );
      const outbox = () =>
        h.t.db
          .selectFrom('notification_outbox')
          .select(['state', 'attempts'])
          .where('notification_id', 'like', `${history.id}:new:%`)
          .execute();
      await waitFor(
        async () => (await outbox()).some((o) => o.state === 'pending' && o.attempts > 1),
        'failed delivery attempts',
      );
      const integration = await h.call('POST', '/integrations/integration/email/get_user_info', {});
      expect((await expectOk(integration, EmailIntegrationData)).data?.last_error).toMatch(/SMTP/);

      await h.smtp.start();
      await waitFor(() => mailsAbout('CPU at 20 %').length > 0, 'the queued e-mail', 10_000);
      // Long enough for a second, wrong delivery to show.
      await new Promise((r) => setTimeout(r, 500));
      expect((await outbox()).map((o) => o.state)).toEqual(['sent']);
      expect(mailsAbout('CPU at 20 %').length).toBe(1);
      const after = await h.call('POST', '/integrations/integration/email/get_user_info', {});
      expect((await expectOk(after, EmailIntegrationData)).data).toMatchObject({ last_error: null });
    });

    it('evaluates an all-servers threshold everywhere but on a server with its own', async () => {
      const other = await createServer(h.t.db, h.a.customerId, { host_key: 'web-2', hostname: 'web-2' });
      const all = await threshold({ server_id: null, metric: 'cpu.user', operator: 'gt', yellow: 50 });
      const own = await threshold({
        server_id: h.a.serverId,
        metric: 'cpu.user',
        operator: 'gt',
        yellow: 95,
      });
      const res = await h.call('POST', '/server/get_thresholds_server', { server_id: h.a.serverId });
      const applying = (await expectOk(res, GetThresholdsServerData)).data.thresholds.filter(
        (x) => x.metric === 'cpu.user',
      );
      expect(applying.map((x) => [x.id, x.shadowed])).toEqual([
        [own.id, false],
        [all.id, true],
      ]);
      await h.publish('cpu.user', 80, next(), 'web-1');
      await h.publish('cpu.user', 80, next(), 'web-2');
      await waitFor(async () => (await list()).some((g) => g.server_id === other.id), 'the alert on web-2');
      await h.engine.flush();
      const web1 = (await list()).find((g) => g.server_id === h.a.serverId)!;
      expect(web1.alerts.flatMap((a) => [a, ...a.alerts]).some((a) => a.metric === 'cpu.user')).toBe(false);

      // Disabling resolves its open alerts at once; removing deletes it.
      const off = await h.call('POST', `${ALERTS}/alter_threshold`, { id: all.id, action: 'disable' });
      expect((await expectOk(off, AlterThresholdData)).data).toMatchObject({ id: all.id, enabled: false });
      expect((await list()).some((g) => g.server_id === other.id)).toBe(false);
      const removed = await h.call('POST', `${ALERTS}/alter_threshold`, { id: all.id, action: 'remove' });
      expect((await expectOk(removed, AlterThresholdData)).data).toEqual({ id: all.id, removed: true });
      await expectError(
        await h.call('POST', `${ALERTS}/alter_threshold`, { id: all.id, action: 'enable' }),
        404,
        'not_found',
      );
    });

    it('keeps customers apart and checks every body', async () => {
      await expectError(
        await h.call('POST', `${ALERTS}/defined_threshold`, { metric: 'cpu.nope', operator: 'gt', red: 1 }),
        400,
        'validation_failed',
      );
      const inverted = await expectError(
        await h.call('POST', `${ALERTS}/defined_threshold`, {
          metric: 'cpu.total',
          operator: 'gt',
          yellow: 90,
          red: 80,
        }),
        400,
        'validation_failed',
      );
      expect(inverted.message).toMatch(/^red: /);
      await expectError(
        await h.call('POST', `${ALERTS}/set_acknowledge`, { historic_id: 1, hours: 3 }),
        400,
        'validation_failed',
      );
      // b's plan has no thresholds page; its lists hold none of a's alerts; a's ids are not found.
      await expectError(
        await h.call(
          'POST',
          `${ALERTS}/defined_threshold`,
          { metric: 'cpu.total', operator: 'gt', red: 1 },
          h.b.token,
        ),
        403,
        'plan_gated',
      );
      expect((await list()).length).toBeGreaterThan(0);
      expect(await list(h.b.token)).toEqual([]);
      const open = (await list())[0]!.alerts[0]!;
      await expectError(
        await h.call(
          'POST',
          `${ALERTS}/set_acknowledge`,
          { historic_id: open.historic_id, hours: 1 },
          h.b.token,
        ),
        404,
        'not_found',
      );
      await expectError(
        await h.call(
          'POST',
          '/server/get_alert_historic',
          { server_id: h.a.serverId, start: 0, end: 1 },
          h.b.token,
        ),
        404,
        'not_found',
      );
      const none = await h.call(
        'POST',
        `${ALERTS}/get_historic`,
        { start: 0, end: 4_000_000_000 },
        h.b.token,
      );
      expect((await expectOk(none, AlertHistoricData)).data).toEqual([]);
      // A sample of b's host with the same host key raises nothing for b.
      await h.publish('cpu.total', 99, next(), h.b.hostKey, String(h.b.customerId));
      await h.engine.flush();
      expect(await count(h.b.token)).toMatchObject({ open: 0 });
      const removed = await h.call('POST', '/integrations/integration/email/remove', {}, h.b.token);
      await expectError(removed, 404, 'not_found');
      const gone = await h.call('POST', '/integrations/integration/email/get_user_info', {}, h.b.token);
      expect((await expectOk(gone, EmailIntegrationData)).data).toBeNull();
      expect(
        z.array(z.unknown()).parse(h.smtp.received.filter((m) => m.to.includes('b@example.com'))),
      ).toEqual([]);
    });
  });
}
