import { Card, Group, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { useOnRefresh } from '../../../app/refresh';
import { useUserOffset } from '../../../app/shell/PeriodPicker';
import { formatDateTime } from '../../../app/time-range';
import { serversKeys, serversListQuery } from '../queries';
import { QueryError } from './QueryError';
import { StatusBadge } from './StatusBadge';

/** While no host has reported yet, the list asks again every 10 s (the agent's first heartbeat). */
const EMPTY_POLL_MS = 10_000;

/** The hosts of the customer: name, platform, OS, status and last heartbeat, each opening its page. */
export function HostsList() {
  const { t } = useTranslation();
  const offset = useUserOffset();
  const queryClient = useQueryClient();
  const servers = useQuery({
    ...serversListQuery,
    refetchInterval: (query) => (query.state.data?.length === 0 ? EMPTY_POLL_MS : false),
  });
  useOnRefresh(() => void queryClient.invalidateQueries({ queryKey: serversKeys.list }));

  return (
    <Stack gap="md" data-testid="hosts-page">
      <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
        {t('servers.listHeading')}
      </Title>
      {servers.isPending && (
        <Stack gap="xs" aria-busy="true" aria-label={t('common.loading')}>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} height={44} />
          ))}
        </Stack>
      )}
      {servers.isError && (
        <QueryError
          title={t('servers.listFailed')}
          error={servers.error}
          retrying={servers.isFetching}
          onRetry={() => void servers.refetch()}
        />
      )}
      {servers.data && servers.data.length === 0 && (
        <Card withBorder padding="lg" data-testid="hosts-empty">
          <Text fw={600}>{t('servers.empty.title')}</Text>
          <Text size="sm" c="dimmed" mt={4}>
            {t('servers.empty.body')}
          </Text>
        </Card>
      )}
      {servers.data && servers.data.length > 0 && (
        <Card withBorder padding={0}>
          <Table highlightOnHover verticalSpacing="sm" horizontalSpacing="md" data-testid="hosts-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('servers.columns.name')}</Table.Th>
                <Table.Th visibleFrom="sm">{t('servers.columns.platform')}</Table.Th>
                <Table.Th visibleFrom="md">{t('servers.columns.os')}</Table.Th>
                <Table.Th>{t('servers.columns.status')}</Table.Th>
                <Table.Th visibleFrom="sm">{t('servers.columns.lastSeen')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {servers.data.map((server) => (
                <Table.Tr key={server.id} data-testid="host-row" data-host={server.hostname}>
                  <Table.Td style={{ minWidth: 0, maxWidth: 320 }}>
                    <Link
                      to="/flightdeck/services/$id/{-$service}"
                      params={{ id: String(server.id), service: server.platform ?? undefined }}
                      search={(prev) => prev}
                      style={{
                        color: 'var(--mantine-color-anchor)',
                        fontWeight: 600,
                        overflowWrap: 'anywhere',
                      }}
                    >
                      {server.name}
                    </Link>
                    {server.name !== server.hostname && (
                      <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                        {server.hostname}
                      </Text>
                    )}
                    {/* Below sm the hidden columns read under the name. */}
                    <Text size="xs" c="dimmed" hiddenFrom="sm" style={{ overflowWrap: 'anywhere' }}>
                      {[
                        server.platform ? t(`servers.platforms.${server.platform}`) : null,
                        server.os,
                        server.last_seen_at === null
                          ? t('servers.never')
                          : `${t('servers.columns.lastSeen')}: ${formatDateTime(server.last_seen_at, offset)}`,
                      ]
                        .filter(Boolean)
                        .join(' · ')}
                    </Text>
                  </Table.Td>
                  <Table.Td visibleFrom="sm">
                    {server.platform ? t(`servers.platforms.${server.platform}`) : '—'}
                  </Table.Td>
                  <Table.Td visibleFrom="md">{server.os ?? '—'}</Table.Td>
                  <Table.Td>
                    <StatusBadge status={server.status} />
                  </Table.Td>
                  <Table.Td visibleFrom="sm" style={{ whiteSpace: 'nowrap' }}>
                    {server.last_seen_at === null
                      ? t('servers.never')
                      : formatDateTime(server.last_seen_at, offset)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Card>
      )}
      {servers.data && servers.data.length > 0 && (
        <Group>
          <Text size="xs" c="dimmed">
            {t('servers.count', { count: servers.data.length })}
          </Text>
        </Group>
      )}
    </Stack>
  );
}
