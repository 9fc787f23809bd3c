import type { MaintenanceItem, MaintenanceState } from '@flightdeck/schemas';
import { Badge, Button, Card, Group, Skeleton, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../app/time-range';
import { QueryError } from '../../servers/components/QueryError';
import { rowActions, shownSpan } from '../maintenance-form';
import { maintenanceListQuery } from '../queries';

export interface MaintenanceListProps {
  status: MaintenanceState;
  offsetMinutes: number;
  onFinish: (item: MaintenanceItem) => void;
  onRemove: (item: MaintenanceItem) => void;
}

/** The windows of one state as cards (they stack at narrow widths), with their actions. */
export function MaintenanceList({ status, offsetMinutes, onFinish, onRemove }: MaintenanceListProps) {
  const { t } = useTranslation();
  const list = useQuery(maintenanceListQuery(status));

  if (list.isPending) return <Skeleton height={96} aria-label={t('common.loading')} />;
  if (list.isError) {
    return (
      <QueryError
        title={t('maintenance.loadFailed')}
        error={list.error}
        retrying={list.isFetching}
        onRetry={() => void list.refetch()}
      />
    );
  }
  if (list.data.length === 0) {
    return (
      <Text c="dimmed" size="sm" py="md" data-testid={`maintenance-empty-${status}`}>
        {t(`maintenance.empty.${status}`)}
      </Text>
    );
  }
  return (
    <Stack gap="sm" data-testid={`maintenance-list-${status}`}>
      {list.data.map((item) => {
        const span = shownSpan(item);
        const actions = rowActions(item);
        const servers = item.all_servers
          ? t('maintenance.allServers')
          : item.servers.map((s) => s.name).join(', ');
        return (
          <Card key={item.id} withBorder padding="sm" data-testid="maintenance-row" data-id={item.id}>
            <Stack gap={6}>
              <Group justify="space-between" gap="xs" wrap="wrap">
                <Text fw={600} style={{ overflowWrap: 'anywhere', flex: '1 1 180px' }}>
                  {item.reason}
                </Text>
                <Group gap={6}>
                  {item.recurrence.kind !== 'none' && (
                    <Badge variant="light">{t(`maintenance.recurrence.${item.recurrence.kind}`)}</Badge>
                  )}
                  <Badge variant="light" color={item.approved ? 'teal' : 'gray'}>
                    {t(item.approved ? 'maintenance.approved' : 'maintenance.notApproved')}
                  </Badge>
                </Group>
              </Group>
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {servers}
                {item.service ? ` · ${t('maintenance.serviceOnly', { service: item.service })}` : ''}
              </Text>
              <Text size="sm" c="dimmed">
                {formatDateTime(span.start, offsetMinutes)} → {formatDateTime(span.end, offsetMinutes)}
                {item.finished_at !== null ? ` · ${t('maintenance.finishedEarly')}` : ''}
              </Text>
              {item.recurrence.kind === 'weekly' && (
                <Text size="xs" c="dimmed">
                  {item.recurrence.days.map((d) => t(`maintenance.weekdays.${d}`)).join(', ')}
                </Text>
              )}
              {(actions.finish || actions.remove) && (
                <Group gap="xs" justify="flex-end">
                  {actions.finish && (
                    <Button
                      size="xs"
                      variant="light"
                      onClick={() => onFinish(item)}
                      data-testid="maintenance-finish"
                    >
                      {t('maintenance.finish')}
                    </Button>
                  )}
                  {actions.remove && (
                    <Button
                      size="xs"
                      variant="subtle"
                      color="red"
                      onClick={() => onRemove(item)}
                      data-testid="maintenance-remove"
                    >
                      {t('maintenance.remove')}
                    </Button>
                  )}
                </Group>
              )}
            </Stack>
          </Card>
        );
      })}
    </Stack>
  );
}
