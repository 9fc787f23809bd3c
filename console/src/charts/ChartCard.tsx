import type { ChartData } from '@flightdeck/schemas';
import {
  ActionIcon,
  Alert,
  Box,
  Button,
  Card,
  Group,
  Modal,
  Pagination,
  ScrollArea,
  Skeleton,
  Stack,
  Table,
  Text,
  Tooltip,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../app/shell/icons';
import { errorMessage } from '../i18n/error-message';
import { DATA_DIALOG_PAGE_SIZE, pageCount, pageOf } from './chart-table';
import { TimeSeriesChart } from './TimeSeriesChart';
import { isEmptyChart, seriesLabel, toTableRows } from './uplot-config';

/** Spec 2: a chart card is plain (no frame), card (framed) or slim (framed, short). */
export type ChartCardVariant = 'plain' | 'card' | 'slim';

const HEIGHTS: Record<ChartCardVariant, number> = { plain: 200, card: 180, slim: 110 };

/** What the card needs of a chart query (TanStack Query's result fits). */
export interface ChartQueryState {
  data: ChartData | undefined;
  isPending: boolean;
  isError: boolean;
  error: unknown;
  isFetching: boolean;
  refetch: () => unknown;
}

export interface ChartCardProps {
  title: string;
  query: ChartQueryState;
  offsetMinutes: number;
  period?: { start: number; end: number };
  variant?: ChartCardVariant;
}

/**
 * A chart with its title, a table icon opening the data dialog (the points, 15 rows a page) and an
 * expand icon opening the chart large. Loading, error and no-data states take the chart's place.
 */
export function ChartCard({ title, query, offsetMinutes, period, variant = 'card' }: ChartCardProps) {
  const { t, i18n } = useTranslation();
  const [dialog, setDialog] = useState<'data' | 'large' | null>(null);
  const height = HEIGHTS[variant];
  const data = query.data;
  const empty = isEmptyChart(data);

  let body: React.ReactNode;
  if (query.isPending) {
    body = <Skeleton height={height} aria-label={t('common.loading')} />;
  } else if (query.isError && !data) {
    body = (
      <Alert color="red" variant="light" role="alert" mih={height} title={t('charts.loadFailed')}>
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{errorMessage(i18n, query.error)}</Text>
          <Button
            size="xs"
            variant="light"
            color="red"
            loading={query.isFetching}
            onClick={() => void query.refetch()}
          >
            {t('common.retry')}
          </Button>
        </Stack>
      </Alert>
    );
  } else if (!data || empty) {
    body = (
      <Group h={height} justify="center" data-testid="chart-no-data">
        <Text c="dimmed" size="sm">
          {t('charts.noData')}
        </Text>
      </Group>
    );
  } else {
    body = (
      <TimeSeriesChart
        data={data}
        height={height}
        offsetMinutes={offsetMinutes}
        period={period}
        label={title}
      />
    );
  }

  const header = (
    <Group justify="space-between" wrap="nowrap" gap="xs" mb={variant === 'slim' ? 4 : 'xs'}>
      <Text fw={600} size={variant === 'slim' ? 'xs' : 'sm'} truncate="end" component="h3" m={0}>
        {title}
      </Text>
      <Group gap={2} wrap="nowrap">
        <Tooltip label={t('charts.showData')} withinPortal>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="sm"
            aria-label={`${t('charts.showData')}: ${title}`}
            disabled={!data || empty}
            onClick={() => setDialog('data')}
            data-testid="chart-data-button"
          >
            <Icon name="table" size={16} />
          </ActionIcon>
        </Tooltip>
        <Tooltip label={t('charts.expand')} withinPortal>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="sm"
            aria-label={`${t('charts.expand')}: ${title}`}
            disabled={!data || empty}
            onClick={() => setDialog('large')}
            data-testid="chart-expand-button"
          >
            <Icon name="expand" size={16} />
          </ActionIcon>
        </Tooltip>
      </Group>
    </Group>
  );

  const content = (
    <>
      {header}
      {body}
      {data && dialog === 'data' && (
        <DataDialog title={title} data={data} offsetMinutes={offsetMinutes} onClose={() => setDialog(null)} />
      )}
      {data && dialog === 'large' && (
        <Modal
          opened
          onClose={() => setDialog(null)}
          title={title}
          size="min(1200px, 95vw)"
          closeButtonProps={{ 'aria-label': t('common.close') }}
          data-testid="chart-large-dialog"
        >
          <TimeSeriesChart
            data={data}
            height={420}
            offsetMinutes={offsetMinutes}
            period={period}
            legend
            label={title}
          />
        </Modal>
      )}
    </>
  );

  if (variant === 'plain') {
    return (
      <Box data-testid="chart-card" data-variant={variant} miw={0}>
        {content}
      </Box>
    );
  }
  return (
    <Card
      withBorder
      padding={variant === 'slim' ? 'xs' : 'md'}
      data-testid="chart-card"
      data-variant={variant}
      miw={0}
    >
      {content}
    </Card>
  );
}

/** The chart's points as a table, newest first, 15 rows a page. */
function DataDialog({
  title,
  data,
  offsetMinutes,
  onClose,
}: {
  title: string;
  data: ChartData;
  offsetMinutes: number;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const rows = toTableRows(data, offsetMinutes);
  const pages = pageCount(rows.length, DATA_DIALOG_PAGE_SIZE);
  return (
    <Modal
      opened
      onClose={onClose}
      title={title}
      size={data.y_axis.length > 4 ? 'xl' : 'lg'}
      closeButtonProps={{ 'aria-label': t('common.close') }}
      data-testid="chart-data-dialog"
    >
      <ScrollArea type="auto">
        <Table striped highlightOnHover fz="sm" miw={data.y_axis.length > 2 ? 480 : undefined}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('charts.time')}</Table.Th>
              {data.y_axis.map((field) => (
                <Table.Th key={field} ta="right">
                  {seriesLabel(field)}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {pageOf(rows, page).map((row) => (
              <Table.Tr key={row.time}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{row.label}</Table.Td>
                {row.cells.map((cell, i) => (
                  <Table.Td key={data.y_axis[i]} ta="right" style={{ whiteSpace: 'nowrap' }}>
                    {cell}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
      <Group justify="space-between" mt="sm" gap="xs">
        <Text size="xs" c="dimmed" data-testid="chart-data-count">
          {t('charts.rows', { count: rows.length })}
        </Text>
        {pages > 1 && (
          <Pagination
            total={pages}
            value={page}
            onChange={setPage}
            size="sm"
            siblings={0}
            getControlProps={(control) => ({
              'aria-label': t(`charts.pagination.${control}`),
            })}
            getItemProps={(p) => ({ 'aria-label': t('charts.pagination.page', { page: p }) })}
          />
        )}
      </Group>
    </Modal>
  );
}
