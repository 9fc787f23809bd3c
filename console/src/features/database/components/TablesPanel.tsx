import type { TableRef } from '@flightdeck/schemas';
import { Anchor, Button, Group, ScrollArea, Skeleton, Stack, Table, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../../app/shell/icons';
import classes from '../Database.module.css';
import { DASH, formatBytesOrDash, formatCount } from '../format';
import { databaseTablesQuery } from '../queries';
import { filterTables, qualifiedName, sameTable, tableRefOf } from '../tables';
import { InspectionError } from './InspectionError';
import { TableDrawer } from './TableDrawer';

/** Rows shown at first and added by each "show more": thousands of tables stay quick to draw. */
const PAGE_ROWS = 100;

/**
 * The target's tables, largest first, with a search box; a table's name opens the side panel
 * with its definition and counters.
 */
export function TablesPanel({
  serverId,
  serviceId,
  offset,
}: {
  serverId: number;
  serviceId: number;
  offset: number;
}) {
  const { t, i18n } = useTranslation();
  const tables = useQuery(databaseTablesQuery(serverId, serviceId));
  const [search, setSearch] = useState('');
  const [limit, setLimit] = useState(PAGE_ROWS);
  const [selected, setSelected] = useState<TableRef | null>(null);
  const matching = useMemo(
    () => (tables.data ? filterTables(tables.data.tables, search) : []),
    [tables.data, search],
  );
  const showEngine = tables.data?.tables.some((table) => table.engine !== null) ?? false;

  let body: React.ReactNode;
  if (tables.isPending) {
    body = <Skeleton height={200} aria-label={t('common.loading')} />;
  } else if (!tables.data) {
    body = (
      <InspectionError
        title={t('database.tables.failed')}
        error={tables.error}
        retrying={tables.isFetching}
        onRetry={() => void tables.refetch()}
      />
    );
  } else if (tables.data.tables.length === 0) {
    body = (
      <Text size="sm" c="dimmed" data-testid="tables-empty">
        {t('database.tables.empty')}
      </Text>
    );
  } else if (matching.length === 0) {
    body = (
      <Text size="sm" c="dimmed" data-testid="tables-no-match">
        {t('database.tables.noMatch')}
      </Text>
    );
  } else {
    body = (
      <Stack gap="xs">
        <ScrollArea type="auto">
          <Table fz="sm" miw={showEngine ? 760 : 680} highlightOnHover data-testid="tables-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('database.tables.name')}</Table.Th>
                <Table.Th>{t('database.tables.type')}</Table.Th>
                {showEngine && <Table.Th>{t('database.tables.engine')}</Table.Th>}
                <Table.Th ta="right">{t('database.tables.rows')}</Table.Th>
                <Table.Th ta="right">{t('database.tables.data')}</Table.Th>
                <Table.Th ta="right">{t('database.tables.indexes')}</Table.Th>
                <Table.Th ta="right">{t('database.tables.total')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {matching.slice(0, limit).map((table) => {
                const ref = tableRefOf(table);
                const name = qualifiedName(table);
                return (
                  <Table.Tr
                    key={name}
                    data-testid="table-row"
                    data-table={name}
                    aria-selected={sameTable(selected, ref)}
                  >
                    <Table.Td className={classes.name}>
                      <Anchor
                        component="button"
                        type="button"
                        size="sm"
                        onClick={() => setSelected(ref)}
                        ta="left"
                      >
                        {name}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>
                      {t(`database.tables.types.${table.type}`, { defaultValue: table.type })}
                    </Table.Td>
                    {showEngine && <Table.Td>{table.engine ?? DASH}</Table.Td>}
                    <Table.Td ta="right" className={classes.nowrap}>
                      {formatCount(table.rows, i18n.language)}
                    </Table.Td>
                    <Table.Td ta="right" className={classes.nowrap}>
                      {formatBytesOrDash(table.data_bytes)}
                    </Table.Td>
                    <Table.Td ta="right" className={classes.nowrap}>
                      {formatBytesOrDash(table.index_bytes)}
                    </Table.Td>
                    <Table.Td ta="right" className={classes.nowrap} fw={600}>
                      {formatBytesOrDash(table.size_bytes)}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </ScrollArea>
        <Group justify="space-between" gap="xs">
          <Text size="xs" c="dimmed" data-testid="tables-count">
            {t('database.tables.count', {
              shown: formatCount(Math.min(limit, matching.length), i18n.language),
              total: formatCount(matching.length, i18n.language),
            })}
            {tables.data.truncated ? ` · ${t('database.tables.truncated')}` : ''}
          </Text>
          {matching.length > limit && (
            <Button variant="subtle" size="xs" onClick={() => setLimit((n) => n + PAGE_ROWS)}>
              {t('database.tables.showMore')}
            </Button>
          )}
        </Group>
      </Stack>
    );
  }

  return (
    <Stack gap="sm" data-testid="tables-panel">
      <TextInput
        value={search}
        onChange={(event) => {
          setSearch(event.currentTarget.value);
          setLimit(PAGE_ROWS);
        }}
        label={t('database.tables.searchLabel')}
        placeholder={t('database.tables.searchPlaceholder')}
        leftSection={<Icon name="search" size={16} />}
        w={{ base: '100%', xs: 320 }}
        data-testid="tables-search"
      />
      {body}
      <TableDrawer
        serverId={serverId}
        serviceId={serviceId}
        table={selected}
        offset={offset}
        onClose={() => setSelected(null)}
      />
    </Stack>
  );
}
