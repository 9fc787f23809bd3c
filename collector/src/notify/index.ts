export * from './config';
export * from './contract';
export { createEmailNotifier, DEFAULT_SMTP_TIMEOUT_MS, type EmailNotifierOptions } from './email';
export { createGChatNotifier, GCHAT_API_URL, type GChatNotifierOptions } from './gchat';
export * from './messages';
export * from './outbox';
export { createSqliteOutbox, type SqliteOutboxOptions } from './outbox-sqlite';
export * from './queue';
export * from './registry';
export {
  createSlackNotifier,
  SLACK_API_URL,
  SLACK_WEBHOOK_URL,
  type SlackBotInfo,
  type SlackNotifier,
  type SlackNotifierOptions,
} from './slack';
export {
  createTelegramNotifier,
  TELEGRAM_API_URL,
  type TelegramBotInfo,
  type TelegramNotifier,
  type TelegramNotifierOptions,
} from './telegram';
export {
  createWhatsAppNotifier,
  WHATSAPP_API_URL,
  WHATSAPP_API_VERSION,
  type WhatsAppNotifier,
  type WhatsAppNotifierOptions,
  type WhatsAppNumberInfo,
} from './whatsapp';
