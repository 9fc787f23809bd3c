import 'uplot/dist/uPlot.min.css';
import { type ChartData, metricByName, type ServerThreshold } from '@flightdeck/schemas';
import { Box, Card, Group, Skeleton, Text, useComputedColorScheme } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import uPlot from 'uplot';
import {
  buildChartOptions,
  CHART_THEMES,
  formatChartValue,
  isEmptyChart,
  sameShape,
  toAlignedData,
} from '../../../charts/uplot-config';
import { QueryError } from '../../servers/components/QueryError';
import { chartQuery, type RangeKey } from '../../servers/queries';
import { dynamicBandQuery } from '../dynamic-threshold';
import {
  BAND_COLORS,
  bandForChart,
  type ChartBand,
  chartForThreshold,
  type DynamicBandPoints,
  type ThresholdLevel,
  thresholdLevels,
  withDynamicBand,
  withThresholdLines,
} from '../threshold-chart';
import { DynamicThresholdEditor } from './DynamicThresholdEditor';

const HEIGHT = 220;
/** While the series has no point yet, the chart asks again this often (the agent samples every 10 s). */
const EMPTY_POLL_MS = 10_000;

function hasPoints(chart: ChartData, threshold: Pick<ServerThreshold, 'metric' | 'labels'>): boolean {
  return !isEmptyChart(chartForThreshold(chart, threshold.metric, threshold.labels));
}

/**
 * The chart of a threshold's metric on one server over the period picker's range, with the
 * threshold's yellow, red and recovery levels drawn across it and named under it. A dynamic
 * threshold has no fixed level: its learnt band is drawn instead (shaded, median dashed), with a
 * note while it is still learning, and its settings can be changed under the chart.
 */
export function ThresholdChart({
  serverId,
  threshold,
  range,
  offset,
  title,
}: {
  serverId: number;
  threshold: ServerThreshold;
  range: RangeKey;
  offset: number;
  title: string;
}) {
  const { t, i18n } = useTranslation();
  const chartId = metricByName(threshold.metric)?.chart;
  const query = useQuery({
    ...chartQuery(serverId, chartId ?? 'cpu', range),
    enabled: chartId !== undefined,
    // A new host has no sample yet: ask again at the agent's beat until the series shows.
    refetchInterval: (q) =>
      q.state.data && !hasPoints(q.state.data.chart, threshold) ? EMPTY_POLL_MS : false,
  });
  const data = useMemo(
    () => (query.data ? chartForThreshold(query.data.chart, threshold.metric, threshold.labels) : undefined),
    [query.data, threshold.metric, threshold.labels],
  );
  const levels = useMemo(() => (threshold.mode === 'defined' ? thresholdLevels(threshold) : []), [threshold]);
  const dynamic = threshold.mode === 'dynamic';
  const bandQuery = useQuery({
    ...dynamicBandQuery(threshold.id, serverId, range, threshold.sensitivity),
    enabled: dynamic,
  });
  const band = dynamic ? bandQuery.data : undefined;

  let body: React.ReactNode;
  if (query.isPending) body = <Skeleton height={HEIGHT} aria-label={t('common.loading')} />;
  else if (query.isError && !data)
    body = (
      <QueryError
        title={t('charts.loadFailed')}
        error={query.error}
        retrying={query.isFetching}
        onRetry={() => void query.refetch()}
      />
    );
  else if (!data || isEmptyChart(data))
    body = (
      <Group h={HEIGHT} justify="center" data-testid="threshold-chart-no-data">
        <Text c="dimmed" size="sm">
          {t('charts.noData')}
        </Text>
      </Group>
    );
  else
    body = (
      <LevelsPlot
        data={data}
        levels={levels}
        band={band?.armed ? band : undefined}
        offset={offset}
        period={query.data?.period}
        label={title}
      />
    );

  return (
    <Card withBorder padding="sm" data-testid="threshold-chart">
      <Text fw={600} size="sm" component="h3" m={0} mb="xs">
        {title}
      </Text>
      {body}
      <Group gap="md" mt="xs" wrap="wrap" data-testid="threshold-chart-levels">
        {levels.map((level) => (
          <Group key={level.kind} gap={6} wrap="nowrap" data-level={level.kind}>
            <Box
              w={18}
              h={0}
              style={{
                borderTop: `2px ${level.kind === 'recovery' ? 'dashed' : 'solid'} ${level.color}`,
              }}
              aria-hidden
            />
            <Text size="xs">
              {t(`alerts.thresholds.levels.${level.kind}`)}:{' '}
              {data
                ? formatChartValue(level.value, data.configs)
                : new Intl.NumberFormat(i18n.language).format(level.value)}
            </Text>
          </Group>
        ))}
        {dynamic && band?.armed && (
          <>
            <Group gap={6} wrap="nowrap" data-level="band">
              <Box
                w={18}
                h={10}
                style={{ background: BAND_COLORS.fill, border: `1px solid ${BAND_COLORS.edge}` }}
                aria-hidden
              />
              <Text size="xs">{t('alerts.dynamic.band', { sensitivity: band.sensitivity })}</Text>
            </Group>
            <Group gap={6} wrap="nowrap" data-level="median">
              <Box w={18} h={0} style={{ borderTop: `2px dashed ${BAND_COLORS.median}` }} aria-hidden />
              <Text size="xs">{t('alerts.dynamic.median')}</Text>
            </Group>
          </>
        )}
        {dynamic && band && !band.armed && (
          <Text size="xs" c="dimmed" data-testid="dynamic-band-learning">
            {t('alerts.dynamic.learning')}
          </Text>
        )}
        {dynamic && bandQuery.isError && (
          <Text size="xs" c="red">
            {t('alerts.dynamic.bandFailed')}
          </Text>
        )}
      </Group>
      {dynamic && <DynamicThresholdEditor threshold={threshold} />}
    </Card>
  );
}

/** The uPlot chart: created once, fed with setData while its series and levels stay the same. */
function LevelsPlot({
  data,
  levels,
  band,
  offset,
  period,
  label,
}: {
  data: ChartData;
  levels: ThresholdLevel[];
  band: DynamicBandPoints | undefined;
  offset: number;
  period: { start: number; end: number } | undefined;
  label: string;
}) {
  const container = useRef<HTMLDivElement>(null);
  const chart = useRef<{
    plot: uPlot;
    data: ChartData;
    levels: ThresholdLevel[];
    band: DynamicBandPoints | undefined;
  } | null>(null);
  const periodRef = useRef(period);
  periodRef.current = period;
  const scheme = useComputedColorScheme('light');

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const current = chart.current;
    // The band is drawn from the chart's x values: a new band or new x values make a new plot.
    if (
      current &&
      current.levels === levels &&
      current.band === band &&
      sameShape(current.data, data) &&
      (band === undefined || current.data.x_values === data.x_values)
    ) {
      current.plot.setData(toAlignedData(data));
      current.data = data;
      return;
    }
    current?.plot.destroy();
    const mapped: ChartBand | undefined = band ? bandForChart(band, data.x_values) : undefined;
    const withLines = withThresholdLines(
      buildChartOptions({
        data,
        width: element.clientWidth || 300,
        height: HEIGHT,
        theme: CHART_THEMES[scheme],
        offsetMinutes: offset,
        period: () => periodRef.current,
        legend: true,
      }),
      levels,
    );
    const options = mapped ? withDynamicBand(withLines, mapped) : withLines;
    chart.current = { plot: new uPlot(options, toAlignedData(data), element), data, levels, band };
  }, [data, levels, band, scheme, offset]);

  useEffect(
    () => () => {
      chart.current?.plot.destroy();
      chart.current = null;
    },
    [],
  );

  useEffect(() => {
    const element = container.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      const width = Math.floor(element.clientWidth);
      const plot = chart.current?.plot;
      if (plot && width > 0 && width !== plot.width) plot.setSize({ width, height: HEIGHT });
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  return (
    <Box
      ref={container}
      role="img"
      aria-label={label}
      data-testid="chart"
      mih={HEIGHT}
      style={{ width: '100%', minWidth: 0, overflow: 'hidden' }}
    />
  );
}
