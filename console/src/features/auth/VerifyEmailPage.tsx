import { Alert, Anchor, Button, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../i18n/error-message';
import { usePageTitle } from '../../lib/page-title';
import { HOME_PATH } from '../../lib/redirect';
import { verifyEmail } from './api';
import { AuthCard } from './components/AuthCard';
import { CodeInput, isCode } from './components/CodeInput';

const route = getRouteApi('/signup/verify');

/** /signup/verify?email=…: the 6-digit code from the e-mail; a right code creates the account and signs in. */
export function VerifyEmailPage() {
  const { t, i18n } = useTranslation();
  usePageTitle(t('auth.verify.pageTitle'));
  const { email } = route.useSearch();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string>();
  const codeRef = useRef<HTMLInputElement>(null);

  const mutation = useMutation({
    mutationFn: verifyEmail,
    onSuccess: async () => {
      queryClient.clear();
      await navigate({ href: HOME_PATH, replace: true });
    },
    onError: () => {
      setCode('');
      codeRef.current?.focus();
    },
  });

  if (!email) {
    return (
      <AuthCard heading={t('auth.verify.heading')}>
        <Stack gap="md">
          <Alert color="yellow" variant="light" role="alert">
            {t('auth.verify.noEmail')}
          </Alert>
          <Anchor component={Link} to="/signup" fw={600} ta="center">
            {t('auth.verify.backToSignUp')}
          </Anchor>
        </Stack>
      </AuthCard>
    );
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (mutation.isPending || !email) return;
    if (!isCode(code)) {
      setCodeError(t('auth.code.invalid'));
      codeRef.current?.focus();
      return;
    }
    setCodeError(undefined);
    mutation.mutate({ email, code });
  }

  return (
    <AuthCard heading={t('auth.verify.heading')} subheading={t('auth.verify.subheading', { email })}>
      <form onSubmit={onSubmit} noValidate aria-label={t('auth.verify.heading')}>
        <Stack gap="md">
          {mutation.isError && (
            <Alert color="red" variant="light" role="alert" data-testid="verify-error">
              {errorMessage(i18n, mutation.error)}
            </Alert>
          )}
          <CodeInput value={code} error={codeError} onChange={setCode} inputRef={codeRef} />
          <Button type="submit" fullWidth size="md" loading={mutation.isPending}>
            {t('auth.verify.submit')}
          </Button>
          <Text size="sm" ta="center" c="dimmed">
            {t('auth.verify.wrongEmail')}{' '}
            <Anchor component={Link} to="/signup" fw={600}>
              {t('auth.verify.backToSignUp')}
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthCard>
  );
}
