import { formatBytes } from '@flightdeck/schemas';
import { Badge, Card, Group, ScrollArea, Skeleton, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatChartValue } from '../../../charts/uplot-config';
import { networkStatusQuery } from '../queries';
import { QueryError } from './QueryError';

const rate = (value: number | null) => (value === null ? '—' : `${formatBytes(value, 1)}/s`);
const perSecond = (value: number | null) => formatChartValue(value, { precision: 2, suffix: '/s' });

/** Interfaces with their receive and send rates, errors and drops, and the TCP sockets by state. */
export function NetworkTable({ serverId }: { serverId: number }) {
  const { t } = useTranslation();
  const network = useQuery(networkStatusQuery(serverId));
  const tcp = network.data ? Object.entries(network.data.tcp).sort((a, b) => b[1] - a[1]) : [];
  return (
    <Card withBorder padding="md" data-testid="network-table" miw={0}>
      <Title order={2} fz="h4" mb="sm">
        {t('servers.sections.network')}
      </Title>
      {network.isPending && <Skeleton height={120} />}
      {network.isError && !network.data && (
        <QueryError
          title={t('servers.tableFailed')}
          error={network.error}
          retrying={network.isFetching}
          onRetry={() => void network.refetch()}
        />
      )}
      {network.data && network.data.interfaces.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('charts.noData')}
        </Text>
      )}
      {network.data && network.data.interfaces.length > 0 && (
        <ScrollArea type="auto">
          <Table fz="sm" miw={520}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('servers.network.interface')}</Table.Th>
                <Table.Th ta="right">{t('servers.network.rx')}</Table.Th>
                <Table.Th ta="right">{t('servers.network.tx')}</Table.Th>
                <Table.Th ta="right">{t('servers.network.errors')}</Table.Th>
                <Table.Th ta="right">{t('servers.network.drops')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {network.data.interfaces.map((row) => (
                <Table.Tr key={row.interface}>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{row.interface}</Table.Td>
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                    {rate(row.rx_bytes_rate)}
                  </Table.Td>
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                    {rate(row.tx_bytes_rate)}
                  </Table.Td>
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                    {perSecond(row.rx_errors_rate)} / {perSecond(row.tx_errors_rate)}
                  </Table.Td>
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                    {perSecond(row.rx_drops_rate)} / {perSecond(row.tx_drops_rate)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      )}
      {tcp.length > 0 && (
        <>
          <Text size="xs" tt="uppercase" fw={700} c="dimmed" mt="md" mb={4}>
            {t('servers.network.tcp')}
          </Text>
          <Group gap={6} data-testid="tcp-states">
            {tcp.map(([state, count]) => (
              <Badge key={state} variant="default" tt="none">
                {state}: {count}
              </Badge>
            ))}
          </Group>
        </>
      )}
    </Card>
  );
}
