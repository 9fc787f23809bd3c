import {
  type EmailIntegration,
  type EmailIntegrationData,
  EmailRegisterRequest,
  IntegrationEmptyRequest,
  type OkEnvelope,
} from '@flightdeck/schemas';
import { Hono } from 'hono';
import { requireSession } from '../../auth/middleware';
import { unixNow } from '../../clock';
import type { Db } from '../../db/kysely';
import type { NotificationIntegrationRow } from '../../db/types';
import type { AppDeps, AppEnv } from '../../env';
import { ApiError } from '../../errors';
import { jsonBody } from '../../http/body';

const EMAIL = '/integrations/integration/email';

function ok<T>(data: T): OkEnvelope<T> {
  return { status: 'ok', data };
}

function toIntegration(row: NotificationIntegrationRow): EmailIntegration {
  return {
    channel: 'email',
    status: row.status,
    address: row.target,
    created_at: row.created_at,
    last_sent_at: row.last_sent_at,
    last_error: row.last_error,
  };
}

function emailRow(db: Db, customerId: number, userId: number) {
  return db
    .selectFrom('notification_integrations')
    .selectAll()
    .where('customer_id', '=', customerId)
    .where('user_id', '=', userId)
    .where('channel', '=', 'email')
    .executeTakeFirst();
}

async function setStatus(db: Db, customerId: number, userId: number, status: 'enabled' | 'disabled') {
  const row = await db
    .updateTable('notification_integrations')
    .set({ status, updated_at: unixNow() })
    .where('customer_id', '=', customerId)
    .where('user_id', '=', userId)
    .where('channel', '=', 'email')
    .returningAll()
    .executeTakeFirst();
  if (!row) throw ApiError.of('not_found', 'No e-mail integration yet: register an address first.');
  return toIntegration(row);
}

/**
 * The signed-in user's e-mail integration (spec section 7, "Integrations"): `register` sets the
 * address alerts are sent to and enables it, `get_user_info` shows it, `enable`/`disable` switch it,
 * `remove` deletes it. `changed` is told after every change (the alert core caches recipients).
 */
export function emailIntegrationRoutes(deps: AppDeps, changed: (customerId: number) => void) {
  const { db } = deps;
  const session = requireSession(db);
  return new Hono<AppEnv>()
    .post(`${EMAIL}/register`, session, jsonBody(EmailRegisterRequest), async (c) => {
      const { customerId, userId } = c.get('session');
      const address = c.req.valid('json').address.toLowerCase();
      const now = unixNow();
      const row = await db
        .insertInto('notification_integrations')
        .values({
          customer_id: customerId,
          user_id: userId,
          channel: 'email',
          target: address,
          status: 'enabled',
          created_at: now,
          updated_at: now,
          last_sent_at: null,
          last_error: null,
        })
        .onConflict((oc) =>
          oc
            .columns(['user_id', 'channel'])
            .doUpdateSet({ target: address, status: 'enabled', updated_at: now, last_error: null }),
        )
        .returningAll()
        .executeTakeFirstOrThrow();
      changed(customerId);
      return c.json(ok<EmailIntegration>(toIntegration(row)));
    })
    .post(`${EMAIL}/get_user_info`, session, jsonBody(IntegrationEmptyRequest), async (c) => {
      const { customerId, userId } = c.get('session');
      const row = await emailRow(db, customerId, userId);
      return c.json(ok<EmailIntegrationData>(row ? toIntegration(row) : null));
    })
    .post(`${EMAIL}/enable`, session, jsonBody(IntegrationEmptyRequest), async (c) => {
      const { customerId, userId } = c.get('session');
      const data = await setStatus(db, customerId, userId, 'enabled');
      changed(customerId);
      return c.json(ok<EmailIntegration>(data));
    })
    .post(`${EMAIL}/disable`, session, jsonBody(IntegrationEmptyRequest), async (c) => {
      const { customerId, userId } = c.get('session');
      const data = await setStatus(db, customerId, userId, 'disabled');
      changed(customerId);
      return c.json(ok<EmailIntegration>(data));
    })
    .post(`${EMAIL}/remove`, session, jsonBody(IntegrationEmptyRequest), async (c) => {
      const { customerId, userId } = c.get('session');
      const result = await db
        .deleteFrom('notification_integrations')
        .where('customer_id', '=', customerId)
        .where('user_id', '=', userId)
        .where('channel', '=', 'email')
        .executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) {
        throw ApiError.of('not_found', 'No e-mail integration to remove.');
      }
      changed(customerId);
      return c.json(ok({ removed: true as const }));
    });
}
