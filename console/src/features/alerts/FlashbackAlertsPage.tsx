import {
  ALERT_STATUS_PRECEDENCE,
  ALERT_TYPES,
  type AlertTypeId,
  alertTypeById,
  MAX_HISTORY_ROWS,
} from '@flightdeck/schemas';
import {
  Badge,
  Card,
  Group,
  NativeSelect,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOnRefresh } from '../../app/refresh';
import { useUserOffset } from '../../app/shell/PeriodPicker';
import { formatDateTime } from '../../app/time-range';
import { formatDuration } from '../../lib/format';
import { QueryError } from '../servers/components/QueryError';
import { rangeKey, serversListQuery } from '../servers/queries';
import './alerts-styles';
import { alertTypeLabel, labelsText } from './alert-view';
import { DynamicWhyText } from './components/DynamicWhyText';
import { AlertStatusBadge } from './components/StatusBadge';
import { filterHistory, type HistoryRowFilters } from './history';
import { alertHistoryQuery, alertsKeys } from './queries';
import { useUserLocale } from './useUserLocale';

const shell = getRouteApi('/shell');

/**
 * /flightdeck/flashback/alerts: every alert occurrence that was open during the period picker's
 * range, newest first: worst level reached, server, service, type and text, opened and resolved
 * (or still open), acknowledgement, whether it was notified. Server and type are filtered by the
 * api; level, state and text in the page.
 */
export function FlashbackAlertsPage() {
  const { t, i18n } = useTranslation();
  const locale = useUserLocale();
  const offset = useUserOffset();
  const search = shell.useSearch();
  const queryClient = useQueryClient();
  const servers = useQuery(serversListQuery);
  const [serverId, setServerId] = useState('');
  const [typeId, setTypeId] = useState('');
  const [rowFilters, setRowFilters] = useState<HistoryRowFilters>({ status: '', state: 'all', text: '' });
  const range = rangeKey(search, offset);
  const history = useQuery(
    alertHistoryQuery(range, {
      ...(serverId ? { serverId: Number(serverId) } : {}),
      ...(typeId ? { typeId: Number(typeId) as AlertTypeId } : {}),
    }),
  );
  useOnRefresh(() => void queryClient.invalidateQueries({ queryKey: alertsKeys.histories }));

  const rows = history.data?.rows ?? [];
  const shown = useMemo(
    () => filterHistory(rows, rowFilters, (type) => alertTypeLabel(type, locale)),
    [rows, rowFilters, locale],
  );
  const typeOptions = useMemo(
    () =>
      ALERT_TYPES.map((type) => ({ value: String(type.id), label: alertTypeLabel(type.id, locale) })).sort(
        (a, b) => a.label.localeCompare(b.label, locale),
      ),
    [locale],
  );
  const now = Math.floor(Date.now() / 1000);

  return (
    <Stack gap="md" data-testid="flashback-alerts-page">
      <Stack gap={4}>
        <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
          {t('alerts.history.heading')}
        </Title>
        <Text size="sm" c="dimmed">
          {history.data
            ? t('alerts.history.period', {
                start: formatDateTime(history.data.period.start, offset),
                end: formatDateTime(history.data.period.end, offset),
              })
            : t('alerts.history.intro')}
        </Text>
      </Stack>

      <Group gap="sm" align="flex-end" wrap="wrap">
        <NativeSelect
          label={t('alerts.history.filters.server')}
          value={serverId}
          onChange={(event) => setServerId(event.currentTarget.value)}
          data={[
            { value: '', label: t('alerts.thresholds.allServers') },
            ...(servers.data ?? []).map((s) => ({ value: String(s.id), label: s.name })),
          ]}
          style={{ flex: '1 1 160px', maxWidth: 260 }}
          data-testid="history-filter-server"
        />
        <NativeSelect
          label={t('alerts.history.filters.type')}
          value={typeId}
          onChange={(event) => setTypeId(event.currentTarget.value)}
          data={[{ value: '', label: t('alerts.history.filters.allTypes') }, ...typeOptions]}
          style={{ flex: '1 1 180px', maxWidth: 300 }}
          data-testid="history-filter-type"
        />
        <NativeSelect
          label={t('alerts.history.filters.status')}
          value={rowFilters.status}
          onChange={(event) => {
            const status = event.currentTarget.value as HistoryRowFilters['status'];
            setRowFilters((f) => ({ ...f, status }));
          }}
          data={[
            { value: '', label: t('alerts.history.filters.all') },
            ...ALERT_STATUS_PRECEDENCE.filter((s) => s !== 'N' && s !== 'G').map((s) => ({
              value: s,
              label: t(`alerts.status.${s}`),
            })),
          ]}
          style={{ flex: '1 1 120px', maxWidth: 180 }}
          data-testid="history-filter-status"
        />
        <NativeSelect
          label={t('alerts.history.filters.state')}
          value={rowFilters.state}
          onChange={(event) => {
            const state = event.currentTarget.value as HistoryRowFilters['state'];
            setRowFilters((f) => ({ ...f, state }));
          }}
          data={(['all', 'open', 'resolved'] as const).map((s) => ({
            value: s,
            label: t(`alerts.history.states.${s}`),
          }))}
          style={{ flex: '1 1 120px', maxWidth: 180 }}
          data-testid="history-filter-state"
        />
        <TextInput
          label={t('alerts.history.filters.text')}
          value={rowFilters.text}
          onChange={(event) => {
            const text = event.currentTarget.value;
            setRowFilters((f) => ({ ...f, text }));
          }}
          style={{ flex: '2 1 200px', maxWidth: 360 }}
          data-testid="history-filter-text"
        />
      </Group>

      {history.isPending && (
        <Stack gap="xs" aria-busy="true" aria-label={t('common.loading')}>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} height={44} />
          ))}
        </Stack>
      )}
      {history.isError && (
        <QueryError
          title={t('alerts.history.failed')}
          error={history.error}
          retrying={history.isFetching}
          onRetry={() => void history.refetch()}
        />
      )}
      {history.data && rows.length === 0 && (
        <Card withBorder padding="lg" data-testid="history-empty">
          <Text fw={600}>{t('alerts.history.emptyTitle')}</Text>
          <Text size="sm" c="dimmed" mt={4}>
            {t('alerts.history.emptyBody')}
          </Text>
        </Card>
      )}
      {rows.length > 0 && shown.length === 0 && (
        <Card withBorder padding="lg" data-testid="history-empty-filtered">
          <Text size="sm" c="dimmed">
            {t('alerts.history.emptyFiltered')}
          </Text>
        </Card>
      )}
      {shown.length > 0 && (
        <Card withBorder padding={0}>
          <Table.ScrollContainer minWidth={0}>
            <Table verticalSpacing="xs" horizontalSpacing="sm" data-testid="history-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('alerts.history.columns.status')}</Table.Th>
                  <Table.Th>{t('alerts.history.columns.alert')}</Table.Th>
                  <Table.Th visibleFrom="sm">{t('alerts.history.columns.server')}</Table.Th>
                  <Table.Th visibleFrom="md">{t('alerts.history.columns.opened')}</Table.Th>
                  <Table.Th visibleFrom="md">{t('alerts.history.columns.resolved')}</Table.Th>
                  <Table.Th visibleFrom="lg">{t('alerts.history.columns.acknowledged')}</Table.Th>
                  <Table.Th visibleFrom="lg">{t('alerts.history.columns.notified')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {shown.map((row) => {
                  const duration = formatDuration((row.date_exit ?? now) - row.date_enter, i18n.language);
                  const resolved =
                    row.date_exit === null
                      ? t('alerts.history.stillOpen', { duration })
                      : t('alerts.history.resolvedAfter', {
                          date: formatDateTime(row.date_exit, offset),
                          duration,
                        });
                  const ack =
                    row.acknowledged_until !== null
                      ? t('alerts.history.ackUntil', {
                          who: row.ack_by ?? '—',
                          until: formatDateTime(row.acknowledged_until, offset),
                        })
                      : '—';
                  return (
                    <Table.Tr
                      key={row.historic_id}
                      data-testid="history-row"
                      data-historic-id={row.historic_id}
                      data-state={row.date_exit === null ? 'open' : 'resolved'}
                      data-metric={row.metric}
                    >
                      <Table.Td style={{ minWidth: 104 }}>
                        <Stack gap={4} align="flex-start">
                          <AlertStatusBadge status={row.status} />
                          {row.date_exit === null ? (
                            <Badge size="xs" variant="outline" color="red">
                              {t('alerts.history.states.open')}
                            </Badge>
                          ) : (
                            <Badge size="xs" variant="outline" color="teal">
                              {t('alerts.history.states.resolved')}
                            </Badge>
                          )}
                        </Stack>
                      </Table.Td>
                      <Table.Td style={{ minWidth: 0, maxWidth: 480 }}>
                        <Text size="sm" fw={600}>
                          {alertTypeById(row.type) ? alertTypeLabel(row.type, locale) : `#${row.type}`}
                          {row.service ? ` · ${row.service}` : ''}
                          {row.labels ? ` · ${labelsText(row.labels)}` : ''}
                        </Text>
                        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                          {row.alert_text}
                        </Text>
                        {row.dynamic && (
                          <DynamicWhyText
                            reason={row.dynamic}
                            metric={row.metric}
                            value={row.date_exit === null ? row.value : null}
                          />
                        )}
                        {/* Below md the hidden columns read under the alert. */}
                        <Text size="xs" c="dimmed" hiddenFrom="md" style={{ overflowWrap: 'anywhere' }}>
                          {[
                            row.server_name,
                            `${t('alerts.history.columns.opened')} ${formatDateTime(row.date_enter, offset)}`,
                            row.date_exit === null
                              ? resolved
                              : `${t('alerts.history.columns.resolved')} ${resolved}`,
                            row.acknowledged_until !== null
                              ? `${t('alerts.history.columns.acknowledged')} ${ack}`
                              : null,
                          ]
                            .filter(Boolean)
                            .join(' · ')}
                        </Text>
                      </Table.Td>
                      <Table.Td visibleFrom="sm" style={{ overflowWrap: 'anywhere' }}>
                        {row.server_name}
                      </Table.Td>
                      <Table.Td visibleFrom="md" style={{ whiteSpace: 'nowrap' }}>
                        {formatDateTime(row.date_enter, offset)}
                      </Table.Td>
                      <Table.Td visibleFrom="md">{resolved}</Table.Td>
                      <Table.Td visibleFrom="lg">
                        <Text size="sm">{ack}</Text>
                        {row.ack_comment && (
                          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                            “{row.ack_comment}”
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td visibleFrom="lg">
                        {row.notified ? t('alerts.history.notifiedYes') : t('alerts.history.notifiedNo')}
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Card>
      )}
      {history.data && rows.length > 0 && (
        <Text size="xs" c="dimmed" data-testid="history-count">
          {t('alerts.history.count', { count: shown.length, total: rows.length })}
          {rows.length >= MAX_HISTORY_ROWS
            ? ` ${t('alerts.history.limited', { max: MAX_HISTORY_ROWS })}`
            : ''}
        </Text>
      )}
    </Stack>
  );
}
