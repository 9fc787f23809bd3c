import { PasswordInput, Stack } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Spec: a new password has at least 8 characters (NewPassword in schemas). */
export const MIN_PASSWORD_LENGTH = 8;

export interface NewPasswordValues {
  password: string;
  confirmation: string;
}

/** Checks a new password and its confirmation; the mismatch reads "The passwords do not match!" (spec 8). */
export function newPasswordErrors(
  values: NewPasswordValues,
  t: (key: string, options?: Record<string, unknown>) => string,
): Partial<Record<keyof NewPasswordValues, string>> {
  const errors: Partial<Record<keyof NewPasswordValues, string>> = {};
  if (values.password.length < MIN_PASSWORD_LENGTH) {
    errors.password = t('auth.password.tooShort', { count: MIN_PASSWORD_LENGTH });
  }
  if (!values.confirmation) errors.confirmation = t('auth.password.confirmRequired');
  else if (values.confirmation !== values.password) errors.confirmation = t('errors.passwords_mismatch');
  return errors;
}

interface PasswordFieldsProps {
  values: NewPasswordValues;
  errors: Partial<Record<keyof NewPasswordValues, string>>;
  onChange: (values: NewPasswordValues) => void;
}

/** A new password and its confirmation, each with a show/hide button that says what it does. */
export function PasswordFields({ values, errors, onChange }: PasswordFieldsProps) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  const toggle = {
    'aria-label': visible ? t('auth.signIn.hidePassword') : t('auth.signIn.showPassword'),
  };
  return (
    <Stack gap="md">
      <PasswordInput
        name="new-password"
        label={t('auth.password.new')}
        description={t('auth.password.hint', { count: MIN_PASSWORD_LENGTH })}
        autoComplete="new-password"
        required
        value={values.password}
        error={errors.password}
        visible={visible}
        onVisibilityChange={setVisible}
        visibilityToggleButtonProps={toggle}
        onChange={(event) => onChange({ ...values, password: event.currentTarget.value })}
      />
      <PasswordInput
        name="password-confirmation"
        label={t('auth.password.confirm')}
        autoComplete="new-password"
        required
        value={values.confirmation}
        error={errors.confirmation}
        visible={visible}
        onVisibilityChange={setVisible}
        visibilityToggleButtonProps={toggle}
        onChange={(event) => onChange({ ...values, confirmation: event.currentTarget.value })}
      />
    </Stack>
  );
}
