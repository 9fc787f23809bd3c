import type { TelegramIntegration, WhatsAppIntegration } from '@flightdeck/schemas';
import type { i18n as I18n } from 'i18next';
import { errorMessage } from '../../i18n/error-message';
import { ApiError } from '../../lib/api-client';

/**
 * The settings a channel lacks on this server, when a call was refused because the channel is
 * not configured (400 `bad_config`, "... is not configured on this server: set X."); else null.
 */
export function missingSetting(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.code !== 'bad_config') return null;
  const named = /set (.+?)\.?$/.exec(error.message);
  return named?.[1] ?? '';
}

/** Where a Telegram integration stands: none, a key waiting to be sent to the bot, or a linked chat. */
export function telegramState(
  integration: TelegramIntegration | null | undefined,
  nowSeconds: number,
): 'none' | 'waiting' | 'linked' {
  if (integration?.chat_id) return 'linked';
  if (integration?.key_expires_at != null && integration.key_expires_at >= nowSeconds) return 'waiting';
  return 'none';
}

/** Where a WhatsApp integration stands: no number, a code waiting for a number, or a validated number. */
export function whatsAppState(
  integration: WhatsAppIntegration | null | undefined,
  nowSeconds: number,
): 'none' | 'waiting' | 'validated' {
  if (integration?.pending_phone && (integration.key_expires_at ?? 0) >= nowSeconds) return 'waiting';
  return integration?.phone ? 'validated' : 'none';
}

/**
 * The words for a refused set-up call: a validation refusal keeps the api's own sentence (it says
 * what is wrong with the URL or number, without its field prefix); anything else reads as usual.
 */
export function refusalText(i18n: Pick<I18n, 't' | 'exists'>, error: unknown): string {
  if (error instanceof ApiError && error.code === 'validation_failed' && error.message) {
    return error.message.replace(/^[a-z_]+: /, '');
  }
  return errorMessage(i18n, error);
}
