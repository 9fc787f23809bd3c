import { env } from '@flightdeck/schemas';
import { z } from 'zod';
import { GCHAT_API_URL } from './gchat';
import type { NotifierSettings } from './registry';
import { SLACK_API_URL, SLACK_WEBHOOK_URL } from './slack';
import { TELEGRAM_API_URL } from './telegram';
import { WHATSAPP_API_URL, WHATSAPP_API_VERSION } from './whatsapp';

const base = (fallback: string) => env.url(['http', 'https']).default(fallback);
const secret = () => z.string().trim().min(1).optional();

/**
 * Environment variables of the notification channels, as zod fields for a process's config schema
 * (spread them into its `z.object`). E-mail uses the process's SMTP_URL and SMTP_FROM. Each base
 * URL defaults to the real service; tests and proxies point them elsewhere.
 */
export const NOTIFY_ENV_FIELDS = {
  /** Bot token from @BotFather; absent: no Telegram notifications. */
  TELEGRAM_BOT_TOKEN: secret(),
  TELEGRAM_API_URL: base(TELEGRAM_API_URL),
  /** Bot token (`xoxb-...`) for chat.postMessage; webhook recipients need none. */
  SLACK_BOT_TOKEN: secret(),
  SLACK_API_URL: base(SLACK_API_URL),
  SLACK_WEBHOOK_URL: base(SLACK_WEBHOOK_URL),
  GCHAT_API_URL: base(GCHAT_API_URL),
  /** Cloud API access token; absent: no WhatsApp notifications. */
  WHATSAPP_TOKEN: secret(),
  /** The business phone number's id, the default sender. */
  WHATSAPP_PHONE_NUMBER_ID: secret(),
  WHATSAPP_API_URL: base(WHATSAPP_API_URL),
  WHATSAPP_API_VERSION: z
    .string()
    .regex(/^v\d+\.\d+$/, 'expected a Graph API version such as v21.0')
    .default(WHATSAPP_API_VERSION),
};
const NotifyEnv = z.object(NOTIFY_ENV_FIELDS);
export type NotifyEnv = z.infer<typeof NotifyEnv>;

/**
 * The notifier settings from parsed variables: e-mail when an SMTP URL is set, Telegram and
 * WhatsApp when their token is, Slack and Google Chat always (webhooks need no token).
 */
export function notifierSettingsFromEnv(
  e: NotifyEnv & { SMTP_URL?: string | undefined; SMTP_FROM?: string | undefined },
): NotifierSettings {
  return {
    ...(e.SMTP_URL
      ? { email: { url: e.SMTP_URL, from: e.SMTP_FROM ?? 'Flightdeck <no-reply@flightdeck.local>' } }
      : {}),
    ...(e.TELEGRAM_BOT_TOKEN
      ? { telegram: { token: e.TELEGRAM_BOT_TOKEN, baseUrl: e.TELEGRAM_API_URL } }
      : {}),
    slack: {
      ...(e.SLACK_BOT_TOKEN ? { token: e.SLACK_BOT_TOKEN } : {}),
      baseUrl: e.SLACK_API_URL,
      webhookBaseUrl: e.SLACK_WEBHOOK_URL,
    },
    gchat: { baseUrl: e.GCHAT_API_URL },
    ...(e.WHATSAPP_TOKEN
      ? {
          whatsapp: {
            token: e.WHATSAPP_TOKEN,
            baseUrl: e.WHATSAPP_API_URL,
            apiVersion: e.WHATSAPP_API_VERSION,
            ...(e.WHATSAPP_PHONE_NUMBER_ID ? { phoneNumberId: e.WHATSAPP_PHONE_NUMBER_ID } : {}),
          },
        }
      : {}),
  };
}
