import { band, learnRuleSeries } from '@flightdeck/collector/alerts';
import {
  ChangeAlertDynamicThresholdsRequest,
  type DynamicThresholdDirection,
  type GetDynamicBandData,
  GetDynamicBandRequest,
  type Labels,
  type OkEnvelope,
  type Threshold,
} from '@flightdeck/schemas';
import { Hono } from 'hono';
import { requireSession } from '../../auth/middleware';
import type { AlertThresholdRow } from '../../db/types';
import type { AppDeps, AppEnv } from '../../env';
import { ApiError } from '../../errors';
import { jsonBody } from '../../http/body';
import { requireResource } from '../../plans/guards';
import { serverOr404 } from '../servers/shared';
import { labelsText, nextStamp, thresholdOr404, toThreshold } from './thresholds';

const ALERTS = '/services_monitored/alerts';
const HOUR_S = 3600;

function ok<T>(data: T): OkEnvelope<T> {
  return { status: 'ok', data };
}

function dynamicOr400(row: AlertThresholdRow): void {
  if (row.mode !== 'dynamic') {
    throw ApiError.of(
      'validation_failed',
      `Threshold ${row.id} has fixed levels, not a learnt band; change it with defined_threshold.`,
    );
  }
}

/** Unix seconds of every hour that starts within [start, end], the first one at or before start. */
export function bandTimes(start: number, end: number): number[] {
  const out: number[] = [];
  for (let x = Math.floor(start / HOUR_S) * HOUR_S; x <= end; x += HOUR_S) out.push(x);
  return out;
}

/**
 * The dynamic-threshold calls beside `dynamic_threshold`: the band of a threshold on one of its
 * servers, learnt from the metric store with the collectors' own model code, and changes to a
 * dynamic threshold's settings. Both need a session and the plan resource of the thresholds page.
 */
export function dynamicThresholdRoutes(
  deps: AppDeps,
  thresholdsResource: string,
  /** Resolves what a change leaves behind and tells the collectors (routes.ts `afterSave`). */
  afterChange: (row: AlertThresholdRow, before: AlertThresholdRow) => Promise<void>,
) {
  const { db, store } = deps;
  const session = requireSession(db);
  const thresholdsPlan = requireResource(db, thresholdsResource);

  return new Hono<AppEnv>()
    .post(
      `${ALERTS}/get_dynamic_band`,
      session,
      thresholdsPlan,
      jsonBody(GetDynamicBandRequest),
      async (c) => {
        const { customerId } = c.get('session');
        const req = c.req.valid('json');
        const row = await thresholdOr404(db, customerId, req.threshold_id);
        const server = await serverOr404(db, customerId, req.server_id);
        if (row.server_id !== null && row.server_id !== server.id) {
          throw ApiError.of('not_found', `Threshold ${row.id} does not watch this server.`);
        }
        dynamicOr400(row);
        const labels = row.labels === '' ? null : (JSON.parse(row.labels) as Labels);
        const learnt = await learnRuleSeries(
          store,
          {
            id: row.id,
            tenant: String(customerId),
            host: server.host_key,
            service: row.service === '' ? null : row.service,
            metric: row.metric,
            labels,
          },
          Date.now(),
        );
        // Labels select supersets: the series with exactly the threshold's labels, else the first.
        const own = labelsText(labels);
        const series = learnt.find((s) => s.labels === own) ?? learnt[0];
        const model = series?.model;
        const sensitivity = row.sensitivity ?? 3;
        const data: GetDynamicBandData = {
          threshold_id: row.id,
          server_id: server.id,
          metric: row.metric,
          algorithm: model?.algorithm ?? 'seasonal-median-mad',
          armed: model?.armed ?? false,
          sensitivity,
          direction: (row.direction ?? 'above') as DynamicThresholdDirection,
          learnt_from: model && model.points > 0 ? Math.floor(model.from / 1000) : null,
          learnt_to: model && model.points > 0 ? Math.floor(model.to / 1000) : null,
          points: model?.points ?? 0,
          x: [],
          lower: [],
          median: [],
          upper: [],
          season: [],
          season_key: [],
        };
        if (model?.armed) {
          for (const x of bandTimes(req.start, req.end)) {
            const b = band(model, x * 1000, { sensitivity });
            if (!b) continue;
            data.x.push(x);
            data.lower.push(b.lower);
            data.median.push(b.median);
            data.upper.push(b.upper);
            data.season.push(b.season);
            data.season_key.push(b.season_key);
          }
        }
        return c.json(ok(data));
      },
    )
    .post(
      `${ALERTS}/change_alert_dynamic_tresholds`,
      session,
      thresholdsPlan,
      jsonBody(ChangeAlertDynamicThresholdsRequest),
      async (c) => {
        const { customerId } = c.get('session');
        const req = c.req.valid('json');
        const before = await thresholdOr404(db, customerId, req.id);
        dynamicOr400(before);
        const direction = req.direction ?? before.direction ?? 'above';
        const updated = await db
          .updateTable('alert_thresholds')
          .set({
            ...(req.sensitivity !== undefined ? { sensitivity: req.sensitivity } : {}),
            ...(req.direction !== undefined
              ? { direction, operator: direction === 'below' ? 'lt' : 'gt' }
              : {}),
            ...(req.for_s !== undefined ? { for_s: req.for_s } : {}),
            ...(req.enabled !== undefined ? { enabled: req.enabled ? 1 : 0 } : {}),
            updated_at_ms: await nextStamp(db, Date.now()),
          })
          .where('customer_id', '=', customerId)
          .where('id', '=', req.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        await afterChange(updated, before);
        return c.json(ok<Threshold>(toThreshold(updated)));
      },
    );
}
