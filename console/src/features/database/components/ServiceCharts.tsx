import type { ServerGraph } from '@flightdeck/schemas';
import { Card, Skeleton, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ChartCard } from '../../../charts/ChartCard';
import { formatDuration } from '../../../lib/format';
import { QueryError } from '../../servers/components/QueryError';
import { chartQuery, type RangeKey } from '../../servers/queries';
import classes from '../Database.module.css';
import { serviceGraphsQuery } from '../queries';

/**
 * The service's charts: the catalogue charts its samples fill, over the period of the picker. The
 * page asks again whenever a new sample arrives, so a chart shows up after the poll that fills it.
 */
export function ServiceCharts({
  serverId,
  serviceId,
  service,
  range,
  offset,
  intervalS,
}: {
  serverId: number;
  serviceId: number;
  service: string;
  range: RangeKey;
  offset: number;
  intervalS: number | undefined;
}) {
  const { t, i18n } = useTranslation();
  const graphs = useQuery(serviceGraphsQuery(serverId, serviceId, service));
  let body: React.ReactNode;
  if (graphs.isPending) {
    body = (
      <div className={classes.chartGrid} role="status" aria-busy="true" aria-label={t('common.loading')}>
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} height={230} />
        ))}
      </div>
    );
  } else if (!graphs.data) {
    body = (
      <QueryError
        title={t('database.chartsFailed')}
        error={graphs.error}
        retrying={graphs.isFetching}
        onRetry={() => void graphs.refetch()}
      />
    );
  } else if (graphs.data.length === 0) {
    body = (
      <Card withBorder padding="lg" data-testid="service-charts-empty">
        <Text c="dimmed" size="sm">
          {intervalS
            ? t('database.noChartsYet', { interval: formatDuration(intervalS, i18n.language) })
            : t('database.noCharts')}
        </Text>
      </Card>
    );
  } else {
    body = (
      <div className={classes.chartGrid}>
        {graphs.data.map((graph) => (
          <GraphCard key={graph.graph_id} serverId={serverId} graph={graph} range={range} offset={offset} />
        ))}
      </div>
    );
  }
  return (
    <section aria-labelledby="service-charts-title" data-testid="service-charts">
      <Title order={2} fz="h4" mb="sm" id="service-charts-title">
        {t('database.sections.charts')}
      </Title>
      {body}
    </section>
  );
}

function GraphCard({
  serverId,
  graph,
  range,
  offset,
}: {
  serverId: number;
  graph: ServerGraph;
  range: RangeKey;
  offset: number;
}) {
  const { t } = useTranslation();
  const query = useQuery(chartQuery(serverId, graph.graph_id, range));
  return (
    <div data-graph={graph.graph_id} style={{ minWidth: 0 }}>
      <ChartCard
        title={t(graph.title, { defaultValue: graph.title })}
        query={{ ...query, data: query.data?.chart }}
        period={query.data?.period}
        offsetMinutes={offset}
      />
    </div>
  );
}
