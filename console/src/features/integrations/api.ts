import {
  type ChatIntegrationChannel,
  GChatIntegration,
  GChatIntegrationData,
  type GChatRegisterRequest,
  IntegrationRemovedData,
  SlackBotInfoData,
  SlackIntegration,
  SlackIntegrationData,
  type SlackSetChatRequest,
  TelegramBotInfoData,
  TelegramIntegration,
  TelegramIntegrationData,
  TelegramKeyData,
  WhatsAppBotInfoData,
  WhatsAppIntegration,
  WhatsAppIntegrationData,
  type WhatsAppSendKeyRequest,
  type WhatsAppValidateKeyRequest,
} from '@flightdeck/schemas';
import { api } from '../../lib/api-client';

/**
 * Calls of spec 7, "Integrations" for the chat channels: every answer is checked against the
 * shared schemas (schemas/src/api/integrations.ts). Secrets come back masked by the api.
 */

const opts = (signal?: AbortSignal) => (signal ? { signal } : {});
const path = (channel: ChatIntegrationChannel, call: string) =>
  `/integrations/integration/${channel}/${call}`;

/** Each channel's integration and bot schemas, so the lifecycle calls stay generic. */
export const CHANNEL_SCHEMAS = {
  telegram: { info: TelegramIntegrationData, item: TelegramIntegration, bot: TelegramBotInfoData },
  slack: { info: SlackIntegrationData, item: SlackIntegration, bot: SlackBotInfoData },
  gchat: { info: GChatIntegrationData, item: GChatIntegration, bot: null },
  whatsapp: { info: WhatsAppIntegrationData, item: WhatsAppIntegration, bot: WhatsAppBotInfoData },
} as const;
type Schemas = typeof CHANNEL_SCHEMAS;

export function fetchIntegration<C extends ChatIntegrationChannel>(channel: C, signal?: AbortSignal) {
  const schema: Schemas[C]['info'] = CHANNEL_SCHEMAS[channel].info;
  return api.post(path(channel, 'get_user_info'), {}, schema, opts(signal));
}

export function setIntegrationEnabled<C extends ChatIntegrationChannel>(channel: C, enabled: boolean) {
  const schema: Schemas[C]['item'] = CHANNEL_SCHEMAS[channel].item;
  return api.post(path(channel, enabled ? 'enable' : 'disable'), {}, schema);
}

export function removeIntegration(channel: ChatIntegrationChannel) {
  return api.post(path(channel, 'remove'), {}, IntegrationRemovedData);
}

export function fetchTelegramBot(signal?: AbortSignal) {
  return api.post(path('telegram', 'bot_info'), {}, TelegramBotInfoData, opts(signal));
}

export function fetchSlackBot(signal?: AbortSignal) {
  return api.post(path('slack', 'bot_info'), {}, SlackBotInfoData, opts(signal));
}

export function fetchWhatsAppBot(signal?: AbortSignal) {
  return api.post(path('whatsapp', 'bot_info'), {}, WhatsAppBotInfoData, opts(signal));
}

export function telegramKey() {
  return api.post(path('telegram', 'integration_key'), {}, TelegramKeyData);
}

export function setSlackChat(request: SlackSetChatRequest) {
  return api.post(path('slack', 'set_chat'), request, SlackIntegration);
}

export function registerGChat(request: GChatRegisterRequest) {
  return api.post(path('gchat', 'register'), request, GChatIntegration);
}

export function sendWhatsAppKey(request: WhatsAppSendKeyRequest) {
  return api.post(path('whatsapp', 'send_key'), request, WhatsAppIntegration);
}

export function validateWhatsAppKey(request: WhatsAppValidateKeyRequest) {
  return api.post(path('whatsapp', 'validate_key'), request, WhatsAppIntegration);
}
