import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../i18n';
import { errorMessage } from '../../i18n/error-message';
import { ApiError } from '../../lib/api-client';
import { usePageTitle } from '../../lib/page-title';
import { signUp } from './api';
import { AuthCard } from './components/AuthCard';
import { EmailField } from './components/EmailField';
import { type NewPasswordValues, newPasswordErrors, PasswordFields } from './components/PasswordFields';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+$/;

type Errors = Partial<Record<'name' | 'email' | 'password' | 'confirmation', string>>;

/** /signup: a freemium account (spec 2 and 4). The server e-mails a code, checked on /signup/verify. */
export function SignUpPage() {
  const { t, i18n } = useTranslation();
  usePageTitle(t('auth.signUp.pageTitle'));
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [company, setCompany] = useState('');
  const [passwords, setPasswords] = useState<NewPasswordValues>({ password: '', confirmation: '' });
  const [errors, setErrors] = useState<Errors>({});

  const mutation = useMutation({
    mutationFn: signUp,
    onSuccess: async (_, body) => {
      await navigate({ to: '/signup/verify', search: { email: body.email } });
    },
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (mutation.isPending) return;
    const next: Errors = { ...newPasswordErrors(passwords, t) };
    if (!name.trim()) next.name = t('auth.signUp.nameRequired');
    if (!email.trim()) next.email = t('auth.signIn.emailRequired');
    else if (!EMAIL_PATTERN.test(email.trim())) next.email = t('auth.signIn.emailInvalid');
    setErrors(next);
    const first = (['name', 'email', 'password', 'confirmation'] as const).find((field) => next[field]);
    if (first) {
      const selector = {
        name: 'name',
        email: 'email',
        password: 'new-password',
        confirmation: 'password-confirmation',
      }[first];
      document.querySelector<HTMLInputElement>(`input[name="${selector}"]`)?.focus();
      return;
    }
    mutation.mutate({
      name: name.trim(),
      email: email.trim(),
      password: passwords.password,
      ...(company.trim() ? { company: company.trim() } : {}),
      locale: currentLocale(),
    });
  }

  const taken = mutation.error instanceof ApiError && mutation.error.code === 'email_taken';

  return (
    <AuthCard heading={t('auth.signUp.heading')} subheading={t('auth.signUp.subheading')}>
      <form onSubmit={onSubmit} noValidate aria-label={t('auth.signUp.heading')}>
        <Stack gap="md">
          {mutation.isError && (
            <Alert color="red" variant="light" role="alert" data-testid="signup-error">
              {errorMessage(i18n, mutation.error)}{' '}
              {taken && (
                <Anchor
                  component={Link}
                  to="/signin/recovery/password"
                  search={{ email: email.trim() } as never}
                  inherit
                  fw={600}
                >
                  {t('auth.signIn.forgot')}
                </Anchor>
              )}
            </Alert>
          )}
          <TextInput
            name="name"
            label={t('auth.signUp.name')}
            autoComplete="name"
            required
            autoFocus
            value={name}
            error={errors.name}
            onChange={(event) => setName(event.currentTarget.value)}
          />
          <EmailField
            autoComplete="email"
            value={email}
            error={errors.email}
            onChange={(event) => setEmail(event.currentTarget.value)}
          />
          <TextInput
            name="company"
            label={t('auth.signUp.company')}
            description={t('auth.signUp.companyHint')}
            autoComplete="organization"
            value={company}
            onChange={(event) => setCompany(event.currentTarget.value)}
          />
          <PasswordFields values={passwords} errors={errors} onChange={setPasswords} />
          <Button type="submit" fullWidth size="md" mt="xs" loading={mutation.isPending}>
            {t('auth.signUp.submit')}
          </Button>
          <Text size="sm" ta="center">
            {t('auth.signUp.haveAccount')}{' '}
            <Anchor component={Link} to="/signin" fw={600}>
              {t('auth.signIn.submit')}
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthCard>
  );
}
