import type { UnavailabilityPeriod } from '@flightdeck/schemas';
import { Badge, Card, Group, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDuration } from '../../../lib/format';
import { unavailabilityByServer } from '../management';

export interface UnavailabilityHistoryProps {
  periods: UnavailabilityPeriod[] | undefined;
  isPending: boolean;
  formatTime: (unixS: number) => string;
}

/**
 * When servers and services were unavailable over the period picker's range (spec 7,
 * `mttx/get_historic_unavailable`): per server the time it adds up to, then each period.
 */
export function UnavailabilityHistory({ periods, isPending, formatTime }: UnavailabilityHistoryProps) {
  const { t, i18n } = useTranslation();
  const totals = useMemo(() => unavailabilityByServer(periods ?? []), [periods]);
  const duration = (s: number) => formatDuration(s, i18n.language);

  return (
    <Stack
      gap="sm"
      component="section"
      aria-labelledby="unavailability-heading"
      data-testid="unavailability-section"
    >
      <Stack gap={2}>
        <Title order={2} fz="h4" id="unavailability-heading">
          {t('alerts.management.history.heading')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('alerts.management.history.intro')}
        </Text>
      </Stack>
      {isPending && (
        <Stack gap="xs" aria-busy="true" aria-label={t('common.loading')}>
          {[0, 1].map((i) => (
            <Skeleton key={i} height={44} />
          ))}
        </Stack>
      )}
      {periods && periods.length === 0 && (
        <Card withBorder padding="lg" data-testid="unavailability-empty">
          <Text size="sm" c="dimmed">
            {t('alerts.management.history.empty')}
          </Text>
        </Card>
      )}
      {totals.length > 0 && (
        <Group gap="xs" data-testid="unavailability-totals">
          {totals.map((row) => (
            <Badge key={row.server_id} variant="light" color="orange" tt="none" size="lg">
              {t('alerts.management.history.total', {
                server: row.server_name,
                duration: duration(row.seconds),
                count: row.periods,
              })}
            </Badge>
          ))}
        </Group>
      )}
      {periods && periods.length > 0 && (
        <Card withBorder padding={0}>
          <Table.ScrollContainer minWidth={0}>
            <Table verticalSpacing="xs" horizontalSpacing="sm" data-testid="unavailability-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('alerts.management.columns.server')}</Table.Th>
                  <Table.Th visibleFrom="sm">{t('alerts.management.history.columns.source')}</Table.Th>
                  <Table.Th visibleFrom="md">{t('alerts.management.history.columns.start')}</Table.Th>
                  <Table.Th visibleFrom="md">{t('alerts.management.history.columns.end')}</Table.Th>
                  <Table.Th>{t('alerts.management.history.columns.inRange')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {periods.map((p) => {
                  const source = t(`alerts.management.history.sources.${p.source}`);
                  const end = p.end === null ? t('alerts.management.history.ongoing') : formatTime(p.end);
                  return (
                    <Table.Tr
                      key={`${p.source}:${p.historic_id ?? p.server_id}:${p.start}`}
                      data-testid="unavailability-row"
                    >
                      <Table.Td style={{ overflowWrap: 'anywhere' }}>
                        <Text size="sm" fw={600}>
                          {p.server_name}
                        </Text>
                        <Text size="xs" c="dimmed">
                          {p.service ?? t('alerts.management.wholeServer')}
                        </Text>
                        <Text size="xs" c="dimmed" hiddenFrom="md">
                          <Text span hiddenFrom="sm" size="xs">
                            {source} ·{' '}
                          </Text>
                          {formatTime(p.start)} → {end}
                        </Text>
                      </Table.Td>
                      <Table.Td visibleFrom="sm">{source}</Table.Td>
                      <Table.Td visibleFrom="md" style={{ whiteSpace: 'nowrap' }}>
                        {formatTime(p.start)}
                      </Table.Td>
                      <Table.Td visibleFrom="md" style={{ whiteSpace: 'nowrap' }}>
                        {end}
                      </Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{duration(p.seconds_in_range)}</Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Card>
      )}
    </Stack>
  );
}
