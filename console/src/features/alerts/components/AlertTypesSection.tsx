import type { AlertTypeEntry } from '@flightdeck/schemas';
import { Badge, Button, Card, Group, Skeleton, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryError } from '../../servers/components/QueryError';
import { filterAlertTypes } from '../management';
import { AlertStatusBadge } from './StatusBadge';

/** A type's state in the scope shown: muted since `at` (there, or for every server), or on. */
export type TypeChange = { enabled: boolean; at: number; allServers?: boolean };

export interface AlertTypesSectionProps {
  query: UseQueryResult<AlertTypeEntry[]>;
  /** Name of the scope the buttons act on: the picked server, or every server. */
  scopeLabel: string;
  /** The muted types of the scope shown, by type id; a type absent is on. */
  changes: ReadonlyMap<number, TypeChange>;
  /** Type id whose change is being sent. */
  pending: number | null;
  onChange: (type: AlertTypeEntry, enabled: boolean) => void;
  formatTime: (unixS: number) => string;
}

/**
 * The alert-type catalogue (spec 7, types 1-49) with a search box, and per type the buttons that
 * mute it or turn it back on for the scope picked on the page (one server or every server).
 */
export function AlertTypesSection({
  query,
  scopeLabel,
  changes,
  pending,
  onChange,
  formatTime,
}: AlertTypesSectionProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const shown = useMemo(() => filterAlertTypes(query.data ?? [], search), [query.data, search]);

  return (
    <Stack
      gap="sm"
      component="section"
      aria-labelledby="alert-types-heading"
      data-testid="alert-types-section"
    >
      <Stack gap={2}>
        <Title order={2} fz="h4" id="alert-types-heading">
          {t('alerts.management.types.heading')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('alerts.management.types.intro', { scope: scopeLabel })}
        </Text>
      </Stack>
      <TextInput
        label={t('alerts.management.types.search')}
        placeholder={t('alerts.management.types.searchPlaceholder')}
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
        style={{ maxWidth: 360 }}
        data-testid="alert-types-search"
      />
      {query.isPending && (
        <Stack gap="xs" aria-busy="true" aria-label={t('common.loading')}>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} height={44} />
          ))}
        </Stack>
      )}
      {query.isError && (
        <QueryError
          title={t('alerts.management.types.failed')}
          error={query.error}
          retrying={query.isFetching}
          onRetry={() => void query.refetch()}
        />
      )}
      {query.data && shown.length === 0 && (
        <Card withBorder padding="lg" data-testid="alert-types-empty">
          <Text size="sm" c="dimmed">
            {t('alerts.management.types.empty')}
          </Text>
        </Card>
      )}
      {shown.length > 0 && (
        <Card withBorder padding={0}>
          <Table.ScrollContainer minWidth={0}>
            <Table verticalSpacing="xs" horizontalSpacing="sm" data-testid="alert-types-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th visibleFrom="sm">#</Table.Th>
                  <Table.Th>{t('alerts.management.types.columns.type')}</Table.Th>
                  <Table.Th visibleFrom="md">{t('alerts.management.types.columns.category')}</Table.Th>
                  <Table.Th visibleFrom="sm">{t('alerts.management.types.columns.severity')}</Table.Th>
                  <Table.Th>{t('alerts.management.types.columns.state')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {shown.map((type) => {
                  const change = changes.get(type.id);
                  const busy = pending === type.id;
                  return (
                    <Table.Tr
                      key={type.id}
                      data-testid="alert-type-row"
                      data-type-id={type.id}
                      data-state={change && !change.enabled ? 'muted' : 'enabled'}
                    >
                      <Table.Td visibleFrom="sm">{type.id}</Table.Td>
                      <Table.Td style={{ minWidth: 0 }}>
                        <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                          {type.title}
                        </Text>
                        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                          <Text span hiddenFrom="sm" size="xs">
                            #{type.id} ·{' '}
                          </Text>
                          {type.code}
                          <Text span hiddenFrom="md" size="xs">
                            {' '}
                            · {t(`alerts.management.categories.${type.category}`)}
                          </Text>
                        </Text>
                      </Table.Td>
                      <Table.Td visibleFrom="md">
                        {t(`alerts.management.categories.${type.category}`)}
                      </Table.Td>
                      <Table.Td visibleFrom="sm">
                        <AlertStatusBadge status={type.severity} size="xs" />
                      </Table.Td>
                      <Table.Td>
                        <Stack gap={4} align="flex-start">
                          {change && (
                            <Badge
                              size="sm"
                              variant="light"
                              color={change.enabled ? 'teal' : 'gray'}
                              data-testid="alert-type-state"
                            >
                              {t(
                                change.enabled
                                  ? 'alerts.management.types.enabledAt'
                                  : change.allServers
                                    ? 'alerts.management.types.mutedAllAt'
                                    : 'alerts.management.types.mutedAt',
                                {
                                  time: formatTime(change.at),
                                },
                              )}
                            </Badge>
                          )}
                          <Group gap={6} wrap="nowrap">
                            <Button
                              size="compact-xs"
                              variant="light"
                              color="gray"
                              loading={busy}
                              disabled={pending !== null && !busy}
                              onClick={() => onChange(type, false)}
                              aria-label={t('alerts.management.types.muteLabel', {
                                type: type.title,
                                scope: scopeLabel,
                              })}
                              data-testid="alert-type-mute"
                            >
                              {t('alerts.management.types.mute')}
                            </Button>
                            <Button
                              size="compact-xs"
                              variant="light"
                              color="teal"
                              loading={busy}
                              disabled={pending !== null && !busy}
                              onClick={() => onChange(type, true)}
                              aria-label={t('alerts.management.types.enableLabel', {
                                type: type.title,
                                scope: scopeLabel,
                              })}
                              data-testid="alert-type-enable"
                            >
                              {t('alerts.management.types.enable')}
                            </Button>
                          </Group>
                        </Stack>
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Card>
      )}
      {query.data && (
        <Text size="xs" c="dimmed" data-testid="alert-types-count">
          {t('alerts.management.types.count', { count: shown.length, total: query.data.length })}
        </Text>
      )}
    </Stack>
  );
}
