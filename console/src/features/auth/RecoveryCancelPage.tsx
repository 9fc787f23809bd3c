import { Alert, Anchor, Button, Loader, Stack } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../i18n/error-message';
import { usePageTitle } from '../../lib/page-title';
import { destroyRecoveryCode } from './api';
import { AuthCard } from './components/AuthCard';

const route = getRouteApi('/signin/recovery/cancel');

/**
 * /signin/recovery/cancel?email=…: destroys the live recovery code of the e-mail, from the link in
 * the recovery mail ("I did not ask for this") or the Cancel link of the recovery page.
 */
export function RecoveryCancelPage() {
  const { t, i18n } = useTranslation();
  usePageTitle(t('auth.recoveryCancel.pageTitle'));
  const { email } = route.useSearch();
  const mutation = useMutation({ mutationFn: destroyRecoveryCode });
  const asked = useRef(false);

  useEffect(() => {
    // Once per visit, even when React runs effects twice in development.
    if (!email || asked.current) return;
    asked.current = true;
    mutation.mutate({ email });
  }, [email, mutation]);

  return (
    <AuthCard heading={t('auth.recoveryCancel.heading')}>
      <Stack gap="md" align="stretch">
        {!email && (
          <Alert color="yellow" variant="light" role="alert">
            {t('auth.recoveryCancel.noEmail')}
          </Alert>
        )}
        {mutation.isPending && <Loader mx="auto" aria-label={t('common.loading')} />}
        {mutation.isSuccess && (
          <Alert color="teal" variant="light" role="status" data-testid="recovery-cancelled">
            {t('auth.recoveryCancel.done', { email })}
          </Alert>
        )}
        {mutation.isError && (
          <Alert color="red" variant="light" role="alert">
            {errorMessage(i18n, mutation.error)}
            <Button
              size="xs"
              variant="light"
              color="red"
              mt="xs"
              display="block"
              onClick={() => email && mutation.mutate({ email })}
            >
              {t('common.retry')}
            </Button>
          </Alert>
        )}
        <Anchor component={Link} to="/signin" fw={600} ta="center">
          {t('legal.back')}
        </Anchor>
      </Stack>
    </AuthCard>
  );
}
