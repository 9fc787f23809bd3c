import { Alert, Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { type FormEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../i18n/error-message';
import { ApiError } from '../../lib/api-client';
import { usePageTitle } from '../../lib/page-title';
import { recoverPassword, requestPasswordRecovery, verifyRecoveryCode } from './api';
import { AuthCard } from './components/AuthCard';
import { CodeInput, isCode } from './components/CodeInput';
import { EmailField } from './components/EmailField';
import { type NewPasswordValues, newPasswordErrors, PasswordFields } from './components/PasswordFields';

const route = getRouteApi('/signin/recovery/password');
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+$/;

type Step = 'email' | 'code' | 'password' | 'done';

/**
 * /signin/recovery/password (spec 4, password recovery): the e-mail, then the 6-digit code it
 * receives, then the new password twice. /signin/recovery/cancel destroys the code.
 */
export function RecoveryPage() {
  const { t } = useTranslation();
  usePageTitle(t('auth.recovery.pageTitle'));
  const initial = route.useSearch().email ?? '';
  const [step, setStep] = useState<Step>('email');
  const [email, setEmail] = useState(initial);
  const [code, setCode] = useState('');

  const subheading = {
    email: t('auth.recovery.emailStep'),
    code: t('auth.recovery.codeStep', { email }),
    password: t('auth.recovery.passwordStep'),
    done: t('auth.recovery.doneStep'),
  }[step];

  return (
    <AuthCard heading={t('auth.recovery.heading')} subheading={subheading}>
      {step === 'email' && (
        <EmailStep
          email={email}
          onEmail={setEmail}
          onSent={() => {
            setCode('');
            setStep('code');
          }}
        />
      )}
      {step === 'code' && (
        <CodeStep
          email={email}
          code={code}
          onCode={setCode}
          onVerified={() => setStep('password')}
          onRestart={() => setStep('email')}
        />
      )}
      {step === 'password' && (
        <PasswordStep
          email={email}
          code={code}
          onDone={() => setStep('done')}
          onExpired={() => setStep('email')}
        />
      )}
      {step === 'done' && (
        <Stack gap="md">
          <Alert color="teal" variant="light" role="status" data-testid="recovery-done">
            {t('auth.recovery.changed')}
          </Alert>
          <Button component={Link} to="/signin" fullWidth size="md">
            {t('auth.signIn.submit')}
          </Button>
        </Stack>
      )}
      {step !== 'done' && (
        <Text size="sm" ta="center" mt="md">
          <Anchor component={Link} to="/signin" fw={600}>
            {t('legal.back')}
          </Anchor>
        </Text>
      )}
    </AuthCard>
  );
}

function EmailStep({
  email,
  onEmail,
  onSent,
}: {
  email: string;
  onEmail: (v: string) => void;
  onSent: () => void;
}) {
  const { t, i18n } = useTranslation();
  const [error, setError] = useState<string>();
  const mutation = useMutation({ mutationFn: requestPasswordRecovery, onSuccess: onSent });
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (mutation.isPending) return;
    const trimmed = email.trim();
    if (!trimmed) return setError(t('auth.signIn.emailRequired'));
    if (!EMAIL_PATTERN.test(trimmed)) return setError(t('auth.signIn.emailInvalid'));
    setError(undefined);
    onEmail(trimmed);
    mutation.mutate({ email: trimmed });
  }
  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('auth.recovery.heading')}>
      <Stack gap="md">
        {mutation.isError && (
          <Alert color="red" variant="light" role="alert">
            {errorMessage(i18n, mutation.error)}
          </Alert>
        )}
        <EmailField
          autoFocus
          value={email}
          error={error}
          onChange={(event) => onEmail(event.currentTarget.value)}
        />
        <Button type="submit" fullWidth size="md" loading={mutation.isPending}>
          {t('auth.recovery.sendCode')}
        </Button>
      </Stack>
    </form>
  );
}

function CodeStep({
  email,
  code,
  onCode,
  onVerified,
  onRestart,
}: {
  email: string;
  code: string;
  onCode: (v: string) => void;
  onVerified: () => void;
  onRestart: () => void;
}) {
  const { t, i18n } = useTranslation();
  const [error, setError] = useState<string>();
  const codeRef = useRef<HTMLInputElement>(null);
  const mutation = useMutation({
    mutationFn: verifyRecoveryCode,
    onSuccess: onVerified,
    onError: () => {
      onCode('');
      codeRef.current?.focus();
    },
  });
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (mutation.isPending) return;
    if (!isCode(code)) {
      setError(t('auth.code.invalid'));
      return;
    }
    setError(undefined);
    mutation.mutate({ email, code });
  }
  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('auth.recovery.heading')}>
      <Stack gap="md">
        {mutation.isError && (
          <Alert color="red" variant="light" role="alert" data-testid="recovery-error">
            {errorMessage(i18n, mutation.error)}
          </Alert>
        )}
        <CodeInput value={code} error={error} onChange={onCode} inputRef={codeRef} />
        <Button type="submit" fullWidth size="md" loading={mutation.isPending}>
          {t('auth.recovery.checkCode')}
        </Button>
        <Group justify="space-between" gap="xs">
          <Anchor component="button" type="button" size="sm" onClick={onRestart}>
            {t('auth.recovery.resend')}
          </Anchor>
          <Anchor
            component={Link}
            to="/signin/recovery/cancel"
            search={{ email } as never}
            size="sm"
            c="dimmed"
          >
            {t('auth.recovery.cancel')}
          </Anchor>
        </Group>
      </Stack>
    </form>
  );
}

function PasswordStep({
  email,
  code,
  onDone,
  onExpired,
}: {
  email: string;
  code: string;
  onDone: () => void;
  onExpired: () => void;
}) {
  const { t, i18n } = useTranslation();
  const [values, setValues] = useState<NewPasswordValues>({ password: '', confirmation: '' });
  const [errors, setErrors] = useState<ReturnType<typeof newPasswordErrors>>({});
  const mutation = useMutation({ mutationFn: recoverPassword, onSuccess: onDone });
  const expired = mutation.error instanceof ApiError && mutation.error.code === 'invalid_code';
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (mutation.isPending) return;
    const next = newPasswordErrors(values, t);
    setErrors(next);
    if (next.password || next.confirmation) return;
    mutation.mutate({ email, code, password: values.password, password_confirmation: values.confirmation });
  }
  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('auth.recovery.heading')}>
      <Stack gap="md">
        {mutation.isError && (
          <Alert color="red" variant="light" role="alert">
            {errorMessage(i18n, mutation.error)}{' '}
            {expired && (
              <Anchor component="button" type="button" inherit fw={600} onClick={onExpired}>
                {t('auth.recovery.resend')}
              </Anchor>
            )}
          </Alert>
        )}
        <PasswordFields values={values} errors={errors} onChange={setValues} />
        <Button type="submit" fullWidth size="md" loading={mutation.isPending}>
          {t('auth.recovery.save')}
        </Button>
      </Stack>
    </form>
  );
}
