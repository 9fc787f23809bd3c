import { Card, Group, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useOnRefresh } from '../../app/refresh';
import { Icon } from '../../app/shell/icons';
import { useUserOffset } from '../../app/shell/PeriodPicker';
import { formatDateTime } from '../../app/time-range';
import { QueryError } from '../servers/components/QueryError';
import './alerts-styles';
import { flattenAlerts, orderGroups } from './alert-view';
import { AlertGroupCard } from './components/AlertGroupCard';
import { alertListQuery, alertsKeys } from './queries';
import { useNowSeconds } from './useNow';

/**
 * /flightdeck/cockpit/master_warning, the home page: the open alerts of every server, grouped by
 * server, most severe first. Live: each `alert` event refreshes it (the shell's event stream), and
 * it asks again every 60 s and on the shell's auto-refresh.
 */
export function MasterWarningPage() {
  const { t } = useTranslation();
  const offset = useUserOffset();
  const now = useNowSeconds();
  const queryClient = useQueryClient();
  const list = useQuery(alertListQuery);
  useOnRefresh(() => void queryClient.invalidateQueries({ queryKey: alertsKeys.list }));

  const groups = useMemo(() => orderGroups(list.data ?? []), [list.data]);
  const all = groups.flatMap((g) => flattenAlerts(g.alerts));
  const open = all.filter((a) => !a.acknowledged).length;

  return (
    <Stack gap="md" data-testid="master-warning-page">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Stack gap={4} style={{ flex: '1 1 240px', minWidth: 0 }}>
          <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
            {t('alerts.masterWarning.heading')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('alerts.masterWarning.intro')}
          </Text>
        </Stack>
        {list.data && (
          <Text size="xs" c="dimmed" data-testid="master-warning-summary">
            {t('alerts.masterWarning.summary', {
              open,
              acknowledged: all.length - open,
              servers: groups.length,
            })}
            {list.dataUpdatedAt > 0 &&
              ` · ${t('alerts.updatedAt', { time: formatDateTime(Math.floor(list.dataUpdatedAt / 1000), offset) })}`}
          </Text>
        )}
      </Group>

      {list.isPending && (
        <Stack gap="sm" aria-busy="true" aria-label={t('common.loading')}>
          {[0, 1].map((i) => (
            <Skeleton key={i} height={96} />
          ))}
        </Stack>
      )}
      {list.isError && (
        <QueryError
          title={t('alerts.listFailed')}
          error={list.error}
          retrying={list.isFetching}
          onRetry={() => void list.refetch()}
        />
      )}
      {list.data && groups.length === 0 && (
        <Card withBorder padding="xl" data-testid="master-warning-clear">
          <Stack align="center" ta="center" gap="xs">
            <ThemeIcon size={56} radius="xl" color="teal" variant="light">
              <Icon name="check" size={30} />
            </ThemeIcon>
            <Text fw={700} size="lg">
              {t('alerts.masterWarning.clearTitle')}
            </Text>
            <Text size="sm" c="dimmed">
              {t('alerts.masterWarning.clearBody')}
            </Text>
          </Stack>
        </Card>
      )}
      {groups.map((group) => (
        <AlertGroupCard key={group.server_id} group={group} offset={offset} now={now} canAcknowledge />
      ))}
    </Stack>
  );
}
