import { createHash, timingSafeEqual } from 'node:crypto';
import { GCHAT_API_URL, type Recipient, SLACK_WEBHOOK_URL } from '@flightdeck/collector/notify';
import type { SecretBox } from '../../crypto/secrets';
import type { NotificationIntegrationRow } from '../../db/types';

/** The context a row's secret is sealed with: a sealed value copied to another row does not open. */
export function secretContext(customerId: number, userId: number, channel: string): string {
  return `integration:${customerId}:${userId}:${channel}`;
}

/** SHA-256 (hex) of a one-time key: only the hash is stored. */
export function keyHash(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** True when `key` hashes to `hash`, compared in constant time. */
export function keyMatches(key: string, hash: string | null): boolean {
  if (!hash) return false;
  const a = Buffer.from(keyHash(key), 'hex');
  const b = Buffer.from(hash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * A webhook URL as the api shows and stores it in the clear: origin and path with every path
 * segment after the first `keep` replaced by `…`, the query values masked. Deterministic, so the
 * delivery record finds the row by it.
 */
export function maskWebhook(url: string, keep: number): string {
  const u = new URL(url);
  const segments = u.pathname.split('/').filter(Boolean);
  const path = segments.map((s, i) => (i < keep ? s : `${s.slice(0, 2)}…`)).join('/');
  const query = [...u.searchParams.keys()].map((k) => `${k}=…`).join('&');
  return `${u.origin}/${path}${query ? `?${query}` : ''}`;
}

/** Path segments kept in the clear: `services` of Slack, `v1/spaces/<space>` of Google Chat. */
export const SLACK_MASK_KEEP = 1;
export const GCHAT_MASK_KEEP = 3;

/**
 * Why a Slack incoming-webhook URL is refused, or null: it must be https on hooks.slack.com (or
 * the configured SLACK_WEBHOOK_URL's origin) with a `/services/...` path.
 */
export function slackWebhookProblem(url: string, configuredBase: string): string | null {
  const u = new URL(url);
  const origins = new Set([SLACK_WEBHOOK_URL, new URL(configuredBase).origin]);
  if (!origins.has(u.origin))
    return `The webhook must be a Slack incoming webhook (${SLACK_WEBHOOK_URL}/services/...).`;
  if (u.origin === SLACK_WEBHOOK_URL && u.protocol !== 'https:') return 'The webhook must use https.';
  if (!/^\/services\/[^/]+\/[^/]+\/[^/]+$/.test(u.pathname)) {
    return 'The webhook path must be /services/<team>/<bot>/<secret>, as Slack shows it.';
  }
  return null;
}

/**
 * Why a Google Chat space webhook URL is refused, or null: https on chat.googleapis.com (or the
 * configured GCHAT_API_URL's origin), path `/v1/spaces/<space>/messages`, with `key` and `token`.
 */
export function gchatWebhookProblem(url: string, configuredBase: string): string | null {
  const u = new URL(url);
  const origins = new Set([GCHAT_API_URL, new URL(configuredBase).origin]);
  if (!origins.has(u.origin))
    return `The webhook must be a Google Chat space webhook (${GCHAT_API_URL}/v1/spaces/...).`;
  if (!/^\/v1\/spaces\/[^/]+\/messages$/.test(u.pathname)) {
    return 'The webhook path must be /v1/spaces/<space>/messages, as Google Chat shows it.';
  }
  if (!u.searchParams.get('key') || !u.searchParams.get('token')) {
    return 'The webhook must carry its key and token parameters: copy the whole URL from Google Chat.';
  }
  return null;
}

/** What delivery needs of an integration row. */
export type DeliveryRow = Pick<
  NotificationIntegrationRow,
  'customer_id' | 'user_id' | 'channel' | 'target' | 'secret' | 'detail'
>;

/**
 * Where an enabled integration delivers, or undefined when it cannot yet (a Telegram chat not
 * linked, a WhatsApp number not validated, an unknown channel). Throws `SecretsError` when a
 * sealed webhook does not open with `box`.
 */
export function deliveryRecipient(row: DeliveryRow, box: () => SecretBox): Recipient | undefined {
  const open = () =>
    row.secret === null
      ? undefined
      : box().open(row.secret, secretContext(row.customer_id, row.user_id, row.channel));
  switch (row.channel) {
    case 'email':
      return { channel: 'email', address: row.target };
    case 'telegram':
      return row.target ? { channel: 'telegram', chatId: row.target } : undefined;
    case 'whatsapp':
      return row.target ? { channel: 'whatsapp', to: row.target } : undefined;
    case 'slack': {
      if (row.detail === 'bot')
        return row.target ? { channel: 'slack', conversation: row.target } : undefined;
      const webhookUrl = open();
      return webhookUrl ? { channel: 'slack', webhookUrl } : undefined;
    }
    case 'gchat': {
      const webhookUrl = open();
      return webhookUrl ? { channel: 'gchat', webhookUrl } : undefined;
    }
    default:
      return undefined;
  }
}

/** The `target` column value a delivery to `r` is recorded under (see `maskWebhook`). */
export function recordedTarget(r: Recipient): string {
  switch (r.channel) {
    case 'email':
      return r.address;
    case 'telegram':
      return r.chatId;
    case 'whatsapp':
      return r.to;
    case 'slack':
      return 'webhookUrl' in r ? maskWebhook(r.webhookUrl, SLACK_MASK_KEEP) : r.conversation;
    case 'gchat':
      return maskWebhook(r.webhookUrl, GCHAT_MASK_KEEP);
  }
}
