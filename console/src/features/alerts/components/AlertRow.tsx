import type { AlertItem } from '@flightdeck/schemas';
import { Badge, Box, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../app/time-range';
import { formatDuration } from '../../../lib/format';
import { alertTypeLabel, labelsText } from '../alert-view';
import { useUserLocale } from '../useUserLocale';
import { AcknowledgeMenu } from './AcknowledgeMenu';
import { AnchorLink } from './AnchorLink';
import { DynamicWhyText } from './DynamicWhyText';
import { AlertStatusBadge } from './StatusBadge';

export interface AlertRowProps {
  item: AlertItem;
  serverId: number;
  /** The user's UTC offset in minutes. */
  offset: number;
  /** Unix seconds now, for "open for". */
  now: number;
  /** Shows the acknowledge menu on alerts not acknowledged yet. */
  canAcknowledge?: boolean;
  /** Shows the nested alerts (other series of the same kind) under this one. */
  withNested?: boolean;
}

/**
 * One open alert (spec 3): status, type in the reader's language, service and series, since when,
 * its text, who acknowledged it and until when, a link to the service's page and the acknowledge
 * menu. Acknowledged alerts are dimmed.
 */
export function AlertRow({ item, serverId, offset, now, canAcknowledge, withNested = true }: AlertRowProps) {
  const { t, i18n } = useTranslation();
  const locale = useUserLocale();
  const title = alertTypeLabel(item.type, locale);
  const series = labelsText(item.labels);
  const since = formatDuration(now - item.date_enter, i18n.language);
  return (
    <Box
      component="li"
      data-testid="alert-row"
      data-status={item.status}
      data-historic-id={item.historic_id}
      data-acknowledged={item.acknowledged || undefined}
      data-metric={item.metric}
      style={{ listStyle: 'none' }}
    >
      <Group gap="sm" align="flex-start" wrap="wrap" style={{ opacity: item.acknowledged ? 0.6 : 1 }} py={6}>
        <AlertStatusBadge status={item.status} />
        <Stack gap={2} style={{ flex: '1 1 220px', minWidth: 0 }}>
          <Group gap={6} wrap="wrap">
            <Text fw={600} size="sm" data-testid="alert-type">
              {title}
            </Text>
            {item.service && (
              <Badge variant="outline" color="gray" size="sm" tt="none">
                {item.service}
              </Badge>
            )}
            {series && (
              <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {series}
              </Text>
            )}
          </Group>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }} data-testid="alert-text">
            {item.alert_text}
          </Text>
          {item.dynamic && <DynamicWhyText reason={item.dynamic} metric={item.metric} value={item.value} />}
          <Text size="xs" c="dimmed">
            <span title={formatDateTime(item.date_enter, offset)}>
              {t('alerts.row.since', { duration: since, date: formatDateTime(item.date_enter, offset) })}
            </span>
            {' · '}
            {t(`alerts.event.${item.event}`)}
          </Text>
          {item.acknowledged && item.ack_until !== null && (
            <Text size="xs" data-testid="alert-ack-note" style={{ overflowWrap: 'anywhere' }}>
              {t('alerts.row.acknowledged', {
                who: item.ack_by ?? '—',
                until: formatDateTime(item.ack_until, offset),
              })}
              {item.ack_comment ? ` — “${item.ack_comment}”` : ''}
            </Text>
          )}
        </Stack>
        <Group gap="xs" wrap="nowrap" style={{ flexShrink: 0 }}>
          <AnchorLink
            to="/flightdeck/services/$id/{-$service}"
            params={{ id: String(serverId), service: item.service ?? undefined }}
            search={(prev) => prev}
            size="sm"
            aria-label={t('alerts.row.openServiceFor', { title })}
            data-testid="alert-service-link"
          >
            {t('alerts.row.openService')}
          </AnchorLink>
          {canAcknowledge && !item.acknowledged && (
            <AcknowledgeMenu historicId={item.historic_id} title={title} />
          )}
        </Group>
      </Group>
      {withNested && item.alerts.length > 0 && (
        <Box
          component="ul"
          m={0}
          p={0}
          pl="md"
          ml={6}
          style={{ borderInlineStart: '2px solid var(--mantine-color-default-border)' }}
          aria-label={t('alerts.row.nested', { count: item.alerts.length })}
        >
          {item.alerts.map((child) => (
            <AlertRow
              key={child.id}
              item={child}
              serverId={serverId}
              offset={offset}
              now={now}
              canAcknowledge={canAcknowledge ?? false}
            />
          ))}
        </Box>
      )}
    </Box>
  );
}
