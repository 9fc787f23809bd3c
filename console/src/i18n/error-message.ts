import type { i18n as I18n } from 'i18next';
import { ApiError } from '../lib/api-client';

/**
 * The text to show for a failed call: the translation of `errors.<code>`, or the server's English
 * message when the code has no translation. Anything that is not an ApiError reads as "internal".
 */
export function errorMessage(i18n: Pick<I18n, 't' | 'exists'>, error: unknown): string {
  if (error instanceof ApiError) {
    const key = `errors.${error.code}`;
    return i18n.exists(key) ? i18n.t(key) : error.message;
  }
  return i18n.t('errors.internal');
}
