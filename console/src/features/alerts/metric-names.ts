import { CHARTS, type ChartId, chartById, METRICS, metricByName } from '@flightdeck/schemas';
import type { TFunction } from 'i18next';

/**
 * Metric names as the threshold pages show them: the catalogue chart's title (translated where the
 * console has it, else the catalogue's English title) and the metric's last word.
 */

/** A catalogue chart's title in the user's language. */
export function chartTitle(t: TFunction, chartId: string): string {
  const chart = chartById(chartId);
  return t(`alerts.charts.${chartId}`, { defaultValue: chart?.title ?? chartId });
}

/** `cpu.total` → "total", `disk.used_pct` → "used pct". */
export function metricShortName(metric: string): string {
  return (metric.split('.').at(-1) ?? metric).replace(/_/g, ' ');
}

/** "CPU usage · total" for `cpu.total`; the name itself for a metric outside the catalogue. */
export function metricTitle(t: TFunction, metric: string): string {
  const def = metricByName(metric);
  if (!def) return metric;
  return `${chartTitle(t, def.chart)} · ${metricShortName(metric)}`;
}

export interface MetricOptionGroup {
  group: string;
  items: { value: string; label: string }[];
}

/**
 * The catalogue's metrics grouped by chart, in catalogue order, for a select. `charts` limits them
 * to those charts (the ones a server has data for); `keep` is always listed (the metric being edited).
 */
export function metricOptions(
  t: TFunction,
  charts?: ReadonlySet<string>,
  keep?: string,
): MetricOptionGroup[] {
  const groups: MetricOptionGroup[] = [];
  for (const chart of CHARTS) {
    const items = METRICS.filter(
      (m) => m.chart === chart.id && (!charts || charts.has(chart.id) || m.name === keep),
    ).map((m) => ({ value: m.name, label: `${metricShortName(m.name)} (${m.name})` }));
    if (items.length > 0) groups.push({ group: chartTitle(t, chart.id as ChartId), items });
  }
  return groups;
}
