import { NotifyError } from '@flightdeck/collector/notify';
import {
  type ChatIntegrationChannel,
  type EmailIntegration,
  type GChatIntegration,
  IntegrationEmptyRequest,
  type IntegrationRemovedData,
  type OkEnvelope,
  type SlackIntegration,
  type TelegramIntegration,
  type UserIntegration,
  type WhatsAppIntegration,
} from '@flightdeck/schemas';
import { Hono } from 'hono';
import { requireSession } from '../../auth/middleware';
import { unixNow } from '../../clock';
import type { Db } from '../../db/kysely';
import type { NotificationIntegrationRow } from '../../db/types';
import type { AppEnv } from '../../env';
import { ApiError } from '../../errors';
import { jsonBody } from '../../http/body';

export const INTEGRATION = '/integrations/integration';

/** How each channel is named in messages. */
export const CHANNEL_NAMES: Record<ChatIntegrationChannel, string> = {
  telegram: 'Telegram',
  slack: 'Slack',
  gchat: 'Google Chat',
  whatsapp: 'WhatsApp',
};

export function ok<T>(data: T): OkEnvelope<T> {
  return { status: 'ok', data };
}

/** A pending key's expiry (unix s), or null when none waits or it ran out. */
function keyExpiry(row: NotificationIntegrationRow, now: number): number | null {
  return row.verify_hash !== null && row.verify_until !== null && row.verify_until >= now
    ? row.verify_until
    : null;
}

/** The integration as the api answers it: secrets never leave (webhooks show masked). */
export function toView(row: NotificationIntegrationRow, now = unixNow()): UserIntegration {
  const common = {
    status: row.status,
    created_at: row.created_at,
    last_sent_at: row.last_sent_at,
    last_error: row.last_error,
  };
  switch (row.channel) {
    case 'telegram':
      return {
        channel: 'telegram',
        ...common,
        chat_id: row.target || null,
        username: row.detail,
        key_expires_at: keyExpiry(row, now),
      } satisfies TelegramIntegration;
    case 'slack':
      return {
        channel: 'slack',
        ...common,
        mode: row.detail === 'bot' ? 'bot' : 'webhook',
        target: row.target,
      } satisfies SlackIntegration;
    case 'gchat':
      return { channel: 'gchat', ...common, webhook_url: row.target } satisfies GChatIntegration;
    case 'whatsapp': {
      const expires = keyExpiry(row, now);
      return {
        channel: 'whatsapp',
        ...common,
        phone: row.target || null,
        pending_phone: expires === null ? null : row.pending_target,
        key_expires_at: expires,
      } satisfies WhatsAppIntegration;
    }
    default:
      return { channel: 'email', ...common, address: row.target } satisfies EmailIntegration;
  }
}

export function integrationRow(db: Db, customerId: number, userId: number, channel: string) {
  return db
    .selectFrom('notification_integrations')
    .selectAll()
    .where('customer_id', '=', customerId)
    .where('user_id', '=', userId)
    .where('channel', '=', channel)
    .executeTakeFirst();
}

/** A service's refusal or silence as an API error the console can show; other errors go on. */
export function serviceError(err: unknown): never {
  if (err instanceof NotifyError) {
    throw new ApiError(err.retryable ? 502 : 400, 'connection_failed', err.message);
  }
  throw err;
}

/** The channel is not configured on this server: the variable to set. */
export function notConfigured(channel: ChatIntegrationChannel, variables: string): ApiError {
  return new ApiError(
    400,
    'bad_config',
    `${CHANNEL_NAMES[channel]} is not configured on this server: set ${variables}.`,
  );
}

/**
 * `get_user_info`, `enable`, `disable` and `remove` of one channel. `beforeInfo` runs before the
 * row is read (Telegram links waiting chats there). A row without a target (a Telegram chat not
 * linked yet, a WhatsApp number not validated) cannot be enabled.
 */
export function lifecycleRoutes<V>(
  db: Db,
  channel: ChatIntegrationChannel,
  view: (row: NotificationIntegrationRow) => V,
  changed: (customerId: number) => void,
  beforeInfo?: (customerId: number, userId: number) => Promise<void>,
) {
  const session = requireSession(db);
  const path = `${INTEGRATION}/${channel}`;
  const name = CHANNEL_NAMES[channel];

  async function setStatus(customerId: number, userId: number, status: 'enabled' | 'disabled') {
    const row = await integrationRow(db, customerId, userId, channel);
    if (!row) throw ApiError.of('not_found', `No ${name} integration yet: set it up first.`);
    if (status === 'enabled' && row.target === '') {
      throw ApiError.of('conflict', `The ${name} integration is not confirmed yet: finish its set-up first.`);
    }
    const updated = await db
      .updateTable('notification_integrations')
      .set({ status, updated_at: unixNow() })
      .where('id', '=', row.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    changed(customerId);
    return view(updated);
  }

  return new Hono<AppEnv>()
    .post(`${path}/get_user_info`, session, jsonBody(IntegrationEmptyRequest), async (c) => {
      const { customerId, userId } = c.get('session');
      await beforeInfo?.(customerId, userId);
      const row = await integrationRow(db, customerId, userId, channel);
      return c.json(ok<V | null>(row ? view(row) : null));
    })
    .post(`${path}/enable`, session, jsonBody(IntegrationEmptyRequest), async (c) => {
      const { customerId, userId } = c.get('session');
      return c.json(ok<V>(await setStatus(customerId, userId, 'enabled')));
    })
    .post(`${path}/disable`, session, jsonBody(IntegrationEmptyRequest), async (c) => {
      const { customerId, userId } = c.get('session');
      return c.json(ok<V>(await setStatus(customerId, userId, 'disabled')));
    })
    .post(`${path}/remove`, session, jsonBody(IntegrationEmptyRequest), async (c) => {
      const { customerId, userId } = c.get('session');
      const result = await db
        .deleteFrom('notification_integrations')
        .where('customer_id', '=', customerId)
        .where('user_id', '=', userId)
        .where('channel', '=', channel)
        .executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) {
        throw ApiError.of('not_found', `No ${name} integration to remove.`);
      }
      changed(customerId);
      return c.json(ok<IntegrationRemovedData>({ removed: true }));
    });
}

/**
 * Inserts or replaces the user's row of `channel` with `values` (the target and what goes with
 * it); returns the row.
 */
export async function upsertIntegration(
  db: Db,
  customerId: number,
  userId: number,
  channel: ChatIntegrationChannel,
  values: Partial<
    Pick<
      NotificationIntegrationRow,
      | 'target'
      | 'status'
      | 'secret'
      | 'detail'
      | 'pending_target'
      | 'verify_hash'
      | 'verify_until'
      | 'verify_attempts'
      | 'last_error'
    >
  >,
): Promise<NotificationIntegrationRow> {
  const now = unixNow();
  return db
    .insertInto('notification_integrations')
    .values({
      customer_id: customerId,
      user_id: userId,
      channel,
      target: values.target ?? '',
      status: values.status ?? 'disabled',
      created_at: now,
      updated_at: now,
      last_sent_at: null,
      last_error: null,
      ...values,
    })
    .onConflict((oc) => oc.columns(['user_id', 'channel']).doUpdateSet({ ...values, updated_at: now }))
    .returningAll()
    .executeTakeFirstOrThrow();
}
