import {
  AlertGetData,
  AlertGetNameData,
  AlertHistoricData,
  AlertInfoData,
  AlertListTypesData,
  MttxHistoricData,
} from '@flightdeck/schemas';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../db/kysely';
import { expectError, expectOk } from '../auth/test-app';
import { createAlertCore } from './book';
import { type AlertHarness, startAlertHarness, type TestCustomer } from './test-harness';

const ALERTS = '/services_monitored/alerts';
const DAY = 86_400;
/** Midnight UTC of the seeded history's first day. */
const D0 = 1_800_057_600;

/**
 * The alert calls that read the catalogue, one alert, one occurrence, a range of occurrences and
 * the MTTA/MTTR figures, per metadata DB engine, on history written straight to the tables.
 */
export function alertCallsSuite(engine: Engine) {
  describe(`alert calls and MTTA/MTTR on ${engine}`, () => {
    let h: AlertHarness;
    let thresholdId: number;

    async function seedOccurrence(
      who: TestCustomer,
      o: { enter: number; exit?: number; ackAt?: number; type?: number; text?: string },
    ): Promise<number> {
      const row = await h.t.db
        .insertInto('alert_history')
        .values({
          customer_id: who.customerId,
          server_id: who.serverId,
          threshold_id: thresholdId,
          alert_id: null,
          host_key: who.hostKey,
          service: '',
          metric: 'cpu.total',
          labels: '',
          type_id: o.type ?? 10,
          level: 'R',
          last_level: 'R',
          event: o.exit === undefined ? 'new' : 'resolved',
          text: o.text ?? 'web-1: CPU at 91.5 %, above 80 %.',
          value: 91.5,
          date_enter: o.enter,
          date_exit: o.exit ?? null,
          acknowledged_at: o.ackAt ?? null,
          notified: 1,
          quiet: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    }

    /** An open alert of `who` (its history row and its `alerts` row), opened at `enter`. */
    async function seedOpen(who: TestCustomer, enter: number) {
      const historicId = await seedOccurrence(who, { enter });
      const alert = await h.t.db
        .insertInto('alerts')
        .values({
          customer_id: who.customerId,
          server_id: who.serverId,
          threshold_id: thresholdId,
          historic_id: historicId,
          host_key: who.hostKey,
          service: '',
          metric: 'cpu.total',
          labels: '',
          type_id: 10,
          level: 'R',
          event: 'new',
          text: 'web-1: CPU at 91.5 %, above 80 %.',
          value: 91.5,
          entered_at_ms: enter * 1000,
          changed_at_ms: enter * 1000,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await h.t.db
        .updateTable('alert_history')
        .set({ alert_id: alert.id })
        .where('id', '=', historicId)
        .execute();
      return { alertId: alert.id, historicId };
    }

    beforeAll(async () => {
      h = await startAlertHarness(engine);
      const th = await h.t.db
        .insertInto('alert_thresholds')
        .values({
          customer_id: h.a.customerId,
          server_id: h.a.serverId,
          service: '',
          metric: 'cpu.total',
          labels: '',
          scope_key: `${h.a.serverId}|cpu.total|calls`,
          mode: 'defined',
          operator: 'gt',
          yellow: 50,
          red: 80,
          recovery: null,
          for_s: 0,
          type_id: 10,
          enabled: 1,
          created_at: D0,
          updated_at_ms: D0 * 1000,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      thresholdId = th.id;
    });
    afterAll(async () => {
      await h?.close();
    });

    it('lists the 49 alert types in the user language with their default severity', async () => {
      const en = (await expectOk(await h.call('POST', '/alert/list_types', {}), AlertListTypesData)).data;
      expect(en).toHaveLength(49);
      expect(en[0]).toMatchObject({
        id: 1,
        code: 'server_unreachable',
        title: 'Server unreachable',
        severity: 'R',
      });
      await h.t.db.updateTable('users').set({ locale: 'es' }).where('id', '=', h.b.userId).execute();
      const es = (
        await expectOk(await h.call('POST', '/alert/list_types', {}, h.b.token), AlertListTypesData)
      ).data;
      expect(es[0]!.title).not.toBe('Server unreachable');
      const name = await h.call('POST', `${ALERTS}/get_name`, { type_id: 1 }, h.b.token);
      expect((await expectOk(name, AlertGetNameData)).data).toEqual({
        type_id: 1,
        code: 'server_unreachable',
        name: es[0]!.title,
      });
      await expectError(
        await h.call('POST', `${ALERTS}/get_name`, { type_id: 50 }),
        400,
        'validation_failed',
      );
    });

    it('answers one open alert and one occurrence with its threshold, and 404 for another customer', async () => {
      const { alertId, historicId } = await seedOpen(h.a, D0 + 100);
      const got = (await expectOk(await h.call('POST', `${ALERTS}/get`, { id: alertId }), AlertGetData)).data;
      expect(got).toMatchObject({
        server_id: h.a.serverId,
        server_name: 'web-1',
        alert: { id: alertId, historic_id: historicId, status: 'R', type: 10, date_enter: D0 + 100 },
      });
      const info = (
        await expectOk(await h.call('POST', '/alert/get_info', { historic_id: historicId }), AlertInfoData)
      ).data;
      expect(info).toMatchObject({
        open: true,
        quiet: null,
        acknowledged_at: null,
        occurrence: { historic_id: historicId, alert_id: alertId, date_exit: null },
        threshold: { id: thresholdId, metric: 'cpu.total', red: 80, mode: 'defined' },
      });
      await expectError(await h.call('POST', `${ALERTS}/get`, { id: alertId }, h.b.token), 404, 'not_found');
      await expectError(
        await h.call('POST', '/alert/get_info', { historic_id: historicId }, h.b.token),
        404,
        'not_found',
      );
      await h.t.db.deleteFrom('alerts').where('id', '=', alertId).execute();
      await h.t.db.deleteFrom('alert_history').where('id', '=', historicId).execute();
    });

    it('lists occurrences of a range filtered by server and type, and 404 for another customer server', async () => {
      const cpu = await seedOccurrence(h.a, { enter: D0 + 10 * DAY, exit: D0 + 10 * DAY + 60 });
      const disk = await seedOccurrence(h.a, { enter: D0 + 10 * DAY + 5, exit: D0 + 10 * DAY + 90, type: 5 });
      await seedOccurrence(h.b, { enter: D0 + 10 * DAY + 7, exit: D0 + 10 * DAY + 90 });
      const range = { start: D0 + 10 * DAY, end: D0 + 11 * DAY };
      const all = (await expectOk(await h.call('POST', '/alert/get_alert_history', range), AlertHistoricData))
        .data;
      expect(all.map((r) => r.historic_id)).toEqual([disk, cpu]);
      const typed = await h.call('POST', '/alert/get_alert_history', {
        ...range,
        server_id: h.a.serverId,
        type_id: 5,
      });
      expect((await expectOk(typed, AlertHistoricData)).data.map((r) => r.historic_id)).toEqual([disk]);
      await expectError(
        await h.call('POST', '/alert/get_alert_history', { ...range, server_id: h.b.serverId }),
        404,
        'not_found',
      );
    });

    it('measures MTTA from the first acknowledgement and MTTR per day and overall', async () => {
      const start = D0 + 20 * DAY;
      // Day 1: resolved after 600 s and acknowledged after 120 s; resolved after 1800 s, never acknowledged.
      await seedOccurrence(h.a, { enter: start + 3600, exit: start + 4200, ackAt: start + 3720 });
      await seedOccurrence(h.a, { enter: start + 7200, exit: start + 9000 });
      // Day 2: still open, acknowledged through the alert service with its clock at 300 s after opening.
      const open = await seedOpen(h.a, start + DAY + 60);
      let clock = (start + DAY + 360) * 1000;
      const core = createAlertCore({
        db: h.t.db,
        bus: h.bus,
        logger: pino({ level: 'silent' }),
        queue: null,
        publicUrl: 'http://flightdeck.test',
        now: () => clock,
      });
      const ack = {
        customerId: h.a.customerId,
        userId: h.a.userId,
        userName: 'a',
        historicId: open.historicId,
      };
      await core.acknowledge({ ...ack, hours: 1, comment: null });
      // A later acknowledgement keeps the first time.
      clock += 900_000;
      await core.acknowledge({ ...ack, hours: 2, comment: 'still on it' });
      // Another customer's occurrence on the same day is not counted.
      await seedOccurrence(h.b, { enter: start + 3600, exit: start + 99_999, ackAt: start + 9_999 });

      const q = `start=${start}&end=${start + 3 * DAY}`;
      const res = await h.call('GET', `/services_monitored/mttx/historic?${q}`);
      const data = (await expectOk(res, MttxHistoricData)).data;
      expect(data.days).toEqual([
        { day: start, opened: 2, acknowledged: 1, resolved: 2, mtta_s: 120, mttr_s: 1200 },
        { day: start + DAY, opened: 1, acknowledged: 1, resolved: 0, mtta_s: 300, mttr_s: null },
      ]);
      expect(data.overall).toEqual({ opened: 3, acknowledged: 2, resolved: 2, mtta_s: 210, mttr_s: 1200 });
      const one = await h.call('GET', `/services_monitored/mttx/historic?${q}&server_id=${h.a.serverId}`);
      expect((await expectOk(one, MttxHistoricData)).data.overall.opened).toBe(3);
      await expectError(
        await h.call('GET', `/services_monitored/mttx/historic?${q}&server_id=${h.b.serverId}`),
        404,
        'not_found',
      );
      await expectError(
        await h.call('GET', `/services_monitored/mttx/historic?start=0&end=${400 * DAY}`),
        400,
        'validation_failed',
      );
    });
  });
}
