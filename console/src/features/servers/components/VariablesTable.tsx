import { Card, ScrollArea, Skeleton, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { variablesQuery } from '../queries';
import { QueryError } from './QueryError';

/** The host's inventory as name/value pairs. */
export function VariablesTable({ serverId }: { serverId: number }) {
  const { t } = useTranslation();
  const variables = useQuery(variablesQuery(serverId));
  return (
    <Card withBorder padding="md" data-testid="variables-table" miw={0}>
      <Title order={2} fz="h4" mb="sm">
        {t('servers.sections.variables')}
      </Title>
      {variables.isPending && <Skeleton height={120} />}
      {variables.isError && !variables.data && (
        <QueryError
          title={t('servers.tableFailed')}
          error={variables.error}
          retrying={variables.isFetching}
          onRetry={() => void variables.refetch()}
        />
      )}
      {variables.data && variables.data.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('charts.noData')}
        </Text>
      )}
      {variables.data && variables.data.length > 0 && (
        <ScrollArea type="auto">
          <Table fz="sm" striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('servers.variables.name')}</Table.Th>
                <Table.Th>{t('servers.variables.value')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {variables.data.map((row) => (
                <Table.Tr key={row.name}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{row.name}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{row.value}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      )}
    </Card>
  );
}
