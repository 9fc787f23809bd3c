import { ALERT_LIFECYCLE_EVENTS, AlertStatus, UserLocale } from '@flightdeck/schemas';
import { z } from 'zod';

/** The channels a notification can go out on. */
export const NOTIFY_CHANNELS = ['email', 'telegram', 'slack', 'gchat', 'whatsapp'] as const;
/** One notification channel. */
export const NotifyChannel = z.enum(NOTIFY_CHANNELS);
/** One notification channel. */
export type NotifyChannel = z.infer<typeof NotifyChannel>;

const nonEmpty = z.string().trim().min(1);

/**
 * Where a notification goes, per channel: an e-mail address; a Telegram chat id; a Slack
 * conversation (channel id or `#name`, sent with the bot token) or a Slack incoming-webhook URL; a
 * Google Chat space webhook URL; a WhatsApp Cloud API sender (`phoneNumberId`, the business number's
 * id; absent: the notifier's default) and the recipient's number in international form.
 */
export const Recipient = z.union([
  z.object({ channel: z.literal('email'), address: z.email() }).strict(),
  z.object({ channel: z.literal('telegram'), chatId: nonEmpty }).strict(),
  z.object({ channel: z.literal('slack'), conversation: nonEmpty }).strict(),
  z.object({ channel: z.literal('slack'), webhookUrl: z.url({ protocol: /^https?$/ }) }).strict(),
  z.object({ channel: z.literal('gchat'), webhookUrl: z.url({ protocol: /^https?$/ }) }).strict(),
  z
    .object({
      channel: z.literal('whatsapp'),
      phoneNumberId: nonEmpty.optional(),
      to: z.string().regex(/^\+?\d{6,15}$/, 'expected a phone number in international form'),
    })
    .strict(),
]);
/** Where a notification goes, per channel. */
export type Recipient = z.infer<typeof Recipient>;
/** The recipient of one channel. */
export type RecipientOf<C extends NotifyChannel> = Extract<Recipient, { channel: C }>;

/**
 * The alert a notification is about, in the words the messages use. `link` points into the console
 * (`{PUBLIC_URL}/flightdeck/services/{id}/{service}`); `value` is already formatted with its unit.
 */
export const AlertSummary = z
  .object({
    event: z.enum(ALERT_LIFECYCLE_EVENTS),
    serverName: nonEmpty,
    /** What the alert is about, e.g. "CPU usage above 90 %". */
    alertType: nonEmpty,
    status: AlertStatus,
    value: z.string().optional(),
    link: z.url({ protocol: /^https?$/ }),
    /** Unix ms of the change the notification reports. */
    at: z.number().int().nonnegative().optional(),
    /** Who acknowledged, for `acknowledged`. */
    acknowledgedBy: z.string().optional(),
  })
  .strict();
export type AlertSummary = z.infer<typeof AlertSummary>;

/**
 * One message to one recipient on one channel. `id` is stable for the same alert change and
 * recipient (the queue drops a second notification with an id it already holds), so an engine
 * that evaluates a sample twice after a restart does not notify twice.
 *
 * `text` is plain text and always present. `markdown`, when present, is the same message in the
 * markup of the recipient's channel, already escaped: Telegram MarkdownV2 or Slack mrkdwn
 * (messages.ts builds both); channels without markup ignore it.
 */
export const Notification = z
  .object({
    id: z.string().min(1).max(200),
    tenant: nonEmpty,
    recipient: Recipient,
    locale: UserLocale,
    subject: z.string().max(500),
    text: z.string().min(1),
    markdown: z.string().min(1).optional(),
    /** Absent for messages that are not about an alert (a test message, a validation key). */
    alert: AlertSummary.optional(),
  })
  .strict();
export type Notification = z.infer<typeof Notification>;

/**
 * Why a send failed. `retryable` errors (the service down or slow, 5xx, 429, a dropped
 * connection) are tried again later; the others (a bad recipient, a refused token, any other 4xx,
 * a permanent SMTP reply) would fail the same way again and are not. `retryAfterMs` is the wait
 * the service asked for (429 Retry-After). Messages never contain a token.
 */
export class NotifyError extends Error {
  readonly retryable: boolean;
  /** HTTP status, or the SMTP reply code. */
  readonly status: number | undefined;
  readonly retryAfterMs: number | undefined;

  constructor(
    message: string,
    options: { retryable: boolean; status?: number; retryAfterMs?: number; cause?: unknown },
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'NotifyError';
    this.retryable = options.retryable;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
  }
}

/**
 * Delivers notifications on one channel (CONVENTIONS habit 5). `send` makes one attempt: it
 * resolves once the service accepted the message and rejects with `NotifyError` otherwise; it
 * gives up when `signal` aborts or its own time-out passes. The queue owns retries, back-off and
 * ordering; a notifier never retries on its own.
 */
export interface Notifier {
  readonly channel: NotifyChannel;
  send(notification: Notification, signal: AbortSignal): Promise<void>;
  /** Releases connections (the SMTP pool); sends after `close` fail. */
  close(): Promise<void>;
}

/**
 * A credential that may differ per tenant (a Slack bot token from each workspace's OAuth): a
 * fixed value, or a function of the tenant giving undefined when the tenant has none.
 */
export type TokenSource = string | ((tenant: string) => string | undefined | Promise<string | undefined>);

/** The credential of `tenant` from a token source. */
export async function tokenFor(source: TokenSource | undefined, tenant: string): Promise<string | undefined> {
  if (source === undefined) return undefined;
  return typeof source === 'string' ? source : await source(tenant);
}

/**
 * The recipient as one string: the queue keeps each recipient's notifications in order by it.
 * It can hold a webhook URL, so it is not for logs: see `describeRecipient`.
 */
export function recipientKey(r: Recipient): string {
  switch (r.channel) {
    case 'email':
      return `email:${r.address.toLowerCase()}`;
    case 'telegram':
      return `telegram:${r.chatId}`;
    case 'slack':
      return 'webhookUrl' in r ? `slack:hook:${r.webhookUrl}` : `slack:${r.conversation}`;
    case 'gchat':
      return `gchat:${r.webhookUrl}`;
    case 'whatsapp':
      return `whatsapp:${r.phoneNumberId ?? ''}:${r.to.replace(/^\+/, '')}`;
  }
}

/** The recipient for log lines and error messages: webhook URLs lose their secret parts. */
export function describeRecipient(r: Recipient): string {
  switch (r.channel) {
    case 'email':
      return `e-mail ${r.address}`;
    case 'telegram':
      return `Telegram chat ${r.chatId}`;
    case 'slack':
      return 'webhookUrl' in r ? 'Slack incoming webhook' : `Slack conversation ${r.conversation}`;
    case 'gchat': {
      const space = r.webhookUrl.match(/\/spaces\/([^/?#]+)/)?.[1];
      return space ? `Google Chat space ${space}` : 'Google Chat webhook';
    }
    case 'whatsapp':
      return `WhatsApp ${r.to}`;
  }
}
