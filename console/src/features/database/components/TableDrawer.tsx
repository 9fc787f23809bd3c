import type { TableDefinitionData, TableRef } from '@flightdeck/schemas';
import { Badge, Code, Drawer, Group, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import classes from '../Database.module.css';
import { formatBytesOrDash, formatCounter } from '../format';
import { tableCountersQuery, tableDefinitionQuery } from '../queries';
import { qualifiedName } from '../tables';
import { InspectionError } from './InspectionError';

/** xs and sm screens (below Mantine's md breakpoint, 62em) get the side panel full-screen. */
const SMALL_SCREEN = '(max-width: 61.99em)';

/** The side panel of one table: its columns, indexes and DDL, then its counters. */
export function TableDrawer({
  serverId,
  serviceId,
  table,
  offset,
  onClose,
}: {
  serverId: number;
  serviceId: number;
  table: TableRef | null;
  offset: number;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const small = useMediaQuery(SMALL_SCREEN) ?? false;
  return (
    <Drawer
      opened={table !== null}
      onClose={onClose}
      position="right"
      size={small ? '100%' : '30%'}
      title={
        table ? (
          <Text fw={700} style={{ overflowWrap: 'anywhere' }}>
            {qualifiedName(table)}
          </Text>
        ) : (
          ''
        )
      }
      closeButtonProps={{ 'aria-label': t('common.close') }}
      data-testid="table-drawer"
    >
      {table && <TableDetails serverId={serverId} serviceId={serviceId} table={table} offset={offset} />}
    </Drawer>
  );
}

function TableDetails({
  serverId,
  serviceId,
  table,
  offset,
}: {
  serverId: number;
  serviceId: number;
  table: TableRef;
  offset: number;
}) {
  const { t, i18n } = useTranslation();
  const definition = useQuery(tableDefinitionQuery(serverId, serviceId, table));
  const counters = useQuery(tableCountersQuery(serverId, serviceId, table));
  return (
    <Stack gap="lg">
      {definition.isPending && (
        <Stack gap="xs" aria-busy="true" aria-label={t('common.loading')}>
          <Skeleton height={24} />
          <Skeleton height={160} />
        </Stack>
      )}
      {!definition.isPending && !definition.data && (
        <InspectionError
          title={t('database.tables.definitionFailed')}
          error={definition.error}
          retrying={definition.isFetching}
          onRetry={() => void definition.refetch()}
        />
      )}
      {definition.data && <Definition definition={definition.data} />}

      <section aria-labelledby="table-counters-title">
        <Title order={3} fz="h5" mb="xs" id="table-counters-title">
          {t('database.tables.counters')}
        </Title>
        {counters.isPending && <Skeleton height={160} aria-label={t('common.loading')} />}
        {!counters.isPending && !counters.data && (
          <InspectionError
            title={t('database.tables.countersFailed')}
            error={counters.error}
            retrying={counters.isFetching}
            onRetry={() => void counters.refetch()}
          />
        )}
        {counters.data && counters.data.counters.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('database.tables.noCounters')}
          </Text>
        )}
        {counters.data && counters.data.counters.length > 0 && (
          <Table fz="sm" striped data-testid="table-counters">
            <Table.Tbody>
              {counters.data.counters.map((counter) => (
                <Table.Tr key={counter.key} data-counter={counter.key}>
                  <Table.Td>{t(`database.counters.${counter.key}`)}</Table.Td>
                  <Table.Td ta="right" className={classes.nowrap}>
                    {formatCounter(counter.value, counter.unit, i18n.language, offset)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </section>
    </Stack>
  );
}

function Definition({ definition }: { definition: TableDefinitionData }) {
  const { t } = useTranslation();
  return (
    <>
      <Text size="sm" c="dimmed">
        {t(`database.tables.types.${definition.type}`, { defaultValue: definition.type })}
      </Text>
      <section aria-labelledby="table-columns-title">
        <Title order={3} fz="h5" mb="xs" id="table-columns-title">
          {t('database.tables.columns')}
        </Title>
        <Table fz="sm" data-testid="table-columns" layout="fixed">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w="42%">{t('database.tables.column')}</Table.Th>
              <Table.Th>{t('database.tables.columnType')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {definition.columns.map((column) => (
              <Table.Tr key={column.name} data-column={column.name}>
                <Table.Td className={classes.name} valign="top">
                  <Text size="sm" fw={column.primary ? 700 : undefined} className={classes.name}>
                    {column.name}
                  </Text>
                  {column.primary && (
                    <Badge size="xs" variant="light" maw="100%">
                      {t('database.tables.primaryKey')}
                    </Badge>
                  )}
                  {column.comment && (
                    <Text size="xs" c="dimmed">
                      {column.comment}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td valign="top">
                  <Text size="sm" ff="monospace" className={classes.name}>
                    {column.type}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {t(column.nullable ? 'database.tables.nullable' : 'database.tables.notNull')}
                  </Text>
                  {column.default !== null && (
                    <Text size="xs" c="dimmed" className={classes.name}>
                      {t('database.tables.defaultValue')}{' '}
                      <Text span ff="monospace" size="xs">
                        {column.default}
                      </Text>
                    </Text>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </section>
      <section aria-labelledby="table-indexes-title">
        <Title order={3} fz="h5" mb="xs" id="table-indexes-title">
          {t('database.tables.indexList')}
        </Title>
        {definition.indexes.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('database.tables.noIndexes')}
          </Text>
        ) : (
          <Table fz="sm" data-testid="table-indexes" layout="fixed">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w="42%">{t('database.tables.index')}</Table.Th>
                <Table.Th>{t('database.tables.indexColumns')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {definition.indexes.map((index) => (
                <Table.Tr key={index.name} data-index={index.name}>
                  <Table.Td className={classes.name} valign="top">
                    <Text size="sm" className={classes.name}>
                      {index.name}
                    </Text>
                    <Group gap={4}>
                      {index.primary && (
                        <Badge size="xs" variant="light" maw="100%">
                          {t('database.tables.primaryKey')}
                        </Badge>
                      )}
                      {index.unique && !index.primary && (
                        <Badge size="xs" variant="light" color="grape">
                          {t('database.tables.unique')}
                        </Badge>
                      )}
                      {index.method && (
                        <Badge size="xs" variant="default" tt="none">
                          {index.method}
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td valign="top">
                    <Text size="sm" ff="monospace" className={classes.name}>
                      {index.columns.join(', ')}
                    </Text>
                    {index.size_bytes !== null && (
                      <Text size="xs" c="dimmed">
                        {t('database.tables.indexSize', { size: formatBytesOrDash(index.size_bytes) })}
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </section>
      {definition.ddl && (
        <section aria-labelledby="table-ddl-title">
          <Title order={3} fz="h5" mb="xs" id="table-ddl-title">
            {t('database.tables.ddl')}
          </Title>
          <Code block className={classes.fullQuery} data-testid="table-ddl">
            {definition.ddl}
          </Code>
        </section>
      )}
    </>
  );
}
