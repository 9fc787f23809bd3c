import type { SigninRequest } from '@flightdeck/schemas';
import { Alert, Anchor, Button, Group, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, type KeyboardEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AuthLayout } from '../../app/shell/AuthLayout';
import { LogoMark } from '../../app/shell/Logo';
import { errorMessage } from '../../i18n/error-message';
import { ApiError } from '../../lib/api-client';
import { usePageTitle } from '../../lib/page-title';
import { afterSignInPath } from '../../lib/redirect';
import { signIn } from './api';
import { EmailField } from './components/EmailField';

const route = getRouteApi('/signin');
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+$/;

type FieldErrors = Partial<Record<keyof SigninRequest, string>>;

export function SignInPage() {
  const { t, i18n } = useTranslation();
  usePageTitle(t('auth.signIn.pageTitle'));
  const { redirect } = route.useSearch();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [capsLock, setCapsLock] = useState(false);
  const [passwordVisible, setPasswordVisible] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  const mutation = useMutation({
    mutationFn: signIn,
    onSuccess: async () => {
      // Whatever an earlier session cached (menu, plan, preferences) belongs to that session.
      queryClient.clear();
      await navigate({ href: afterSignInPath(redirect), replace: true });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.code === 'invalid_credentials') {
        setPassword('');
        passwordRef.current?.focus();
      }
    },
  });

  function validate(): FieldErrors {
    const errors: FieldErrors = {};
    const trimmed = email.trim();
    if (!trimmed) errors.email = t('auth.signIn.emailRequired');
    else if (!EMAIL_PATTERN.test(trimmed)) errors.email = t('auth.signIn.emailInvalid');
    if (!password) errors.password = t('auth.signIn.passwordRequired');
    return errors;
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (mutation.isPending) return;
    const errors = validate();
    setFieldErrors(errors);
    if (errors.email) return emailRef.current?.focus();
    if (errors.password) return passwordRef.current?.focus();
    mutation.mutate({ email: email.trim(), password });
  }

  function trackCapsLock(event: KeyboardEvent<HTMLInputElement>) {
    setCapsLock(event.getModifierState('CapsLock'));
  }

  return (
    <AuthLayout>
      <Paper withBorder shadow="md" radius="lg" p={{ base: 'lg', xs: 'xl' }} w="100%" maw={420}>
        <Stack gap={6} align="center" ta="center" mb="lg">
          <LogoMark size={44} />
          <Title order={1} fz={{ base: 22, xs: 26 }} mt="xs">
            {t('auth.signIn.heading')}
          </Title>
          <Text c="dimmed" size="sm">
            {t('auth.signIn.subheading')}
          </Text>
        </Stack>
        <form onSubmit={onSubmit} noValidate aria-label={t('auth.signIn.heading')}>
          <Stack gap="md">
            {mutation.isError && (
              <Alert color="red" variant="light" role="alert" data-testid="signin-error">
                {errorMessage(i18n, mutation.error)}
              </Alert>
            )}
            <EmailField
              ref={emailRef}
              autoFocus
              value={email}
              error={fieldErrors.email}
              onChange={(event) => {
                setEmail(event.currentTarget.value);
                if (fieldErrors.email) setFieldErrors((prev) => ({ ...prev, email: undefined }));
              }}
            />
            <PasswordInput
              ref={passwordRef}
              name="password"
              label={t('auth.signIn.password')}
              placeholder={t('auth.signIn.passwordPlaceholder')}
              autoComplete="current-password"
              required
              value={password}
              error={fieldErrors.password}
              onChange={(event) => {
                setPassword(event.currentTarget.value);
                if (fieldErrors.password) setFieldErrors((prev) => ({ ...prev, password: undefined }));
              }}
              onKeyDown={trackCapsLock}
              onKeyUp={trackCapsLock}
              onBlur={() => setCapsLock(false)}
              inputWrapperOrder={['label', 'input', 'description', 'error']}
              description={
                capsLock ? (
                  <Text component="span" role="status" size="xs" c="orange.8" data-testid="caps-lock-warning">
                    ⚠ {t('auth.signIn.capsLock')}
                  </Text>
                ) : undefined
              }
              visible={passwordVisible}
              onVisibilityChange={setPasswordVisible}
              visibilityToggleButtonProps={{
                'aria-label': passwordVisible ? t('auth.signIn.hidePassword') : t('auth.signIn.showPassword'),
              }}
            />
            <Group justify="flex-end" mt={-8}>
              <Anchor
                component={Link}
                to="/signin/recovery/password"
                search={{ email: email.trim() || undefined } as never}
                size="sm"
              >
                {t('auth.signIn.forgot')}
              </Anchor>
            </Group>
            <Button type="submit" fullWidth size="md" loading={mutation.isPending}>
              {t('auth.signIn.submit')}
            </Button>
            <Text size="sm" ta="center">
              {t('auth.signIn.noAccount')}{' '}
              <Anchor component={Link} to="/signup" fw={600}>
                {t('auth.signIn.signUp')}
              </Anchor>
            </Text>
          </Stack>
        </form>
      </Paper>
    </AuthLayout>
  );
}
