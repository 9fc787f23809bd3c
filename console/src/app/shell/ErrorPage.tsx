import { Anchor, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../i18n/error-message';
import { ApiError } from '../../lib/api-client';
import { useTabTitle } from '../../lib/page-title';
import { AuthLayout } from './AuthLayout';

/** Spec 2 "Error page": 404 and 400 read "Page Not Found", 403 "Invalid Access", else "Internal Error". */
export function ErrorContent({ status, detail }: { status: number; detail?: string | undefined }) {
  const { t } = useTranslation();
  const kind = status === 404 || status === 400 ? 'notFound' : status === 403 ? 'forbidden' : 'internal';
  useTabTitle(kind === 'notFound' ? t('errorPage.notFound.tabTitle') : t('errorPage.tabTitle'));
  return (
    <Paper withBorder shadow="sm" p="xl" w="100%" maw={460} mx="auto" data-testid="error-page">
      <Stack gap="sm" align="center" ta="center">
        <Text fz={56} fw={800} lh={1} c="dimmed" aria-hidden="true">
          {status}
        </Text>
        <Title order={1} fz="h2">
          {t(`errorPage.${kind}.title`)}
        </Title>
        <Text fw={500}>{t(`errorPage.${kind}.message`)}</Text>
        {(kind === 'notFound' || detail) && (
          <Text c="dimmed" size="sm">
            {kind === 'notFound' ? t('errorPage.notFound.detail') : detail}
          </Text>
        )}
        <Anchor component={Link} to="/" fw={600} mt="xs">
          {t('errorPage.goBack')}
        </Anchor>
      </Stack>
    </Paper>
  );
}

/** The error page of the open pages, in the auth layout. */
export function ErrorPage(props: { status: number; detail?: string | undefined }) {
  return (
    <AuthLayout>
      <ErrorContent {...props} />
    </AuthLayout>
  );
}

export function NotFoundPage() {
  return <ErrorPage status={404} />;
}

/** The status and wording of a route that failed: the error's status when it has one, 500 otherwise (spec 8). */
export function useRouteError(error: unknown): { status: number; detail: string | undefined } {
  const { i18n } = useTranslation();
  const status = error instanceof ApiError && error.status > 0 ? error.status : 500;
  if (status >= 500) console.error('route failed', error);
  // The internal-error text already says what "internal" would; name other causes (no API, bad answer).
  const detail =
    error instanceof ApiError && error.code !== 'internal' ? errorMessage(i18n, error) : undefined;
  return { status, detail };
}

/** Router error boundary of the open pages. */
export function RouteErrorPage({ error }: { error: unknown }) {
  const { status, detail } = useRouteError(error);
  return <ErrorPage status={status} detail={detail} />;
}
