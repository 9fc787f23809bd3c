import { TextInput, type TextInputProps } from '@mantine/core';
import type { Ref } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The e-mail field of the auth pages: one label, placeholder and set of keyboard hints (no
 * capitals, no spell check, the e-mail keyboard on phones); the rest comes from the page.
 */
export function EmailField({
  ref,
  autoComplete = 'username',
  ...props
}: Omit<TextInputProps, 'type' | 'name'> & { ref?: Ref<HTMLInputElement> }) {
  const { t } = useTranslation();
  return (
    <TextInput
      ref={ref}
      name="email"
      type="email"
      label={t('auth.signIn.email')}
      placeholder={t('auth.signIn.emailPlaceholder')}
      autoComplete={autoComplete}
      inputMode="email"
      autoCapitalize="none"
      spellCheck={false}
      required
      {...props}
    />
  );
}
