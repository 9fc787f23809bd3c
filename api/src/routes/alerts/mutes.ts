import {
  type ChangeAlertStatusData,
  ChangeAlertStatusRequest,
  EmptyRequest,
  type ListAlertStatusData,
  type OkEnvelope,
  type UnavailableMark,
  UnavailableRequest,
} from '@flightdeck/schemas';
import { Hono } from 'hono';
import { requireSession } from '../../auth/middleware';
import { unixNow } from '../../clock';
import type { Db } from '../../db/kysely';
import type { AlertMuteRow } from '../../db/types';
import type { AppDeps, AppEnv } from '../../env';
import { jsonBody } from '../../http/body';
import { serverOr404 } from '../servers/shared';

const ALERTS = '/services_monitored/alerts';

function ok<T>(data: T): OkEnvelope<T> {
  return { status: 'ok', data };
}

const disabledKey = (serverId: number | null, typeId: number) => `disabled:${serverId ?? '*'}:${typeId}`;
const unavailableKey = (serverId: number, service: string) => `unavailable:${serverId}:${service}`;

async function addMute(
  db: Db,
  mute: Omit<AlertMuteRow, 'id' | 'created_at'>,
  nowS: number,
): Promise<AlertMuteRow> {
  await db
    .insertInto('alert_mutes')
    .values({ ...mute, created_at: nowS })
    .onConflict((oc) => oc.columns(['customer_id', 'scope_key']).doNothing())
    .execute();
  return db
    .selectFrom('alert_mutes')
    .selectAll()
    .where('customer_id', '=', mute.customer_id)
    .where('scope_key', '=', mute.scope_key)
    .executeTakeFirstOrThrow();
}

async function removeMute(db: Db, customerId: number, scopeKey: string) {
  await db
    .deleteFrom('alert_mutes')
    .where('customer_id', '=', customerId)
    .where('scope_key', '=', scopeKey)
    .execute();
}

/** A server's or service's unavailable mark as the calls answer it. */
export function toUnavailableMark(row: AlertMuteRow): UnavailableMark {
  return {
    server_id: row.server_id!,
    service: row.service === '' ? null : row.service,
    unavailable: true,
    since: row.created_at,
  };
}

/** The customer's current unavailable marks, optionally of one server. */
export async function unavailableMarks(db: Db, customerId: number, serverId?: number) {
  let q = db
    .selectFrom('alert_mutes')
    .selectAll()
    .where('customer_id', '=', customerId)
    .where('kind', '=', 'unavailable');
  if (serverId !== undefined) q = q.where('server_id', '=', serverId);
  return (await q.orderBy('server_id').orderBy('service').execute()).map(toUnavailableMark);
}

/**
 * Mutes (spec section 7): an alert type turned off for a server or for all of the customer's
 * servers (`change_alert_status`), a server or one service marked intentionally unavailable
 * (`set_unavailable`, `remove_unavailable`). They are rows of `alert_mutes` that the alert core
 * consults on every change (dependencies.ts), rather than thresholds switched off, so turning a
 * type back on leaves the thresholds exactly as their owners set them.
 */
export function muteRoutes(deps: AppDeps) {
  const { db } = deps;
  const session = requireSession(db);

  return new Hono<AppEnv>()
    .post(`${ALERTS}/list_status`, session, jsonBody(EmptyRequest), async (c) => {
      const { customerId } = c.get('session');
      const rows = await db
        .selectFrom('alert_mutes')
        .select(['type_id', 'server_id', 'created_at'])
        .where('customer_id', '=', customerId)
        .where('kind', '=', 'disabled')
        .execute();
      // By type, the all-servers mute first (SQLite and PostgreSQL order nulls differently).
      const list = rows
        .map((r) => ({ type_id: r.type_id!, server_id: r.server_id, since: r.created_at }))
        .sort((x, y) => x.type_id - y.type_id || (x.server_id ?? 0) - (y.server_id ?? 0));
      return c.json(ok<ListAlertStatusData>(list));
    })
    .post(`${ALERTS}/change_alert_status`, session, jsonBody(ChangeAlertStatusRequest), async (c) => {
      const { customerId, userId } = c.get('session');
      const req = c.req.valid('json');
      if (req.server_id !== undefined) await serverOr404(db, customerId, req.server_id);
      const serverId = req.server_id ?? null;
      const key = disabledKey(serverId, req.id);
      if (req.enabled) await removeMute(db, customerId, key);
      else {
        await addMute(
          db,
          {
            customer_id: customerId,
            server_id: serverId,
            service: '',
            type_id: req.id,
            kind: 'disabled',
            scope_key: key,
            created_by: userId,
          },
          unixNow(),
        );
      }
      return c.json(
        ok<ChangeAlertStatusData>({ type_id: req.id, server_id: serverId, enabled: req.enabled }),
      );
    })
    .post(`${ALERTS}/set_unavailable`, session, jsonBody(UnavailableRequest), async (c) => {
      const { customerId, userId } = c.get('session');
      const req = c.req.valid('json');
      await serverOr404(db, customerId, req.server_id);
      const service = req.service ?? '';
      const row = await addMute(
        db,
        {
          customer_id: customerId,
          server_id: req.server_id,
          service,
          type_id: null,
          kind: 'unavailable',
          scope_key: unavailableKey(req.server_id, service),
          created_by: userId,
        },
        unixNow(),
      );
      return c.json(ok<UnavailableMark>(toUnavailableMark(row)));
    })
    .post(`${ALERTS}/remove_unavailable`, session, jsonBody(UnavailableRequest), async (c) => {
      const { customerId } = c.get('session');
      const req = c.req.valid('json');
      await serverOr404(db, customerId, req.server_id);
      const service = req.service ?? '';
      await removeMute(db, customerId, unavailableKey(req.server_id, service));
      return c.json(
        ok<UnavailableMark>({
          server_id: req.server_id,
          service: service === '' ? null : service,
          unavailable: false,
          since: null,
        }),
      );
    });
}
