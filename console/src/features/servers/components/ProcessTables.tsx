import { formatBytes, type ProcessSnapshot } from '@flightdeck/schemas';
import { Card, ScrollArea, Skeleton, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatChartValue } from '../../../charts/uplot-config';
import { processStatusQuery } from '../queries';
import classes from '../Servers.module.css';
import { QueryError } from './QueryError';

/** The top processes of the last heartbeat, by CPU and by memory, and the process counts. */
export function ProcessTables({ serverId }: { serverId: number }) {
  const { t } = useTranslation();
  const processes = useQuery(processStatusQuery(serverId));
  const data = processes.data;
  const counts = data
    ? [
        [t('servers.processes.count'), data.count],
        [t('servers.processes.running'), data.running],
        [t('servers.processes.blocked'), data.blocked],
      ].filter((entry): entry is [string, number] => entry[1] !== null)
    : [];
  return (
    <Card withBorder padding="md" data-testid="process-tables" miw={0}>
      <Title order={2} fz="h4" mb={4}>
        {t('servers.sections.processes')}
      </Title>
      {counts.length > 0 && (
        <Text size="sm" c="dimmed" mb="sm">
          {counts.map(([label, value]) => `${label}: ${value}`).join(' · ')}
        </Text>
      )}
      {processes.isPending && <Skeleton height={160} />}
      {processes.isError && !data && (
        <QueryError
          title={t('servers.tableFailed')}
          error={processes.error}
          retrying={processes.isFetching}
          onRetry={() => void processes.refetch()}
        />
      )}
      {data && (
        <div className={classes.tables}>
          <ProcessTable title={t('servers.processes.byCpu')} rows={data.by_cpu} testId="processes-by-cpu" />
          <ProcessTable
            title={t('servers.processes.byMemory')}
            rows={data.by_memory}
            testId="processes-by-memory"
          />
        </div>
      )}
    </Card>
  );
}

function ProcessTable({ title, rows, testId }: { title: string; rows: ProcessSnapshot[]; testId: string }) {
  const { t } = useTranslation();
  return (
    <div style={{ minWidth: 0 }}>
      <Title order={3} fz="sm" mb={4}>
        {title}
      </Title>
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('charts.noData')}
        </Text>
      ) : (
        <ScrollArea type="auto">
          <Table fz="sm" miw={480} data-testid={testId}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th ta="right">{t('servers.processes.pid')}</Table.Th>
                <Table.Th>{t('servers.processes.user')}</Table.Th>
                <Table.Th ta="right">{t('servers.processes.cpu')}</Table.Th>
                <Table.Th ta="right">{t('servers.processes.memory')}</Table.Th>
                <Table.Th>{t('servers.processes.command')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={row.pid}>
                  <Table.Td ta="right">{row.pid}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{row.user}</Table.Td>
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                    {formatChartValue(row.cpu_pct, { precision: 1, suffix: '%' })}
                  </Table.Td>
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                    {formatBytes(row.mem_bytes, 1)}
                  </Table.Td>
                  <Table.Td title={row.command}>
                    <div className={classes.command}>{row.command}</div>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      )}
    </div>
  );
}
