import { ALERTS_WORKER } from '@flightdeck/collector';
import {
  AlertHistoricData,
  AlertInfoData,
  AlertListData,
  type CommandReply,
  type DynamicReason,
  Threshold,
  type WireRuleTransition,
} from '@flightdeck/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../db/kysely';
import { expectOk } from '../auth/test-app';
import { type AlertHarness, startAlertHarness } from './test-harness';

const ALERTS = '/services_monitored/alerts';

const yellowReason: DynamicReason = {
  algorithm: 'seasonal-median-mad',
  band: { lower: 40.5, median: 50, upper: 59.5 },
  season: 'hour_of_day',
  season_key: '14',
  score: 3.4,
};
const redReason: DynamicReason = {
  algorithm: 'seasonal-median-mad',
  band: { lower: 41, median: 50.25, upper: 59.5 },
  season: 'hour_of_week',
  season_key: 'mon-14',
  score: 7.9,
};

/**
 * Why a dynamic alert fired, per metadata DB engine: level changes sent to the api's alert worker
 * on the bus as a collector sends them, and the reason read back from the open alerts, the
 * history and one occurrence.
 */
export function dynamicReasonSuite(engine: Engine) {
  describe(`why a dynamic alert fired on ${engine}`, () => {
    let h: AlertHarness;
    let dynamicId: number;
    let definedId: number;
    let seq = 0;
    const now = Date.now();

    async function send(transitions: object[]): Promise<CommandReply> {
      return h.bus.request(ALERTS_WORKER, {
        v: 1,
        id: `test-col-${++seq}`,
        tenant: '_system',
        command: 'alert_transitions',
        params: { collector_id: 'test-col', transitions },
        deadline: Date.now() + 10_000,
      });
    }

    const transition = (over: Partial<WireRuleTransition>): WireRuleTransition => ({
      rule_id: dynamicId,
      tenant: String(h.a.customerId),
      host: h.a.hostKey,
      service: '',
      metric: 'cpu.user',
      labels: '',
      from: 'G',
      to: 'Y',
      value: 63,
      ts: now,
      ...over,
    });

    beforeAll(async () => {
      h = await startAlertHarness(engine);
      let res = await h.call('POST', `${ALERTS}/dynamic_threshold`, {
        server_id: h.a.serverId,
        metric: 'cpu.user',
        sensitivity: 3,
      });
      dynamicId = (await expectOk(res, Threshold)).data.id;
      res = await h.call('POST', `${ALERTS}/defined_threshold`, {
        server_id: h.a.serverId,
        metric: 'cpu.total',
        operator: 'gt',
        yellow: 80,
        red: 90,
      });
      definedId = (await expectOk(res, Threshold)).data.id;

      // The dynamic alert opens yellow and turns red; the defined one opens red. A reason sent
      // with a defined threshold's change is not kept.
      expect(await send([transition({ dynamic: yellowReason })])).toMatchObject({
        status: 'ok',
        data: { applied: 1 },
      });
      expect(
        await send([
          transition({ from: 'Y', to: 'R', value: 91, ts: now + 60_000, dynamic: redReason }),
          transition({ rule_id: definedId, metric: 'cpu.total', to: 'R', value: 95, dynamic: yellowReason }),
        ]),
      ).toMatchObject({ status: 'ok', data: { applied: 2 } });
    });
    afterAll(async () => {
      await h?.close();
    });

    it('refuses a reason that is not well formed, and applies nothing of that message', async () => {
      const reply = await send([
        transition({ dynamic: { ...redReason, season: 'hour_of_month' } as unknown as DynamicReason }),
      ]);
      expect(reply.status).toBe('error');
      expect(reply.message).toContain('season');
    });

    it('lists the open dynamic alert with the latest reason, and a defined one with none', async () => {
      const data = (await expectOk(await h.call('GET', `${ALERTS}/list`), AlertListData)).data;
      const items = data.flatMap((g) => [...g.alerts, ...g.alerts.flatMap((a) => a.alerts)]);
      const dyn = items.find((a) => a.metric === 'cpu.user');
      expect(dyn).toMatchObject({ status: 'R', value: 91, dynamic: redReason });
      // The text names the bound crossed and ends with the band and the score.
      expect(dyn!.alert_text).toContain('59.5 %');
      expect(dyn!.alert_text).not.toContain('{threshold}');
      expect(dyn!.alert_text).toMatch(/ Outside its usual band 41 %–59\.5 % \(score 7\.9\)\.$/);
      expect(items.find((a) => a.metric === 'cpu.total')!.alert_text).not.toContain('usual band');
      expect(items.find((a) => a.metric === 'cpu.total')).toMatchObject({ status: 'R', dynamic: null });
    });

    it('returns the reason with each occurrence of the history and with one occurrence', async () => {
      const start = Math.floor(now / 1000) - 60;
      const res = await h.call('POST', `${ALERTS}/get_historic`, { start, end: start + 3_600 });
      const rows = (await expectOk(res, AlertHistoricData)).data;
      const dyn = rows.find((r) => r.metric === 'cpu.user')!;
      expect(dyn).toMatchObject({ status: 'R', event: 'updated', dynamic: redReason });
      expect(rows.find((r) => r.metric === 'cpu.total')).toMatchObject({ dynamic: null });

      const info = await h.call('POST', '/alert/get_info', { historic_id: dyn.historic_id });
      const occurrence = (await expectOk(info, AlertInfoData)).data.occurrence;
      expect(occurrence.dynamic).toEqual(redReason);
    });

    it('keeps the reason on the occurrence once the alert resolves', async () => {
      expect(await send([transition({ from: 'R', to: 'G', value: 50, ts: now + 120_000 })])).toMatchObject({
        status: 'ok',
        data: { applied: 1 },
      });
      const start = Math.floor(now / 1000) - 60;
      const res = await h.call('POST', `${ALERTS}/get_historic`, { start, end: start + 3_600 });
      const dyn = (await expectOk(res, AlertHistoricData)).data.find((r) => r.metric === 'cpu.user');
      expect(dyn).toMatchObject({ event: 'resolved', dynamic: redReason });
    });
  });
}
