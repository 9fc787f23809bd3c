import type { MttxHistoricData } from '@flightdeck/schemas';
import { Card, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ChartCard } from '../../../charts/ChartCard';
import { formatDuration, formatNumber } from '../../../lib/format';
import { QueryError } from '../../servers/components/QueryError';
import { mttxChartData } from '../management';

/** One figure of the MTTA / MTTR tiles. */
function Tile({
  label,
  value,
  hint,
  testId,
}: {
  label: string;
  value: string;
  hint: string;
  testId: string;
}) {
  return (
    <Card withBorder padding="sm" data-testid={testId}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fw={700} fz="xl" data-testid={`${testId}-value`}>
        {value}
      </Text>
      <Text size="xs" c="dimmed">
        {hint}
      </Text>
    </Card>
  );
}

/**
 * Mean time to acknowledge and to resolve over the period picker's range (spec 7,
 * `mttx/historic`): overall tiles, then one point a day on a chart.
 */
export function MttxSection({ query, offset }: { query: UseQueryResult<MttxHistoricData>; offset: number }) {
  const { t, i18n } = useTranslation();
  const data = query.data;
  const chart = useMemo(() => (data ? mttxChartData(data.days, data.start, data.end) : undefined), [data]);
  const duration = (s: number | null) => (s === null ? '—' : formatDuration(s, i18n.language));
  const count = (n: number) => formatNumber(n, i18n.language);

  return (
    <Stack gap="sm" component="section" aria-labelledby="mttx-heading" data-testid="mttx-section">
      <Title order={2} fz="h4" id="mttx-heading">
        {t('alerts.management.mttx.heading')}
      </Title>
      {query.isPending && (
        <SimpleGrid
          cols={{ base: 1, xs: 2, md: 3 }}
          spacing="sm"
          aria-busy="true"
          aria-label={t('common.loading')}
        >
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} height={84} />
          ))}
        </SimpleGrid>
      )}
      {query.isError && (
        <QueryError
          title={t('alerts.management.mttx.failed')}
          error={query.error}
          retrying={query.isFetching}
          onRetry={() => void query.refetch()}
        />
      )}
      {data && (
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm">
          <Tile
            label={t('alerts.management.mttx.mtta')}
            value={duration(data.overall.mtta_s)}
            hint={t('alerts.management.mttx.mttaHint', { count: data.overall.acknowledged })}
            testId="mttx-mtta"
          />
          <Tile
            label={t('alerts.management.mttx.mttr')}
            value={duration(data.overall.mttr_s)}
            hint={t('alerts.management.mttx.mttrHint', { count: data.overall.resolved })}
            testId="mttx-mttr"
          />
          <Tile
            label={t('alerts.management.mttx.opened')}
            value={count(data.overall.opened)}
            hint={t('alerts.management.mttx.openedHint')}
            testId="mttx-opened"
          />
        </SimpleGrid>
      )}
      <ChartCard
        title={t('alerts.management.mttx.chartTitle')}
        query={{ ...query, data: chart }}
        offsetMinutes={offset}
        {...(data ? { period: { start: data.start, end: data.end } } : {})}
      />
    </Stack>
  );
}
