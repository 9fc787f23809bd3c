import {
  ALERT_TYPE_TEXTS,
  ALERT_TYPES,
  AlertGetAlertHistoryRequest,
  type AlertGetData,
  type AlertGetNameData,
  AlertGetNameRequest,
  AlertGetRequest,
  type AlertHistoryRow,
  type AlertInfoData,
  AlertInfoRequest,
  type AlertListTypesData,
  AlertListTypesRequest,
  type OkEnvelope,
  UserLocale,
} from '@flightdeck/schemas';
import { Hono } from 'hono';
import { requireSession } from '../../auth/middleware';
import { unixNow } from '../../clock';
import type { Db } from '../../db/kysely';
import type { AppDeps, AppEnv } from '../../env';
import { ApiError } from '../../errors';
import { jsonBody } from '../../http/body';
import { serverOr404 } from '../servers/shared';
import { alertHistory, toAlertItem, toHistoryRow } from './queries';
import { toThreshold } from './thresholds';

const ALERTS = '/services_monitored/alerts';

function ok<T>(data: T): OkEnvelope<T> {
  return { status: 'ok', data };
}

/** The session user's language; a stored value outside the supported ones reads as English. */
async function userLocale(db: Db, customerId: number, userId: number): Promise<UserLocale> {
  const user = await db
    .selectFrom('users')
    .select('locale')
    .where('customer_id', '=', customerId)
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user) throw ApiError.of('unauthorized');
  const parsed = UserLocale.safeParse(user.locale);
  return parsed.success ? parsed.data : 'en';
}

/**
 * The read-only alert calls of spec section 7: the alert-type catalogue (`/alert/list_types`,
 * `alerts/get_name`), one open alert (`alerts/get`), one occurrence with its threshold
 * (`/alert/get_info`) and the occurrences of a range (`/alert/get_alert_history`). Each needs a
 * session and sees only its customer's rows: another customer's id answers 404.
 */
export function alertCallRoutes(deps: AppDeps) {
  const { db } = deps;
  const session = requireSession(db);

  return new Hono<AppEnv>()
    .post('/alert/list_types', session, jsonBody(AlertListTypesRequest), async (c) => {
      const { customerId, userId } = c.get('session');
      const locale = await userLocale(db, customerId, userId);
      const data: AlertListTypesData = ALERT_TYPES.map((t) => ({
        id: t.id,
        code: t.code,
        title: ALERT_TYPE_TEXTS[t.code][locale].title,
        message: ALERT_TYPE_TEXTS[t.code][locale].message,
        severity: t.severity,
        category: t.category,
        metrics: [...t.metrics],
      }));
      return c.json(ok(data));
    })
    .post(`${ALERTS}/get_name`, session, jsonBody(AlertGetNameRequest), async (c) => {
      const { customerId, userId } = c.get('session');
      const { type_id } = c.req.valid('json');
      const locale = await userLocale(db, customerId, userId);
      // The schema admits catalogue ids only, so the entry exists.
      const type = ALERT_TYPES.find((t) => t.id === type_id)!;
      const data: AlertGetNameData = {
        type_id,
        code: type.code,
        name: ALERT_TYPE_TEXTS[type.code][locale].title,
      };
      return c.json(ok(data));
    })
    .post(`${ALERTS}/get`, session, jsonBody(AlertGetRequest), async (c) => {
      const { customerId } = c.get('session');
      const { id } = c.req.valid('json');
      const row = await db
        .selectFrom('alerts as a')
        .innerJoin('servers as s', (j) =>
          j.onRef('s.id', '=', 'a.server_id').onRef('s.customer_id', '=', 'a.customer_id'),
        )
        .selectAll('a')
        .select(['s.name as server_name', 's.hostname as server_hostname'])
        .where('a.customer_id', '=', customerId)
        .where('a.id', '=', id)
        .executeTakeFirst();
      if (!row) throw ApiError.of('not_found', 'This alert is not open any more, or could not be found.');
      const data: AlertGetData = {
        server_id: row.server_id,
        server_name: row.server_name ?? row.server_hostname,
        alert: toAlertItem(row, unixNow()),
      };
      return c.json(ok(data));
    })
    .post('/alert/get_info', session, jsonBody(AlertInfoRequest), async (c) => {
      const { customerId } = c.get('session');
      const { historic_id } = c.req.valid('json');
      const row = await db
        .selectFrom('alert_history as h')
        .innerJoin('servers as s', (j) =>
          j.onRef('s.id', '=', 'h.server_id').onRef('s.customer_id', '=', 'h.customer_id'),
        )
        .selectAll('h')
        .select(['s.name as server_name', 's.hostname as server_hostname'])
        .where('h.customer_id', '=', customerId)
        .where('h.id', '=', historic_id)
        .executeTakeFirst();
      if (!row) throw ApiError.of('not_found', 'This alert occurrence could not be found.');
      const threshold = await db
        .selectFrom('alert_thresholds')
        .selectAll()
        .where('customer_id', '=', customerId)
        .where('id', '=', row.threshold_id)
        .executeTakeFirst();
      const data: AlertInfoData = {
        occurrence: toHistoryRow(row),
        threshold: threshold ? toThreshold(threshold) : null,
        open: row.date_exit === null,
        quiet: row.quiet,
        acknowledged_at: row.acknowledged_at,
      };
      return c.json(ok(data));
    })
    .post('/alert/get_alert_history', session, jsonBody(AlertGetAlertHistoryRequest), async (c) => {
      const { customerId } = c.get('session');
      const req = c.req.valid('json');
      if (req.server_id !== undefined) await serverOr404(db, customerId, req.server_id);
      const data = await alertHistory(db, customerId, req);
      return c.json(ok<AlertHistoryRow[]>(data));
    });
}
