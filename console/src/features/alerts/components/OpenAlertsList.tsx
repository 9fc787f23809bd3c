import { Box, Card, Group, Skeleton, Stack, Text, ThemeIcon } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../../app/shell/icons';
import { useUserOffset } from '../../../app/shell/PeriodPicker';
import { HOME_PATH } from '../../../lib/redirect';
import { QueryError } from '../../servers/components/QueryError';
import { chipGroups, flattenAlerts, STATUS_COLORS } from '../alert-view';
import { alertListQuery } from '../queries';
import { useNowSeconds } from '../useNow';
import { AlertRow } from './AlertRow';
import { AnchorLink } from './AnchorLink';

/**
 * What the chip and the master-caution light open: the open alerts not acknowledged, by server,
 * most severe first (spec 4: acknowledged ones are hidden here until their time runs out).
 */
export function OpenAlertsList() {
  const { t } = useTranslation();
  const offset = useUserOffset();
  const now = useNowSeconds();
  const list = useQuery(alertListQuery);
  const groups = useMemo(() => chipGroups(list.data ?? []), [list.data]);
  const hidden = useMemo(
    () => (list.data ?? []).flatMap((g) => flattenAlerts(g.alerts)).filter((a) => a.acknowledged).length,
    [list.data],
  );

  return (
    <Stack gap="sm" data-testid="open-alerts-panel">
      {list.isPending && <Skeleton height={80} aria-label={t('common.loading')} />}
      {list.isError && (
        <QueryError
          title={t('alerts.listFailed')}
          error={list.error}
          retrying={list.isFetching}
          onRetry={() => void list.refetch()}
        />
      )}
      {list.data && groups.length === 0 && (
        <Stack align="center" ta="center" gap="xs" py="xl" data-testid="open-alerts-clear">
          <ThemeIcon size={48} radius="xl" color="teal" variant="light">
            <Icon name="check" size={26} />
          </ThemeIcon>
          <Text fw={600}>{t('shell.alerts.statusOk')}</Text>
          <Text size="sm" c="dimmed">
            {t('shell.alerts.none')}
          </Text>
        </Stack>
      )}
      {groups.map((group) => (
        <Card
          key={group.server_id}
          withBorder
          padding="xs"
          component="section"
          aria-label={group.server_name}
          data-testid="open-alerts-group"
          style={{ borderInlineStart: `4px solid var(--mantine-color-${STATUS_COLORS[group.status]}-6)` }}
        >
          <Text fw={700} size="sm" mb={2} style={{ overflowWrap: 'anywhere' }}>
            {group.server_name}
          </Text>
          <Box component="ul" m={0} p={0}>
            {group.alerts.map((item) => (
              <AlertRow
                key={item.id}
                item={item}
                serverId={group.server_id}
                offset={offset}
                now={now}
                canAcknowledge
              />
            ))}
          </Box>
        </Card>
      ))}
      {list.data && (
        <Group justify="space-between" gap="xs">
          <Text size="xs" c="dimmed">
            {hidden > 0 ? t('alerts.panel.hidden', { count: hidden }) : ''}
          </Text>
          <AnchorLink to={HOME_PATH} size="sm" data-testid="open-alerts-master-warning">
            {t('alerts.panel.openMasterWarning')}
          </AnchorLink>
        </Group>
      )}
    </Stack>
  );
}
