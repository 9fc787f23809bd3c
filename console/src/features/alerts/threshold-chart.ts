import type { ChartData, Labels, Threshold } from '@flightdeck/schemas';
import type uPlot from 'uplot';

/**
 * The metric's chart of a threshold: only the series the threshold watches, with its levels drawn
 * across (yellow, red, and the recovery level dashed). Pure functions over the chart contract and
 * uPlot options, tested without a canvas.
 */

/** The y field of a series: the metric, then its labels in key order (`disk.used_pct{mount=/}`). */
export function seriesField(metric: string, labels: Labels): string {
  const keys = Object.keys(labels).sort();
  return keys.length ? `${metric}{${keys.map((k) => `${k}=${labels[k]}`).join(',')}}` : metric;
}

/** Labels of a y field (`m{a=1,b=x}` → {a: '1', b: 'x'}); a comma splits only where `name=` follows. */
function fieldLabels(field: string): Labels {
  const brace = field.indexOf('{');
  if (brace < 0) return {};
  const body = field.slice(brace + 1, field.endsWith('}') ? -1 : undefined);
  const out: Labels = {};
  for (const pair of body.split(/,(?=[a-z_][a-z0-9_]*=)/)) {
    const eq = pair.indexOf('=');
    if (eq > 0) out[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return out;
}

function fieldMetric(field: string): string {
  const brace = field.indexOf('{');
  return brace < 0 ? field : field.slice(0, brace);
}

/**
 * The fields of a chart a threshold watches: those of its metric whose labels hold all of the
 * threshold's. Without labels, the metric's whole-host series when the chart has one (e.g.
 * `cpu.total`, not each core), else every series of the metric (each mount).
 */
export function watchedFields(data: ChartData, metric: string, labels: Labels | null): string[] {
  const ofMetric = data.y_axis.filter((f) => fieldMetric(f) === metric);
  if (labels && Object.keys(labels).length > 0) {
    return ofMetric.filter((f) => {
      const have = fieldLabels(f);
      return Object.entries(labels).every(([k, v]) => have[k] === v);
    });
  }
  return ofMetric.includes(metric) ? [metric] : ofMetric;
}

/** The chart answer cut down to the watched fields (stacking dropped: a level reads against one line). */
export function chartForThreshold(data: ChartData, metric: string, labels: Labels | null): ChartData {
  const fields = watchedFields(data, metric, labels);
  const { stack: _stack, ...configs } = data.configs;
  return {
    configs,
    x_values: data.x_values,
    y_axis: fields,
    y_values: Object.fromEntries(fields.map((f) => [f, data.y_values[f] ?? []])),
  };
}

export type LevelKind = 'yellow' | 'red' | 'recovery';

export interface ThresholdLevel {
  kind: LevelKind;
  value: number;
  color: string;
}

/** Colours of the level lines, readable on light and dark cards. */
export const LEVEL_COLORS: Readonly<Record<LevelKind, string>> = {
  yellow: '#f59f00',
  red: '#e03131',
  recovery: '#0ca678',
};

/** The levels a threshold draws: yellow, red and recovery, those it sets. */
export function thresholdLevels(threshold: Pick<Threshold, 'yellow' | 'red' | 'recovery'>): ThresholdLevel[] {
  const out: ThresholdLevel[] = [];
  for (const kind of ['yellow', 'red', 'recovery'] as const) {
    const value = threshold[kind];
    if (value !== null) out.push({ kind, value, color: LEVEL_COLORS[kind] });
  }
  return out;
}

/** A y range widened so every level shows, with a little room above the highest. */
export function rangeWithLevels(
  range: [number, number],
  levels: readonly ThresholdLevel[],
): [number, number] {
  if (levels.length === 0) return range;
  const values = levels.map((l) => l.value);
  let low = Math.min(range[0], ...values);
  let high = Math.max(range[1], ...values);
  if (high === Math.max(...values) && high > range[1]) high += (high - low) * 0.05 || 1;
  if (low === high) {
    low -= 1;
    high += 1;
  }
  return [low, high];
}

/**
 * uPlot options with the levels drawn as horizontal lines over the plot and the y scale widened to
 * show them. Takes the options the chart builder made, so series, axes and units stay its own.
 */
export function withThresholdLines(options: uPlot.Options, levels: readonly ThresholdLevel[]): uPlot.Options {
  if (levels.length === 0) return options;
  const y = options.scales?.y;
  const baseRange = y?.range;
  const range: uPlot.Scale.Range = (u, min, max) => {
    const base: [number, number] =
      typeof baseRange === 'function'
        ? (baseRange(u, min, max, 'y') as [number, number])
        : Array.isArray(baseRange)
          ? [baseRange[0] ?? min, baseRange[1] ?? max]
          : [min, max];
    return rangeWithLevels(base, levels);
  };
  const draw = (u: uPlot) => {
    const { ctx, bbox } = u;
    ctx.save();
    ctx.lineWidth = Math.max(1, 1.5 * devicePixelRatioOf());
    for (const level of levels) {
      const yPos = Math.round(u.valToPos(level.value, 'y', true));
      if (yPos < bbox.top || yPos > bbox.top + bbox.height) continue;
      ctx.strokeStyle = level.color;
      ctx.setLineDash(level.kind === 'recovery' ? [6, 4] : []);
      ctx.beginPath();
      ctx.moveTo(bbox.left, yPos);
      ctx.lineTo(bbox.left + bbox.width, yPos);
      ctx.stroke();
    }
    ctx.restore();
  };
  return {
    ...options,
    scales: { ...options.scales, y: { ...y, range } },
    plugins: [...(options.plugins ?? []), { hooks: { draw: [draw] } }],
  };
}

function devicePixelRatioOf(): number {
  return typeof devicePixelRatio === 'number' ? devicePixelRatio : 1;
}
