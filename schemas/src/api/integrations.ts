import { z } from 'zod';
import { EmailIntegration, IntegrationStatus } from './alerts';

// ---------------------------------------------------------------------------------------------
// Integrations (spec section 7): POST /integrations/integration/{telegram,slack,gchat,whatsapp}/...
// and /integrations/integration/get_user_integrations. E-mail's calls are in ./alerts.ts.

/** The channels with calls here (e-mail's are in ./alerts.ts). */
export const CHAT_INTEGRATION_CHANNELS = ['telegram', 'slack', 'gchat', 'whatsapp'] as const;
export const ChatIntegrationChannel = z.enum(CHAT_INTEGRATION_CHANNELS);
export type ChatIntegrationChannel = z.infer<typeof ChatIntegrationChannel>;

const delivery = {
  status: IntegrationStatus,
  created_at: z.number().int(),
  last_sent_at: z.number().int().nullable(),
  last_error: z.string().nullable(),
};

/**
 * The user's Telegram integration. `chat_id` is null until the user sent the bot `/start <key>`;
 * `key_expires_at` (unix s) is set while a key from `integration_key` waits to be sent.
 */
export const TelegramIntegration = z
  .object({
    channel: z.literal('telegram'),
    ...delivery,
    chat_id: z.string().nullable(),
    username: z.string().nullable(),
    key_expires_at: z.number().int().nullable(),
  })
  .strict();
export type TelegramIntegration = z.infer<typeof TelegramIntegration>;

/**
 * The user's Slack integration: an incoming webhook (its URL masked: never returned) or a
 * conversation the product's bot posts to.
 */
export const SlackIntegration = z
  .object({
    channel: z.literal('slack'),
    ...delivery,
    mode: z.enum(['webhook', 'bot']),
    /** The conversation (bot mode), or the masked webhook URL. */
    target: z.string(),
  })
  .strict();
export type SlackIntegration = z.infer<typeof SlackIntegration>;

/** The user's Google Chat integration; `webhook_url` is masked (its key and token are secrets). */
export const GChatIntegration = z
  .object({ channel: z.literal('gchat'), ...delivery, webhook_url: z.string() })
  .strict();
export type GChatIntegration = z.infer<typeof GChatIntegration>;

/**
 * The user's WhatsApp integration. `phone` is the validated number (null before the first
 * validation); `pending_phone` the number a key was sent to and is awaited for.
 */
export const WhatsAppIntegration = z
  .object({
    channel: z.literal('whatsapp'),
    ...delivery,
    phone: z.string().nullable(),
    pending_phone: z.string().nullable(),
    key_expires_at: z.number().int().nullable(),
  })
  .strict();
export type WhatsAppIntegration = z.infer<typeof WhatsAppIntegration>;

/** Any of the user's integrations, told apart by `channel`. */
export const UserIntegration = z.discriminatedUnion('channel', [
  EmailIntegration,
  TelegramIntegration,
  SlackIntegration,
  GChatIntegration,
  WhatsAppIntegration,
]);
export type UserIntegration = z.infer<typeof UserIntegration>;

/** Data of `get_user_integrations` (body `{}`): every integration of the signed-in user. */
export const UserIntegrationsData = z.array(UserIntegration);
export type UserIntegrationsData = z.infer<typeof UserIntegrationsData>;

/** Data of each channel's `get_user_info`: the integration, or null when the user has none. */
export const TelegramIntegrationData = TelegramIntegration.nullable();
export type TelegramIntegrationData = z.infer<typeof TelegramIntegrationData>;
export const SlackIntegrationData = SlackIntegration.nullable();
export type SlackIntegrationData = z.infer<typeof SlackIntegrationData>;
export const GChatIntegrationData = GChatIntegration.nullable();
export type GChatIntegrationData = z.infer<typeof GChatIntegrationData>;
export const WhatsAppIntegrationData = WhatsAppIntegration.nullable();
export type WhatsAppIntegrationData = z.infer<typeof WhatsAppIntegrationData>;

/** Data of `remove`. */
export const IntegrationRemovedData = z.object({ removed: z.literal(true) }).strict();
export type IntegrationRemovedData = z.infer<typeof IntegrationRemovedData>;

/** `telegram/bot_info` (body `{}`): the product's bot, from Telegram's getMe. */
export const TelegramBotInfoData = z
  .object({ username: z.string(), name: z.string(), link: z.string() })
  .strict();
export type TelegramBotInfoData = z.infer<typeof TelegramBotInfoData>;

/**
 * `telegram/integration_key` (body `{}`): a one-time key. The user sends `/start <key>` to the bot
 * (or opens `link`); the chat is linked the next time `get_user_info` or `get_user_integrations`
 * runs after the bot received it. A new key replaces the previous one.
 */
export const TelegramKeyData = z
  .object({
    key: z.string(),
    bot_username: z.string(),
    link: z.string(),
    expires_at: z.number().int(),
  })
  .strict();
export type TelegramKeyData = z.infer<typeof TelegramKeyData>;

/** A Slack conversation: a channel id (`C0123ABCD`) or `#name`. */
const SlackConversation = z
  .string()
  .trim()
  .regex(/^(#[a-z0-9][a-z0-9._-]{0,79}|[CDG][A-Z0-9]{6,})$/, 'expected a channel id (C0123ABCD) or #name');

/**
 * `slack/set_chat`: where the user's Slack alerts go, and enables it: an incoming webhook URL
 * (`https://hooks.slack.com/services/...`), or a conversation the product's bot posts to.
 */
export const SlackSetChatRequest = z.union([
  z.object({ webhook_url: z.url({ protocol: /^https?$/ }).max(500) }).strict(),
  z.object({ channel: SlackConversation }).strict(),
]);
export type SlackSetChatRequest = z.infer<typeof SlackSetChatRequest>;

/** `slack/bot_info` (body `{}`): the product's bot token's owner, from Slack's auth.test. */
export const SlackBotInfoData = z.object({ team: z.string(), user: z.string(), bot_id: z.string() }).strict();
export type SlackBotInfoData = z.infer<typeof SlackBotInfoData>;

/** `gchat/register` {webhook_url}: a space's incoming webhook (`https://chat.googleapis.com/v1/spaces/...`). */
export const GChatRegisterRequest = z
  .object({ webhook_url: z.url({ protocol: /^https?$/ }).max(1000) })
  .strict();
export type GChatRegisterRequest = z.infer<typeof GChatRegisterRequest>;

/** A phone number in international form, `+` optional: 6 to 15 digits. */
export const PhoneNumber = z
  .string()
  .trim()
  .regex(/^\+?\d{6,15}$/, 'expected a phone number in international form, e.g. +5511999998888');

/** `whatsapp/send_key` {phone}: sends a 6-digit code to the number by WhatsApp. */
export const WhatsAppSendKeyRequest = z.object({ phone: PhoneNumber }).strict();
export type WhatsAppSendKeyRequest = z.infer<typeof WhatsAppSendKeyRequest>;

/** `whatsapp/validate_key` {key}: the code received; a match makes the number the user's and enables it. */
export const WhatsAppValidateKeyRequest = z
  .object({
    key: z
      .string()
      .trim()
      .regex(/^\d{6}$/, 'expected the 6-digit code'),
  })
  .strict();
export type WhatsAppValidateKeyRequest = z.infer<typeof WhatsAppValidateKeyRequest>;

/** `whatsapp/bot_info` (body `{}`): the product's business number. */
export const WhatsAppBotInfoData = z.object({ phone: z.string(), name: z.string() }).strict();
export type WhatsAppBotInfoData = z.infer<typeof WhatsAppBotInfoData>;
