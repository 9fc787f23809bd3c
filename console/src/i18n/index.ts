import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE, isLocale, LOCALES, type Locale, localeCookie, readLocaleCookie } from './locale';

export { LOCALES, type Locale } from './locale';

type Dictionary = Record<string, unknown>;

/**
 * Two translation files per language, each its own chunk: the shell's and sign-in's texts, and the
 * texts of the feature pages behind sign-in (loaded by the signed-in shell), so the sign-in page
 * loads neither the other languages nor the pages it cannot show.
 */
const DICTIONARIES: Readonly<Record<Locale, () => Promise<{ default: Dictionary }>>> = {
  en: () => import('./en.json'),
  es: () => import('./es.json'),
  pt: () => import('./pt.json'),
};
const FEATURE_DICTIONARIES: Readonly<Record<Locale, () => Promise<{ default: Dictionary }>>> = {
  en: () => import('./en.features.json'),
  es: () => import('./es.features.json'),
  pt: () => import('./pt.features.json'),
};
const loadedFeatures = new Set<Locale>();
/** Set once the signed-in shell asked for the feature texts: a language switch then loads them too. */
let featuresWanted = false;

async function loadDictionary(locale: Locale): Promise<void> {
  if (!i18next.hasResourceBundle(locale, 'translation')) {
    const { default: dictionary } = await DICTIONARIES[locale]();
    i18next.addResourceBundle(locale, 'translation', dictionary, true, true);
  }
  if (featuresWanted && !loadedFeatures.has(locale)) {
    const { default: features } = await FEATURE_DICTIONARIES[locale]();
    i18next.addResourceBundle(locale, 'translation', features, true, true);
    loadedFeatures.add(locale);
  }
}

/**
 * Loads the feature pages' texts of the language in use (and of English, the fallback); the
 * signed-in shell waits for it before it shows a page.
 */
export async function loadFeatureTranslations(): Promise<void> {
  featuresWanted = true;
  const locale = currentLocale();
  await Promise.all([
    loadDictionary(locale),
    locale === DEFAULT_LOCALE ? undefined : loadDictionary(DEFAULT_LOCALE),
  ]);
}

/**
 * Starts i18next with the language remembered in the `locale` cookie (English when there is none)
 * and loads its translation file. A file that cannot load is logged and English is used instead.
 */
export async function initI18n(): Promise<typeof i18next> {
  const wanted = readLocaleCookie(document.cookie) ?? DEFAULT_LOCALE;
  await i18next.use(initReactI18next).init({
    resources: {},
    lng: wanted,
    fallbackLng: DEFAULT_LOCALE,
    supportedLngs: [...LOCALES],
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
  });
  let lng: Locale = wanted;
  try {
    await loadDictionary(wanted);
  } catch (err) {
    console.error(`the ${wanted} translation file could not be loaded`, err);
    lng = DEFAULT_LOCALE;
    await loadDictionary(DEFAULT_LOCALE);
  }
  await i18next.changeLanguage(lng);
  document.documentElement.lang = lng;
  return i18next;
}

/** The language in use, narrowed to the console's locales. */
export function currentLocale(): Locale {
  return isLocale(i18next.language) ? i18next.language : DEFAULT_LOCALE;
}

/**
 * Switches the language and remembers it for 365 days. Choosing the current language does nothing;
 * a translation file that cannot load, or a failed change, is logged and leaves the language as it
 * was (spec 5 and 8).
 */
export async function setLocale(locale: Locale): Promise<void> {
  if (locale === currentLocale()) return;
  try {
    await loadDictionary(locale);
    await i18next.changeLanguage(locale);
    // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from the browsers of many users still
    document.cookie = localeCookie(locale);
    document.documentElement.lang = locale;
  } catch (err) {
    console.error(`the language could not be changed to ${locale}`, err);
  }
}
