import type { ServerGraph } from '@flightdeck/schemas';
import { Card, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ChartCard } from '../../../charts/ChartCard';
import { orderedCategories } from '../api';
import { chartQuery, graphsQuery, type RangeKey } from '../queries';
import classes from '../Servers.module.css';
import { QueryError } from './QueryError';

/** The host's available graphs, grouped by category, one chart card each. */
export function GraphSections({
  serverId,
  range,
  offset,
}: {
  serverId: number;
  range: RangeKey;
  offset: number;
}) {
  const { t } = useTranslation();
  const graphs = useQuery(graphsQuery(serverId));

  if (graphs.isPending) {
    return (
      <div className={classes.chartGrid} role="status" aria-busy="true" aria-label={t('common.loading')}>
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} height={230} />
        ))}
      </div>
    );
  }
  if (graphs.isError) {
    return (
      <QueryError
        title={t('servers.graphsFailed')}
        error={graphs.error}
        retrying={graphs.isFetching}
        onRetry={() => void graphs.refetch()}
      />
    );
  }
  const categories = orderedCategories(graphs.data);
  if (categories.length === 0) {
    return (
      <Card withBorder padding="lg" data-testid="graphs-empty">
        <Text c="dimmed" size="sm">
          {t('servers.noGraphs')}
        </Text>
      </Card>
    );
  }
  return (
    <Stack gap="lg">
      {categories.map(([category, list]) => (
        <section key={category} aria-labelledby={`graphs-${category}`} data-category={category}>
          <Title order={2} fz="h4" mb="sm" id={`graphs-${category}`}>
            {t(`servers.categories.${category}`, { defaultValue: category })}
          </Title>
          <div className={classes.chartGrid}>
            {list.map((graph) => (
              <GraphCard
                key={graph.graph_id}
                serverId={serverId}
                graph={graph}
                range={range}
                offset={offset}
              />
            ))}
          </div>
        </section>
      ))}
    </Stack>
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
    <div data-graph={graph.graph_id} data-category={graph.category} style={{ minWidth: 0 }}>
      <ChartCard
        title={t(graph.title, { defaultValue: graph.title })}
        query={{ ...query, data: query.data?.chart }}
        period={query.data?.period}
        offsetMinutes={offset}
      />
    </div>
  );
}
