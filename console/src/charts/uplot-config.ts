import {
  abbreviateNumber,
  type ChartConfigs,
  type ChartData,
  formatBytes,
  formatDuration,
} from '@flightdeck/schemas';
import type uPlot from 'uplot';

/**
 * The one place that turns the spec's chart contract (section 3, "Chart data") into uPlot options
 * (CONVENTIONS 9): series, axes, units, the period and the theme. Chart components never write
 * uPlot options by hand. Everything here is a pure function, so it is unit-tested without a canvas.
 */

/** Colours of a chart for one colour scheme. */
export interface ChartTheme {
  /** Axis labels and ticks. */
  text: string;
  /** Grid lines. */
  grid: string;
  /** Series colours, taken in turn. */
  palette: readonly string[];
}

/** Mantine's palette at shades that read well on a white and on a dark (#242424) card. */
export const CHART_THEMES: Readonly<Record<'light' | 'dark', ChartTheme>> = {
  light: {
    text: '#495057',
    grid: 'rgba(0, 0, 0, 0.08)',
    palette: ['#1c7ed6', '#0ca678', '#f76707', '#ae3ec9', '#e03131', '#f59f00', '#1098ad', '#4263eb'],
  },
  dark: {
    text: '#c1c2c5',
    grid: 'rgba(255, 255, 255, 0.09)',
    palette: ['#4dabf7', '#38d9a9', '#ffa94d', '#da77f2', '#ff8787', '#ffd43b', '#3bc9db', '#748ffc'],
  },
};

/** A suffix that starts with a letter is written after a space ("12 ms"); "%" or "/s" stick to the number. */
function withSuffix(text: string, suffix: string | undefined): string {
  if (!suffix) return text;
  return /^[\p{L}]/u.test(suffix) ? `${text} ${suffix}` : `${text}${suffix}`;
}

/** A number rounded to `precision` decimals, trailing zeros dropped (12.50 → "12.5"). */
function fixed(value: number, precision: number): string {
  const factor = 10 ** precision;
  const rounded = Math.round(value * factor) / factor;
  return String(Object.is(rounded, -0) ? 0 : rounded);
}

type ValueUnits = Pick<ChartConfigs, 'precision' | 'suffix' | 'converted_value'>;

/**
 * One value as a chart shows it (spec 9): byte sizes in 1024 steps when `converted_value` is
 * 'bytes', numbers of 1000 and more abbreviated (Mil, Mi, Bi, Tri, Qua), others rounded to the
 * chart's precision; then the chart's suffix. A gap (null) reads "—".
 */
export function formatChartValue(value: number | null | undefined, units: ValueUnits): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  const precision = units.precision ?? 2;
  if (units.converted_value === 'bytes') return withSuffix(formatBytes(value, precision), units.suffix);
  // Seconds of a minute and more read as a duration ("3 h 20 m"), never as "12 Mil s".
  if (units.suffix === 's' && Math.abs(value) >= 60) return formatDuration(value);
  if (Math.abs(value) >= 1000) return withSuffix(abbreviateNumber(value), units.suffix);
  return withSuffix(fixed(value, precision), units.suffix);
}

/** An axis tick: like a value, with at most one decimal so ticks stay short. */
export function formatAxisValue(value: number, units: ValueUnits): string {
  return formatChartValue(value, { ...units, precision: Math.min(units.precision ?? 2, 1) });
}

/**
 * A unix time as the user reads it in their fixed UTC offset (spec 9, DD-MM-YYYY): "HH:mm" for
 * periods within one day, "DD-MM HH:mm" for longer ones, "DD-MM-YYYY HH:mm:ss" with `full`.
 */
export function formatChartTime(
  seconds: number,
  offsetMinutes: number,
  spanSeconds: number,
  full = false,
): string {
  const iso = new Date((seconds + offsetMinutes * 60) * 1000).toISOString();
  const day = `${iso.slice(8, 10)}-${iso.slice(5, 7)}`;
  if (full) return `${day}-${iso.slice(0, 4)} ${iso.slice(11, 19)}`;
  const time = iso.slice(11, 16);
  return spanSeconds > 86_400 ? `${day} ${time}` : time;
}

/**
 * A `Date` whose local fields show `seconds` in the user's offset: uPlot places its time ticks on
 * the local fields, so ticks fall on whole hours of the user's clock, not the browser's.
 */
export function dateInOffset(seconds: number, offsetMinutes: number): Date {
  const utc = new Date(seconds * 1000);
  return new Date((seconds + offsetMinutes * 60 + utc.getTimezoneOffset() * 60) * 1000);
}

/**
 * A y field as a legend label: the metric's last word, then its labels:
 * `cpu.user_pct` → "user pct", `cpu.user{cpu=0}` → "user (cpu 0)".
 */
export function seriesLabel(field: string): string {
  const brace = field.indexOf('{');
  const metric = brace < 0 ? field : field.slice(0, brace);
  const name = (metric.split('.').at(-1) ?? metric).replace(/_/g, ' ');
  const labels = brace < 0 ? '' : field.slice(brace + 1, field.endsWith('}') ? -1 : undefined);
  if (!labels) return name;
  const pairs = labels.split(/,(?=[a-z_][a-z0-9_]*=)/).map((pair) => {
    const eq = pair.indexOf('=');
    return eq < 0 ? pair : `${pair.slice(0, eq)} ${pair.slice(eq + 1)}`;
  });
  return `${name} (${pairs.join(', ')})`;
}

/**
 * Fields drawn at first: a per-item field (`cpu.user{cpu=0}`) is hidden when the answer also holds
 * its total (`cpu.user`), so a card shows the totals; the large chart's legend shows the rest.
 */
export function initiallyShown(fields: readonly string[]): boolean[] {
  const totals = new Set(fields.filter((f) => !f.includes('{')));
  return fields.map((f) => {
    const brace = f.indexOf('{');
    return brace < 0 || !totals.has(f.slice(0, brace));
  });
}

/** Indices of samples with a gap (or the edge) on both sides: a line cannot draw them. */
export function isolatedPoints(values: ArrayLike<number | null | undefined>): number[] | null {
  const out: number[] = [];
  const present = (i: number) => i >= 0 && i < values.length && values[i] !== null && values[i] !== undefined;
  for (let i = 0; i < values.length; i++) {
    if (present(i) && !present(i - 1) && !present(i + 1)) out.push(i);
  }
  return out.length > 0 ? out : null;
}

/** ChartData as uPlot's aligned columns: x then one column per y field, in `y_axis` order. */
export function toAlignedData(data: ChartData): uPlot.AlignedData {
  return [
    data.x_values,
    ...data.y_axis.map((field) => data.y_values[field] ?? data.x_values.map(() => null)),
  ];
}

/** Whether the answer holds no point at all: the card shows the no-data label. */
export function isEmptyChart(data: ChartData | undefined): boolean {
  if (!data || data.x_values.length === 0 || data.y_axis.length === 0) return true;
  return data.y_axis.every((field) => (data.y_values[field] ?? []).every((v) => v === null));
}

/**
 * The rows of the data dialog: one per point in time that holds a value (buckets where nothing was
 * sampled are left out), newest first, a formatted cell per field.
 */
export function toTableRows(
  data: ChartData,
  offsetMinutes: number,
): { time: number; label: string; cells: string[] }[] {
  const rows: { time: number; label: string; cells: string[] }[] = [];
  data.x_values.forEach((time, i) => {
    const values = data.y_axis.map((field) => data.y_values[field]?.[i] ?? null);
    if (values.every((v) => v === null)) return;
    rows.push({
      time,
      label: formatChartTime(time, offsetMinutes, 0, true),
      cells: values.map((v) => formatChartValue(v, data.configs)),
    });
  });
  return rows.reverse();
}

/** The y scale: the chart's min and max when it sets them, else from 0 (or the lowest value) to the highest. */
export function yRange(
  configs: Pick<ChartConfigs, 'min' | 'max' | 'converted_value'>,
  dataMin: number | null,
  dataMax: number | null,
): [number, number] {
  const low = configs.min ?? Math.min(0, dataMin ?? 0);
  let high = configs.max ?? Math.max(dataMax ?? 0, low);
  if (configs.max === undefined && dataMax !== null && dataMax > low) high = dataMax + (dataMax - low) * 0.05;
  // A flat series still gets a scale; bytes get one of 1 KB so ticks are not fractions of a byte.
  if (high <= low) high = low + (configs.converted_value === 'bytes' ? 1024 : 1);
  return [low, high];
}

export interface ChartOptionsInput {
  data: ChartData;
  width: number;
  height: number;
  theme: ChartTheme;
  /** The user's UTC offset in minutes: the time axis and the legend read in it. */
  offsetMinutes: number;
  /**
   * The period the chart covers (unix seconds), read at each redraw so a chart fed with setData
   * follows a new period; the x scale spans it even where data is missing.
   */
  period?: () => { start: number; end: number } | undefined;
  /** Whether uPlot's own legend shows under the plot (off in small cards, on in the large dialog). */
  legend?: boolean;
}

/** uPlot options for one chart (created once, then fed with setData). */
export function buildChartOptions(input: ChartOptionsInput): uPlot.Options {
  const { data, theme, offsetMinutes, period } = input;
  const configs = data.configs;
  const span = (u?: uPlot) => {
    const p = period?.();
    return p ? p.end - p.start : spanOf((u?.data[0] as number[] | undefined) ?? data.x_values);
  };
  const stacked = new Set(Object.values(configs.stack ?? {}).flat());
  const shown = initiallyShown(data.y_axis);
  const axisFont = '11px system-ui, sans-serif';

  const series: uPlot.Series[] = [
    { value: (_u, v) => (v === null ? '—' : formatChartTime(v, offsetMinutes, 0, true)) },
    ...data.y_axis.map((field, i): uPlot.Series => {
      const color = theme.palette[i % theme.palette.length] ?? theme.text;
      return {
        label: seriesLabel(field),
        show: shown[i] ?? true,
        stroke: color,
        width: 1.5,
        fill: stacked.has(field) || data.y_axis.length === 1 ? `${color}22` : undefined,
        spanGaps: false,
        // Points show when sparse enough (uPlot's rule); otherwise only lone samples between gaps,
        // which a line cannot draw (the first sample of a new host).
        points: {
          size: 5,
          fill: color,
          filter: (u, seriesIdx, show) => (show ? null : isolatedPoints(u.data[seriesIdx] ?? [])),
        },
        value: (_u, v) => formatChartValue(v, configs),
      };
    }),
  ];

  return {
    width: Math.max(1, Math.floor(input.width)),
    height: Math.max(1, Math.floor(input.height)),
    tzDate: (ts) => dateInOffset(ts, offsetMinutes),
    series,
    scales: {
      x: {
        time: true,
        range: (_u, min, max): uPlot.Range.MinMax => {
          const p = period?.();
          return p ? [p.start, p.end] : [min, max];
        },
      },
      y: { range: (_u, min, max) => yRange(configs, min, max) },
    },
    axes: [
      {
        stroke: theme.text,
        font: axisFont,
        grid: { stroke: theme.grid, width: 1 },
        ticks: { stroke: theme.grid, width: 1 },
        values: (u, splits) => {
          const width = span(u);
          return splits.map((s) => formatChartTime(s, offsetMinutes, width));
        },
      },
      {
        stroke: theme.text,
        font: axisFont,
        size: axisSize,
        grid: { stroke: theme.grid, width: 1 },
        ticks: { stroke: theme.grid, width: 1 },
        // Whole-number charts (counts) get whole-number ticks: "0 1 2", never "0 0 1 1 1".
        ...((configs.precision ?? 2) === 0 ? { incrs: [...INTEGER_INCREMENTS] } : {}),
        values: (_u, splits) => splits.map((s) => formatAxisValue(s, configs)),
      },
    ],
    legend: { show: input.legend ?? false, live: true },
    cursor: { drag: { x: false, y: false }, points: { size: 6 } },
    padding: [8, 12, 0, 0],
  };
}

/** Tick steps of a whole-number axis: 1, 2, 5, 10, 20, 50... */
export const INTEGER_INCREMENTS: readonly number[] = Array.from({ length: 16 }, (_, e) =>
  [1, 2, 5].map((m) => m * 10 ** e),
).flat();

/** Narrowest the value axis gets, and what is kept beside its longest label. */
const MIN_AXIS_PX = 40;
const AXIS_GAP_PX = 14;

/**
 * Width of the value axis from its longest label, so "16 m 40 s" or "7.2 MB" is never cut at the
 * card's edge. uPlot calls it again while it settles; the first measure of a cycle is kept.
 */
function axisSize(u: uPlot, values: string[] | null, axisIdx: number, cycleNum: number): number {
  const axis = u.axes[axisIdx] as uPlot.Axis & { _size?: number };
  if (cycleNum > 1 && axis._size !== undefined) return axis._size;
  const longest = (values ?? []).reduce((a, v) => (v.length > a.length ? v : a), '');
  if (!longest) return MIN_AXIS_PX;
  const font = Array.isArray(axis.font) ? axis.font[0] : axis.font;
  if (font) u.ctx.font = String(font);
  const ratio = typeof devicePixelRatio === 'number' ? devicePixelRatio : 1;
  return Math.max(MIN_AXIS_PX, Math.ceil(u.ctx.measureText(longest).width / ratio + AXIS_GAP_PX));
}

/** Whether new data keeps the chart's series (same fields, same units), so setData is enough. */
export function sameShape(a: ChartData, b: ChartData): boolean {
  return (
    a.y_axis.length === b.y_axis.length &&
    a.y_axis.every((field, i) => field === b.y_axis[i]) &&
    JSON.stringify(a.configs) === JSON.stringify(b.configs)
  );
}

function spanOf(xs: readonly number[]): number {
  return xs.length > 1 ? (xs.at(-1) ?? 0) - (xs[0] ?? 0) : 0;
}
