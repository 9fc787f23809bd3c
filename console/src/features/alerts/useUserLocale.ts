import type { UserLocale } from '@flightdeck/schemas';
import { useTranslation } from 'react-i18next';
import { DEFAULT_LOCALE, isLocale } from '../../i18n/locale';

/** The language the console shows, as the alert-type catalogue names it. */
export function useUserLocale(): UserLocale {
  const { i18n } = useTranslation();
  return isLocale(i18n.language) ? i18n.language : DEFAULT_LOCALE;
}
