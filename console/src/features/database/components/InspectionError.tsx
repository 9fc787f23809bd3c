import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client';
import { QueryError } from '../../servers/components/QueryError';

/**
 * A live call that failed: the translated reason and a retry button, then the server's own words
 * (they name the target: "127.0.0.1:5432: connection refused") when the translation replaced them.
 */
export function InspectionError({
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
  const { i18n } = useTranslation();
  const detail =
    error instanceof ApiError && i18n.exists(`errors.${error.code}`) && error.message ? error.message : null;
  return (
    <Stack gap={4}>
      <QueryError title={title} error={error} retrying={retrying} onRetry={onRetry} />
      {detail && (
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }} data-testid="inspection-error-detail">
          {detail}
        </Text>
      )}
    </Stack>
  );
}
