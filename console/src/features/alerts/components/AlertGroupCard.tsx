import type { AlertGroup } from '@flightdeck/schemas';
import { Box, Card, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { flattenAlerts, STATUS_COLORS } from '../alert-view';
import { AlertRow } from './AlertRow';
import { AnchorLink } from './AnchorLink';
import { AlertStatusBadge } from './StatusBadge';

/**
 * The alerts of one server (spec 3, "Alert group"): the server's roll-up colour down its edge and as
 * a badge, its name linking to its page, then its alerts with the nested ones under them.
 */
export function AlertGroupCard({
  group,
  offset,
  now,
  canAcknowledge,
}: {
  group: AlertGroup;
  offset: number;
  now: number;
  canAcknowledge: boolean;
}) {
  const { t } = useTranslation();
  const all = flattenAlerts(group.alerts);
  const open = all.filter((a) => !a.acknowledged).length;
  const headingId = `alert-group-${group.server_id}`;
  return (
    <Card
      withBorder
      padding="sm"
      component="section"
      aria-labelledby={headingId}
      data-testid="alert-group"
      data-server-id={group.server_id}
      data-status={group.status}
      style={{ borderInlineStart: `4px solid var(--mantine-color-${STATUS_COLORS[group.status]}-6)` }}
    >
      <Group justify="space-between" gap="xs" wrap="wrap" mb={4}>
        <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
          <AlertStatusBadge status={group.status} size="md" />
          <AnchorLink
            to="/flightdeck/services/$id/{-$service}"
            params={{ id: String(group.server_id) }}
            fw={700}
            id={headingId}
            style={{ overflowWrap: 'anywhere' }}
            data-testid="alert-group-server"
          >
            {group.server_name}
          </AnchorLink>
        </Group>
        <Text size="xs" c="dimmed">
          {t('alerts.group.counts', { open, acknowledged: all.length - open })}
        </Text>
      </Group>
      <Box component="ul" m={0} p={0}>
        {group.alerts.map((item) => (
          <AlertRow
            key={item.id}
            item={item}
            serverId={group.server_id}
            offset={offset}
            now={now}
            canAcknowledge={canAcknowledge}
          />
        ))}
      </Box>
    </Card>
  );
}
