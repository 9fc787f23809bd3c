import { formatBytes } from '@flightdeck/schemas';
import { Card, Progress, ScrollArea, Skeleton, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatChartValue } from '../../../charts/uplot-config';
import { diskStatusQuery } from '../queries';
import { QueryError } from './QueryError';

const bytes = (value: number | null) => (value === null ? '—' : formatBytes(value, 1));
const pct = (value: number | null) => formatChartValue(value, { precision: 1, suffix: '%' });

/** Colour of a usage bar: red from 90% used, yellow from 75%. */
export function usageColor(pctUsed: number | null): string {
  if (pctUsed === null) return 'gray';
  return pctUsed >= 90 ? 'red' : pctUsed >= 75 ? 'yellow' : 'teal';
}

/** File systems: mount, size, used, % used and inodes. */
export function DisksTable({ serverId }: { serverId: number }) {
  const { t } = useTranslation();
  const disks = useQuery(diskStatusQuery(serverId));
  return (
    <Card withBorder padding="md" data-testid="disks-table" miw={0}>
      <Title order={2} fz="h4" mb="sm">
        {t('servers.sections.disks')}
      </Title>
      {disks.isPending && <Skeleton height={120} />}
      {disks.isError && !disks.data && (
        <QueryError
          title={t('servers.tableFailed')}
          error={disks.error}
          retrying={disks.isFetching}
          onRetry={() => void disks.refetch()}
        />
      )}
      {disks.data && disks.data.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('charts.noData')}
        </Text>
      )}
      {disks.data && disks.data.length > 0 && (
        <ScrollArea type="auto">
          <Table fz="sm" miw={480}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('servers.disks.mount')}</Table.Th>
                <Table.Th ta="right">{t('servers.disks.size')}</Table.Th>
                <Table.Th ta="right">{t('servers.disks.used')}</Table.Th>
                <Table.Th w={140}>{t('servers.disks.usedPct')}</Table.Th>
                <Table.Th ta="right">{t('servers.disks.inodes')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {disks.data.map((disk) => (
                <Table.Tr key={disk.mount}>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{disk.mount}</Table.Td>
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                    {bytes(disk.size_bytes)}
                  </Table.Td>
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                    {bytes(disk.used_bytes)}
                  </Table.Td>
                  <Table.Td>
                    <Text size="xs">{pct(disk.used_pct)}</Text>
                    <Progress
                      value={disk.used_pct ?? 0}
                      color={usageColor(disk.used_pct)}
                      size="sm"
                      aria-label={`${disk.mount}: ${pct(disk.used_pct)}`}
                    />
                  </Table.Td>
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                    {pct(disk.inodes_used_pct)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      )}
    </Card>
  );
}
