import { NativeSelect } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { setLocale } from '../../i18n';
import { isLocale, LOCALES } from '../../i18n/locale';

/** A plain select: keyboard and screen-reader friendly everywhere, and light on the bundle. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  return (
    <NativeSelect
      name="locale"
      size="xs"
      aria-label={t('common.language')}
      value={i18n.language}
      onChange={(event) => {
        const value = event.currentTarget.value;
        if (isLocale(value)) void setLocale(value);
      }}
      data={LOCALES.map((locale) => ({ value: locale, label: t(`common.languages.${locale}`) }))}
      w={120}
    />
  );
}
