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

/** The band of a dynamic threshold as `get_dynamic_band` answers it: one point per hour. */
export interface DynamicBandPoints {
  x: readonly number[];
  lower: readonly number[];
  median: readonly number[];
  upper: readonly number[];
}

/** The band at each x of a chart: null where the band has no point (before it, or an hour gap). */
export interface ChartBand {
  lower: (number | null)[];
  median: (number | null)[];
  upper: (number | null)[];
}

const BAND_STEP_S = 3600;

/**
 * The band mapped onto a chart's x values: each x takes the band point of its hour (the last band
 * point at or before it, when less than an hour before), as the band holds for the whole hour.
 */
export function bandForChart(band: DynamicBandPoints, xs: readonly number[]): ChartBand {
  const out: ChartBand = { lower: [], median: [], upper: [] };
  let j = 0;
  for (const x of xs) {
    while (j + 1 < band.x.length && band.x[j + 1]! <= x) j++;
    const bx = band.x[j];
    const inside = bx !== undefined && bx <= x && x - bx < BAND_STEP_S;
    out.lower.push(inside ? band.lower[j]! : null);
    out.median.push(inside ? band.median[j]! : null);
    out.upper.push(inside ? band.upper[j]! : null);
  }
  return out;
}

/** A y range widened so the band shows whole. */
export function rangeWithBand(range: [number, number], band: ChartBand): [number, number] {
  let low = range[0];
  let high = range[1];
  for (const v of band.lower) if (v !== null && v < low) low = v;
  for (const v of band.upper) if (v !== null && v > high) high = v;
  if (low === high) {
    low -= 1;
    high += 1;
  }
  return [low, high];
}

/** Colours of the band: a translucent fill between lower and upper, the median dashed. */
export const BAND_COLORS = {
  fill: 'rgba(34, 139, 230, 0.14)',
  edge: 'rgba(34, 139, 230, 0.45)',
  median: '#228be6',
};

/**
 * uPlot options with a dynamic band drawn under the series: the area between lower and upper
 * shaded, the median dashed, and the y scale widened to show the band. `band` is mapped onto the
 * chart's x values ({@link bandForChart}).
 */
export function withDynamicBand(options: uPlot.Options, band: ChartBand): uPlot.Options {
  if (!band.median.some((v) => v !== null)) return options;
  const y = options.scales?.y;
  const baseRange = y?.range;
  const range: uPlot.Scale.Range = (u, min, max) => {
    const base: [number, number] =
      typeof baseRange === 'function'
        ? (baseRange(u, min, max, 'y') as [number, number])
        : Array.isArray(baseRange)
          ? [baseRange[0] ?? min, baseRange[1] ?? max]
          : [min, max];
    return rangeWithBand(base, band);
  };
  const draw = (u: uPlot) => {
    const xs = u.data[0];
    const { ctx } = u;
    const px = (i: number) => u.valToPos(xs[i]!, 'x', true);
    const py = (v: number) => u.valToPos(v, 'y', true);
    ctx.save();
    ctx.beginPath();
    ctx.rect(u.bbox.left, u.bbox.top, u.bbox.width, u.bbox.height);
    ctx.clip();
    // Each run of consecutive points with a band is one shape: along the upper edge, back along the lower.
    let i = 0;
    while (i < xs.length) {
      if (band.upper[i] === null || band.upper[i] === undefined) {
        i++;
        continue;
      }
      let end = i;
      while (end + 1 < xs.length && band.upper[end + 1] !== null && band.upper[end + 1] !== undefined) end++;
      ctx.beginPath();
      for (let k = i; k <= end; k++) ctx.lineTo(px(k), py(band.upper[k]!));
      for (let k = end; k >= i; k--) ctx.lineTo(px(k), py(band.lower[k]!));
      ctx.closePath();
      ctx.fillStyle = BAND_COLORS.fill;
      ctx.fill();
      ctx.lineWidth = devicePixelRatioOf();
      ctx.strokeStyle = BAND_COLORS.edge;
      ctx.setLineDash([]);
      ctx.stroke();
      ctx.beginPath();
      for (let k = i; k <= end; k++) ctx.lineTo(px(k), py(band.median[k]!));
      ctx.lineWidth = Math.max(1, 1.5 * devicePixelRatioOf());
      ctx.strokeStyle = BAND_COLORS.median;
      ctx.setLineDash([6, 4]);
      ctx.stroke();
      i = end + 1;
    }
    ctx.restore();
  };
  return {
    ...options,
    scales: { ...options.scales, y: { ...y, range } },
    plugins: [...(options.plugins ?? []), { hooks: { drawClear: [draw] } }],
  };
}
