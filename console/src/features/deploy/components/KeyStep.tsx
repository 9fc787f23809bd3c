import { Alert, Button, Group, Skeleton, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../i18n/error-message';
import { QueryError } from '../../servers/components/QueryError';
import { useAgentKey } from '../queries';
import { CommandBlock } from './CommandBlock';

function formatTime(seconds: number, locale: string): string {
  return new Date(seconds * 1000).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
}

/**
 * Step 1, the access key: its prefix and Create / Rotate. Right after either, the full key is
 * shown with a copy button and a warning that it will not be shown again.
 */
export function KeyStep() {
  const { t, i18n } = useTranslation();
  const { key, create } = useAgentKey();
  const [confirming, setConfirming] = useState(false);

  if (key.isPending) return <Skeleton height={60} aria-busy="true" aria-label={t('common.loading')} />;
  if (key.isError) {
    return (
      <QueryError
        title={t('deploy.key.loadFailed')}
        error={key.error}
        retrying={key.isFetching}
        onRetry={() => void key.refetch()}
      />
    );
  }
  const current = key.data;
  const run = (rotate: boolean) => create.mutate(rotate, { onSettled: () => setConfirming(false) });

  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {t('deploy.key.intro')}
      </Text>
      {current === null && (
        <Group gap="sm" justify="space-between">
          <Text size="sm" data-testid="deploy-key-none">
            {t('deploy.key.none')}
          </Text>
          <Button onClick={() => run(false)} loading={create.isPending} data-testid="deploy-key-create">
            {t('deploy.key.create')}
          </Button>
        </Group>
      )}
      {current !== null && current.key !== null && (
        <Alert
          color="yellow"
          variant="light"
          title={t('deploy.key.onceTitle')}
          styles={{ wrapper: { minWidth: 0 }, body: { minWidth: 0 } }}
          data-testid="deploy-key-once"
        >
          <Stack gap="xs">
            <Text size="sm">{t('deploy.key.onceBody')}</Text>
            <CommandBlock label={t('deploy.key.label')} value={current.key} testId="deploy-key-full" wrap />
          </Stack>
        </Alert>
      )}
      {current !== null && (
        <Group gap="sm" justify="space-between" align="flex-end">
          <Stack gap={2}>
            <Text size="sm">
              {t('deploy.key.prefix')}{' '}
              <Text span ff="monospace" fw={600} data-testid="deploy-key-prefix">
                {current.key_prefix}…
              </Text>
            </Text>
            <Text size="xs" c="dimmed">
              {t('deploy.key.created', { time: formatTime(current.created_at, i18n.language) })}
              {' · '}
              {current.last_used_at === null
                ? t('deploy.key.neverUsed')
                : t('deploy.key.lastUsed', { time: formatTime(current.last_used_at, i18n.language) })}
            </Text>
          </Stack>
          {!confirming && (
            <Button variant="default" onClick={() => setConfirming(true)} data-testid="deploy-key-rotate">
              {t('deploy.key.rotate')}
            </Button>
          )}
        </Group>
      )}
      {confirming && (
        <Alert
          color="orange"
          variant="light"
          title={t('deploy.key.rotateTitle')}
          data-testid="deploy-key-confirm"
        >
          <Stack gap="xs">
            <Text size="sm">{t('deploy.key.rotateBody')}</Text>
            <Group gap="sm">
              <Button
                color="orange"
                onClick={() => run(true)}
                loading={create.isPending}
                data-testid="deploy-key-rotate-confirm"
              >
                {t('deploy.key.rotateConfirm')}
              </Button>
              <Button variant="default" onClick={() => setConfirming(false)} disabled={create.isPending}>
                {t('deploy.cancel')}
              </Button>
            </Group>
          </Stack>
        </Alert>
      )}
      {create.isError && (
        <Alert color="red" variant="light" role="alert" title={t('deploy.key.createFailed')}>
          {errorMessage(i18n, create.error)}
        </Alert>
      )}
    </Stack>
  );
}
