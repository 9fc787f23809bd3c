import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from './en.json';
import es from './es.json';
import { DEFAULT_LOCALE, isLocale, LOCALES, type Locale, localeCookie, readLocaleCookie } from './locale';
import pt from './pt.json';

export { LOCALES, type Locale } from './locale';

/** All three dictionaries are bundled: together they weigh a few kB, less than a second request. */
export const resources = {
  en: { translation: en },
  es: { translation: es },
  pt: { translation: pt },
} as const;

/** Starts i18next with the language remembered in the `locale` cookie (English when there is none). */
export function initI18n(): typeof i18next {
  const lng = readLocaleCookie(document.cookie) ?? DEFAULT_LOCALE;
  void i18next.use(initReactI18next).init({
    resources,
    lng,
    fallbackLng: DEFAULT_LOCALE,
    supportedLngs: [...LOCALES],
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
  });
  document.documentElement.lang = lng;
  return i18next;
}

/** The language in use, narrowed to the console's locales. */
export function currentLocale(): Locale {
  return isLocale(i18next.language) ? i18next.language : DEFAULT_LOCALE;
}

/**
 * Switches the language and remembers it for 365 days. Choosing the current language does nothing;
 * a failed change is logged and leaves the language as it was (spec 5 and 8).
 */
export async function setLocale(locale: Locale): Promise<void> {
  if (locale === currentLocale()) return;
  try {
    await i18next.changeLanguage(locale);
    // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from the browsers of many users still
    document.cookie = localeCookie(locale);
    document.documentElement.lang = locale;
  } catch (err) {
    console.error('language change failed', err);
  }
}
