import { Alert, Button, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../i18n/error-message';

/** A failed part of the page: what went wrong and a retry button. */
export function QueryError({
  title,
  error,
  retrying,
  onRetry,
}: {
  title: string;
  error: unknown;
  retrying: boolean;
  onRetry: () => void;
}) {
  const { t, i18n } = useTranslation();
  return (
    <Alert color="red" variant="light" role="alert" title={title}>
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{errorMessage(i18n, error)}</Text>
        <Button size="xs" variant="light" color="red" loading={retrying} onClick={onRetry}>
          {t('common.retry')}
        </Button>
      </Stack>
    </Alert>
  );
}
