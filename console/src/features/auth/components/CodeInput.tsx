import { TextInput } from '@mantine/core';
import type { Ref } from 'react';
import { useTranslation } from 'react-i18next';

/** The 6-digit code from the e-mail: digits only, offered by the phone's one-time-code autofill. */
export function CodeInput({
  value,
  error,
  onChange,
  inputRef,
}: {
  value: string;
  error?: string | undefined;
  onChange: (value: string) => void;
  inputRef?: Ref<HTMLInputElement>;
}) {
  const { t } = useTranslation();
  return (
    <TextInput
      ref={inputRef}
      name="code"
      label={t('auth.code.label')}
      description={t('auth.code.hint')}
      placeholder="000000"
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      required
      autoFocus
      value={value}
      error={error}
      styles={{ input: { letterSpacing: '0.4em', fontVariantNumeric: 'tabular-nums', fontSize: 20 } }}
      onChange={(event) => onChange(event.currentTarget.value.replace(/\D/g, '').slice(0, 6))}
    />
  );
}

/** Whether a value is a whole 6-digit code. */
export function isCode(value: string): boolean {
  return /^\d{6}$/.test(value);
}
