import type { MetricBatch } from '@flightdeck/schemas';
import { GetDynamicBandData, Threshold } from '@flightdeck/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../db/kysely';
import { expectError, expectOk } from '../auth/test-app';
import { type AlertHarness, startAlertHarness } from './test-harness';
import { collectorRules } from './thresholds';

const ALERTS = '/services_monitored/alerts';
const HOUR_MS = 3_600_000;
const STEP_MS = 300_000;

/** The seasonal series: a daily sine around 50 %, highest at 06:00 UTC. */
const seasonal = (ts: number) => 50 + 30 * Math.sin((2 * Math.PI * (ts % 86_400_000)) / 86_400_000);

/**
 * Dynamic bands and dynamic-threshold changes, per metadata DB engine: the series are written to
 * the metric store through its API, and the band comes back learnt from them.
 */
export function dynamicThresholdSuite(engine: Engine) {
  describe(`dynamic bands and dynamic-threshold changes on ${engine}`, () => {
    let h: AlertHarness;
    let seasonalId: number;
    let youngId: number;
    let definedId: number;
    const now = Math.floor(Date.now() / STEP_MS) * STEP_MS;

    async function write(metric: string, from: number, to: number, value: (ts: number) => number) {
      const batches: MetricBatch[] = [];
      for (let ts = from; ts < to; ts += STEP_MS) {
        batches.push({
          v: 1,
          tenant: String(h.a.customerId),
          host: h.a.hostKey,
          source: 'agent',
          ts,
          samples: [{ m: metric, v: value(ts) }],
        });
      }
      for (let i = 0; i < batches.length; i += 200) await h.store.write(batches.slice(i, i + 200));
    }

    async function dynamic(metric: string) {
      const res = await h.call('POST', `${ALERTS}/dynamic_threshold`, {
        server_id: h.a.serverId,
        metric,
        sensitivity: 3,
      });
      return (await expectOk(res, Threshold)).data.id;
    }

    const bandOf = async (body: object) =>
      (await expectOk(await h.call('POST', `${ALERTS}/get_dynamic_band`, body), GetDynamicBandData)).data;

    beforeAll(async () => {
      h = await startAlertHarness(engine);
      await write('cpu.user', now - 3 * 24 * HOUR_MS, now, seasonal);
      await write('cpu.system', now - 12 * HOUR_MS, now, () => 10);
      seasonalId = await dynamic('cpu.user');
      youngId = await dynamic('cpu.system');
      const res = await h.call('POST', `${ALERTS}/defined_threshold`, {
        server_id: h.a.serverId,
        metric: 'cpu.total',
        operator: 'gt',
        yellow: 80,
        red: 90,
      });
      definedId = (await expectOk(res, Threshold)).data.id;
    });
    afterAll(async () => {
      await h?.close();
    });

    it('draws the band of a series with 3 days of history, its median following the time of day', async () => {
      const end = Math.floor(now / 1000);
      const start = end - 24 * 3600;
      const data = await bandOf({ threshold_id: seasonalId, server_id: h.a.serverId, start, end });
      expect(data).toMatchObject({ armed: true, algorithm: 'seasonal-median-mad', sensitivity: 3 });
      expect(data.points).toBe(3 * 288);
      expect(data.x.length).toBeGreaterThanOrEqual(24);
      expect(data.x[0]! % 3600).toBe(0);
      // One cycle of each hour of the week in 3 days: the hour of the day stands in.
      expect(new Set(data.season)).toEqual(new Set(['hour_of_day']));
      for (let i = 0; i < data.x.length; i++) {
        // The hour's 12 five-minute averages have their median between its 25th and 30th minute.
        const mid = data.x[i]! * 1000 + 27.5 * 60_000;
        expect(Math.abs(data.median[i]! - seasonal(mid)), `hour ${data.season_key[i]}`).toBeLessThan(1.5);
        expect(data.lower[i]!).toBeLessThan(data.median[i]!);
        expect(data.upper[i]! - data.median[i]!).toBeCloseTo(data.median[i]! - data.lower[i]!, 6);
        expect(data.season_key[i]).toBe(String(new Date(data.x[i]! * 1000).getUTCHours()).padStart(2, '0'));
      }
      const at6 = data.x.findIndex((x) => new Date(x * 1000).getUTCHours() === 6);
      const at18 = data.x.findIndex((x) => new Date(x * 1000).getUTCHours() === 18);
      expect(data.median[at6]! - data.median[at18]!).toBeGreaterThan(50);
    });

    it('answers a band that is not armed, without points, while the history spans under 24 h', async () => {
      const end = Math.floor(now / 1000);
      const data = await bandOf({
        threshold_id: youngId,
        server_id: h.a.serverId,
        start: end - 3600 * 6,
        end,
      });
      expect(data.armed).toBe(false);
      expect(data.points).toBe(144);
      expect(data.x).toEqual([]);
      expect(data.median).toEqual([]);
    });

    it("answers 404 for another customer's server or an unknown threshold, 400 for a defined one", async () => {
      const end = Math.floor(now / 1000);
      const range = { start: end - 3600, end };
      await expectError(
        await h.call('POST', `${ALERTS}/get_dynamic_band`, {
          threshold_id: seasonalId,
          server_id: h.b.serverId,
          ...range,
        }),
        404,
        'not_found',
      );
      await expectError(
        await h.call('POST', `${ALERTS}/get_dynamic_band`, {
          threshold_id: 999_999,
          server_id: h.a.serverId,
          ...range,
        }),
        404,
        'not_found',
      );
      const body = await expectError(
        await h.call('POST', `${ALERTS}/get_dynamic_band`, {
          threshold_id: definedId,
          server_id: h.a.serverId,
          ...range,
        }),
        400,
        'validation_failed',
      );
      expect(body.message).toContain('fixed levels');
      const reversed = await expectError(
        await h.call('POST', `${ALERTS}/get_dynamic_band`, {
          threshold_id: seasonalId,
          server_id: h.a.serverId,
          start: end,
          end: end - 3600,
        }),
        400,
        'validation_failed',
      );
      expect(reversed.message).toContain('the end must be after the start');
    });

    it('changes a dynamic threshold and the change reaches the collectors', async () => {
      await h.engine.refresh();
      const versionBefore = h.engine.stats().rules_version;
      const res = await h.call('POST', `${ALERTS}/change_alert_dynamic_tresholds`, {
        id: seasonalId,
        sensitivity: 4.5,
        direction: 'below',
        for_s: 600,
      });
      expect((await expectOk(res, Threshold)).data).toMatchObject({
        id: seasonalId,
        mode: 'dynamic',
        sensitivity: 4.5,
        direction: 'below',
        operator: 'lt',
        for_s: 600,
        enabled: true,
      });
      await h.engine.refresh();
      expect(h.engine.stats().rules_version).not.toBe(versionBefore);
      const rule = (await collectorRules(h.t.db)).find((r) => r.id === seasonalId);
      expect(rule).toMatchObject({ sensitivity: 4.5, direction: 'below', for_ms: 600_000 });

      const end = Math.floor(now / 1000);
      const data = await bandOf({
        threshold_id: seasonalId,
        server_id: h.a.serverId,
        start: end - 3600,
        end,
      });
      expect(data).toMatchObject({ sensitivity: 4.5, direction: 'below' });

      const off = await h.call('POST', `${ALERTS}/change_alert_dynamic_tresholds`, {
        id: seasonalId,
        enabled: false,
      });
      expect((await expectOk(off, Threshold)).data).toMatchObject({ enabled: false, sensitivity: 4.5 });
      expect((await collectorRules(h.t.db)).some((r) => r.id === seasonalId)).toBe(false);
    });

    it('refuses changes a person can correct, naming what to fix', async () => {
      const call = (body: object) => h.call('POST', `${ALERTS}/change_alert_dynamic_tresholds`, body);
      const tooHigh = await expectError(
        await call({ id: youngId, sensitivity: 20 }),
        400,
        'validation_failed',
      );
      expect(tooHigh.message).toContain('the sensitivity must be at most 10');
      const nothing = await expectError(await call({ id: youngId }), 400, 'validation_failed');
      expect(nothing.message).toContain('give at least one of');
      const defined = await expectError(
        await call({ id: definedId, sensitivity: 2 }),
        400,
        'validation_failed',
      );
      expect(defined.message).toContain('defined_threshold');
      await expectError(await call({ id: 999_999, sensitivity: 2 }), 404, 'not_found');
      await expectError(
        await h.call(
          'POST',
          `${ALERTS}/change_alert_dynamic_tresholds`,
          { id: youngId, sensitivity: 2 },
          h.b.token,
        ),
        403,
        'plan_gated',
      );
    });
  });
}
