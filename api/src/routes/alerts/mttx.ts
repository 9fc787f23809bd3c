import {
  type HistoricUnavailableData,
  HistoricUnavailableRequest,
  type MttxDay,
  type MttxFigures,
  type MttxHistoricData,
  MttxHistoricParams,
  type UnavailabilityPeriod,
} from '@flightdeck/schemas';
import { Hono } from 'hono';
import { sql } from 'kysely';
import { requireSession } from '../../auth/middleware';
import { unixNow } from '../../clock';
import type { Db } from '../../db/kysely';
import type { AppDeps, AppEnv } from '../../env';
import { jsonBody } from '../../http/body';
import { serverOr404, serverStatus } from '../servers/shared';
import { UNREACHABLE_TYPE_ID } from './dependencies';
import { unavailableMarks } from './mutes';

const DAY_S = 86_400;

/** Sums of one day as the database adds them up; drivers hand counts and sums back as strings or numbers. */
interface DaySums {
  day: number | string;
  opened: number | string;
  acknowledged: number | string;
  ack_total: number | string | null;
  resolved: number | string;
  resolve_total: number | string | null;
}

function figures(
  opened: number,
  acknowledged: number,
  ackTotal: number,
  resolved: number,
  resolveTotal: number,
) {
  return {
    opened,
    acknowledged,
    resolved,
    mtta_s: acknowledged === 0 ? null : ackTotal / acknowledged,
    mttr_s: resolved === 0 ? null : resolveTotal / resolved,
  } satisfies MttxFigures;
}

/**
 * MTTA and MTTR of the occurrences that opened in [start, end], per UTC day and overall: the time
 * to acknowledge runs from the opening to the first acknowledgement (occurrences never acknowledged
 * do not count towards it), the time to resolve from the opening to the resolution (occurrences
 * still open do not count towards it). The database adds up per day, so a busy year stays one query.
 */
export async function mttxHistoric(
  db: Db,
  customerId: number,
  params: MttxHistoricParams,
): Promise<MttxHistoricData> {
  const [from, to] = params.start <= params.end ? [params.start, params.end] : [params.end, params.start];
  let q = db
    .selectFrom('alert_history as h')
    .select([
      sql<number>`h.date_enter / ${sql.lit(DAY_S)}`.as('day'),
      sql<number>`count(*)`.as('opened'),
      sql<number>`count(h.acknowledged_at)`.as('acknowledged'),
      sql<number | null>`sum(h.acknowledged_at - h.date_enter)`.as('ack_total'),
      sql<number>`count(h.date_exit)`.as('resolved'),
      sql<number | null>`sum(h.date_exit - h.date_enter)`.as('resolve_total'),
    ])
    .where('h.customer_id', '=', customerId)
    .where('h.date_enter', '>=', from)
    .where('h.date_enter', '<=', to);
  if (params.server_id !== undefined) q = q.where('h.server_id', '=', params.server_id);
  const rows = (await q.groupBy(sql`h.date_enter / ${sql.lit(DAY_S)}`).execute()) as DaySums[];

  const total = { opened: 0, acknowledged: 0, ackTotal: 0, resolved: 0, resolveTotal: 0 };
  const days: MttxDay[] = rows
    .map((r) => {
      const d = {
        opened: Number(r.opened),
        acknowledged: Number(r.acknowledged),
        ackTotal: Number(r.ack_total ?? 0),
        resolved: Number(r.resolved),
        resolveTotal: Number(r.resolve_total ?? 0),
      };
      total.opened += d.opened;
      total.acknowledged += d.acknowledged;
      total.ackTotal += d.ackTotal;
      total.resolved += d.resolved;
      total.resolveTotal += d.resolveTotal;
      return {
        day: Number(r.day) * DAY_S,
        ...figures(d.opened, d.acknowledged, d.ackTotal, d.resolved, d.resolveTotal),
      };
    })
    .sort((a, b) => a.day - b.day);
  return {
    start: from,
    end: to,
    server_id: params.server_id ?? null,
    days,
    overall: figures(total.opened, total.acknowledged, total.ackTotal, total.resolved, total.resolveTotal),
  };
}

/** Occurrences read for one `get_historic_unavailable` answer at most. */
const MAX_UNAVAILABLE_ROWS = 5_000;

/**
 * When servers and services were unavailable over [start, end]: the "server unreachable"
 * occurrences (type 1) overlapping the range, and for servers with an agent whose heartbeats have
 * stopped, the period since the last one (earlier heartbeat gaps are not kept). Oldest first.
 */
export async function historicUnavailable(
  db: Db,
  customerId: number,
  req: HistoricUnavailableRequest,
  nowS: number,
): Promise<HistoricUnavailableData> {
  const [from, to] = req.start <= req.end ? [req.start, req.end] : [req.end, req.start];
  const inRange = (start: number, end: number | null) =>
    Math.max(0, Math.min(end ?? nowS, to) - Math.max(start, from));
  let q = db
    .selectFrom('alert_history as h')
    .innerJoin('servers as s', (j) =>
      j.onRef('s.id', '=', 'h.server_id').onRef('s.customer_id', '=', 'h.customer_id'),
    )
    .select(['h.id', 'h.server_id', 'h.service', 'h.date_enter', 'h.date_exit', 's.name', 's.hostname'])
    .where('h.customer_id', '=', customerId)
    .where('h.type_id', '=', UNREACHABLE_TYPE_ID)
    .where('h.date_enter', '<=', to)
    .where((eb) => eb.or([eb('h.date_exit', 'is', null), eb('h.date_exit', '>=', from)]));
  if (req.server_id !== undefined) q = q.where('h.server_id', '=', req.server_id);
  const rows = await q.orderBy('h.date_enter').orderBy('h.id').limit(MAX_UNAVAILABLE_ROWS).execute();
  const periods: UnavailabilityPeriod[] = rows.map((r) => ({
    server_id: r.server_id,
    server_name: r.name ?? r.hostname,
    service: r.service === '' ? null : r.service,
    source: 'unreachable_alert',
    historic_id: r.id,
    start: r.date_enter,
    end: r.date_exit,
    seconds_in_range: inRange(r.date_enter, r.date_exit),
  }));

  let servers = db
    .selectFrom('servers')
    .selectAll()
    .where('customer_id', '=', customerId)
    .where('last_seen_at', 'is not', null)
    .where('last_seen_at', '<=', to);
  if (req.server_id !== undefined) servers = servers.where('id', '=', req.server_id);
  for (const server of await servers.execute()) {
    if (serverStatus(server, nowS) !== 'down') continue;
    const start = server.last_seen_at!;
    periods.push({
      server_id: server.id,
      server_name: server.name ?? server.hostname,
      service: null,
      source: 'heartbeat',
      historic_id: null,
      start,
      end: null,
      seconds_in_range: inRange(start, null),
    });
  }
  periods.sort((a, b) => a.start - b.start || a.server_id - b.server_id);
  return { periods, marked: await unavailableMarks(db, customerId, req.server_id) };
}

/**
 * `GET /services_monitored/mttx/historic?start&end[&server_id]` and
 * `POST /mttx/get_historic_unavailable` (spec section 7).
 */
export function mttxRoutes(deps: AppDeps) {
  const { db } = deps;
  const session = requireSession(db);
  return new Hono<AppEnv>()
    .get('/services_monitored/mttx/historic', session, async (c) => {
      const { customerId } = c.get('session');
      const params = MttxHistoricParams.parse(c.req.query());
      if (params.server_id !== undefined) await serverOr404(db, customerId, params.server_id);
      const data = await mttxHistoric(db, customerId, params);
      return c.json({ status: 'ok' as const, data });
    })
    .post('/mttx/get_historic_unavailable', session, jsonBody(HistoricUnavailableRequest), async (c) => {
      const { customerId } = c.get('session');
      const req = c.req.valid('json');
      if (req.server_id !== undefined) await serverOr404(db, customerId, req.server_id);
      const data = await historicUnavailable(db, customerId, req, unixNow());
      return c.json({ status: 'ok' as const, data });
    });
}
