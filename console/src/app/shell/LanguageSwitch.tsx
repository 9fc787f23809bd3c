import { NativeSelect } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { setLocale } from '../../i18n';
import { isLocale, LOCALES, type Locale } from '../../i18n/locale';

/**
 * A plain select: keyboard and screen-reader friendly everywhere, and light on the bundle. The shell
 * passes `onChange` to also save the choice as the user's preference; `compact` narrows it.
 */
export function LanguageSwitch({
  onChange,
  compact = false,
}: {
  onChange?: (locale: Locale) => void;
  compact?: boolean;
}) {
  const { t, i18n } = useTranslation();
  return (
    <NativeSelect
      name="locale"
      size="xs"
      aria-label={t('common.language')}
      value={i18n.language}
      onChange={(event) => {
        const value = event.currentTarget.value;
        if (!isLocale(value) || value === i18n.language) return;
        if (onChange) onChange(value);
        else void setLocale(value);
      }}
      data={LOCALES.map((locale) => ({ value: locale, label: t(`common.languages.${locale}`) }))}
      w={compact ? { base: 104, sm: 120 } : 120}
    />
  );
}
