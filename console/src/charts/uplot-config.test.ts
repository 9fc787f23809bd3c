import type { ChartData } from '@flightdeck/schemas';
import { describe, expect, it } from 'vitest';
import { DATA_DIALOG_PAGE_SIZE, pageCount, pageOf } from './chart-table';
import {
  buildChartOptions,
  CHART_THEMES,
  dateInOffset,
  formatAxisValue,
  formatChartTime,
  formatChartValue,
  initiallyShown,
  isEmptyChart,
  isolatedPoints,
  sameShape,
  seriesLabel,
  toAlignedData,
  toTableRows,
  yRange,
} from './uplot-config';

const base = { is_dynamic: false, timer_task: 60, precision: 2 } as const;

function chart(overrides: Partial<ChartData> = {}): ChartData {
  return {
    configs: { ...base, suffix: '%', max: 100 },
    x_values: [1_700_000_000, 1_700_000_060, 1_700_000_120],
    y_axis: ['cpu.user_pct', 'cpu.system_pct'],
    y_values: { 'cpu.user_pct': [10, null, 12.345], 'cpu.system_pct': [1, 2, 3] },
    ...overrides,
  };
}

describe('formatChartValue', () => {
  it('rounds to the precision, drops trailing zeros and adds the suffix', () => {
    expect(formatChartValue(12.345, { precision: 2, suffix: '%' })).toBe('12.35%');
    expect(formatChartValue(12.5, { precision: 2, suffix: '%' })).toBe('12.5%');
    expect(formatChartValue(3, { precision: 0 })).toBe('3');
    expect(formatChartValue(-0.001, { precision: 1 })).toBe('0');
  });

  it('writes a word suffix after a space and a symbol right after the number', () => {
    expect(formatChartValue(12, { precision: 0, suffix: 'ms' })).toBe('12 ms');
    expect(formatChartValue(12, { precision: 0, suffix: '/s' })).toBe('12/s');
  });

  it('abbreviates numbers above 999 with the spec suffixes', () => {
    expect(formatChartValue(999, { precision: 2 })).toBe('999');
    expect(formatChartValue(1500, { precision: 2 })).toBe('1.5 Mil');
    expect(formatChartValue(2_000_000, { precision: 2, suffix: '/s' })).toBe('2 Mi/s');
    expect(formatChartValue(-3_400_000_000, { precision: 2 })).toBe('-3.4 Bi');
  });

  it('converts bytes in 1024 steps with the precision', () => {
    expect(formatChartValue(1536, { precision: 2, converted_value: 'bytes' })).toBe('1.5 KB');
    expect(formatChartValue(1023, { precision: 2, converted_value: 'bytes' })).toBe('1023 B');
    expect(formatChartValue(5 * 1024 ** 3, { precision: 1, converted_value: 'bytes', suffix: '/s' })).toBe(
      '5 GB/s',
    );
  });

  it('shows a gap as a dash', () => {
    expect(formatChartValue(null, { precision: 2 })).toBe('—');
    expect(formatChartValue(Number.NaN, { precision: 2 })).toBe('—');
  });

  it('keeps axis ticks to one decimal', () => {
    expect(formatAxisValue(12.345, { precision: 3, suffix: '%' })).toBe('12.3%');
  });
});

describe('time', () => {
  // 2023-11-14 22:13:20 UTC
  const t = 1_700_000_000;

  it('reads times in the user offset', () => {
    expect(formatChartTime(t, 0, 3600)).toBe('22:13');
    expect(formatChartTime(t, -180, 3600)).toBe('19:13');
    expect(formatChartTime(t, 120, 3600)).toBe('00:13');
  });

  it('adds the day for periods longer than a day and the whole date when asked', () => {
    expect(formatChartTime(t, 120, 3 * 86_400)).toBe('15-11 00:13');
    expect(formatChartTime(t, 0, 0, true)).toBe('14-11-2023 22:13:20');
  });

  it('gives uPlot a date whose local fields show the user offset', () => {
    const date = dateInOffset(t, 330);
    expect([date.getHours(), date.getMinutes()]).toEqual([3, 43]);
  });
});

describe('data', () => {
  it('aligns x then each y field in y_axis order, a missing field as gaps', () => {
    const data = chart({ y_axis: ['cpu.system_pct', 'missing'] });
    expect(toAlignedData(data)).toEqual([data.x_values, [1, 2, 3], [null, null, null]]);
  });

  it('knows an empty answer', () => {
    expect(isEmptyChart(undefined)).toBe(true);
    expect(isEmptyChart(chart({ x_values: [], y_values: {} }))).toBe(true);
    expect(
      isEmptyChart(chart({ y_values: { 'cpu.user_pct': [null, null, null] }, y_axis: ['cpu.user_pct'] })),
    ).toBe(true);
    expect(isEmptyChart(chart())).toBe(false);
  });

  it('labels series by their labels, else by the metric name', () => {
    expect(seriesLabel('disk.used_pct{mount=/}')).toBe('used pct (mount /)');
    expect(seriesLabel('net.rx_bytes{iface=eth0,dir=in}')).toBe('rx bytes (iface eth0, dir in)');
    expect(seriesLabel('cpu.user_pct')).toBe('user pct');
  });

  it('draws the totals first and hides the per-item fields that have one', () => {
    expect(initiallyShown(['cpu.user', 'cpu.user{cpu=0}', 'disk.used{mount=/}', 'cpu.system'])).toEqual([
      true,
      false,
      true,
      true,
    ]);
  });

  it('finds the lone samples a line cannot draw', () => {
    expect(isolatedPoints([null, 3, null, 4, 5, null, 6])).toEqual([1, 6]);
    expect(isolatedPoints([7])).toEqual([0]);
    expect(isolatedPoints([1, 2, null])).toBeNull();
  });

  it('drops the times where nothing was sampled from the table', () => {
    const data = chart({ y_values: { 'cpu.user_pct': [1, null, null], 'cpu.system_pct': [2, null, 3] } });
    expect(toTableRows(data, 0).map((r) => r.time)).toEqual([1_700_000_120, 1_700_000_000]);
  });

  it('makes table rows newest first with formatted cells', () => {
    const rows = toTableRows(chart(), 0);
    expect(rows.map((r) => r.time)).toEqual([1_700_000_120, 1_700_000_060, 1_700_000_000]);
    expect(rows[0]?.cells).toEqual(['12.35%', '3%']);
    expect(rows[1]?.cells).toEqual(['—', '2%']);
    expect(rows[2]?.label).toBe('14-11-2023 22:13:20');
  });

  it('pages the data dialog 15 rows at a time', () => {
    const rows = Array.from({ length: 40 }, (_, i) => i);
    expect(DATA_DIALOG_PAGE_SIZE).toBe(15);
    expect(pageCount(40)).toBe(3);
    expect(pageCount(0)).toBe(1);
    expect(pageOf(rows, 1)).toHaveLength(15);
    expect(pageOf(rows, 3)).toEqual([30, 31, 32, 33, 34, 35, 36, 37, 38, 39]);
    expect(pageOf(rows, 9)).toEqual(pageOf(rows, 3));
    expect(pageOf(rows, 0)).toEqual(pageOf(rows, 1));
  });

  it('tells whether new data keeps the series', () => {
    expect(sameShape(chart(), chart({ x_values: [1], y_values: {} }))).toBe(true);
    expect(sameShape(chart(), chart({ y_axis: ['cpu.user_pct'] }))).toBe(false);
    expect(sameShape(chart(), chart({ configs: { ...base, suffix: 'ms' } }))).toBe(false);
  });
});

describe('yRange', () => {
  it('uses the chart min and max when set', () => {
    expect(yRange({ min: 0, max: 100 }, 3, 40)).toEqual([0, 100]);
  });

  it('starts at 0 and leaves headroom above the highest value', () => {
    expect(yRange({}, 10, 100)).toEqual([0, 105]);
    expect(yRange({}, -10, 10)).toEqual([-10, 11]);
  });

  it('never gives an empty range', () => {
    expect(yRange({}, null, null)).toEqual([0, 1]);
    expect(yRange({}, 0, 0)).toEqual([0, 1]);
    expect(yRange({ converted_value: 'bytes' }, 0, 0)).toEqual([0, 1024]);
  });
});

describe('buildChartOptions', () => {
  const period = { start: 1_699_996_400, end: 1_700_000_120 };
  const options = buildChartOptions({
    data: chart(),
    width: 400.7,
    height: 180,
    theme: CHART_THEMES.dark,
    offsetMinutes: 60,
    period: () => period,
  });

  it('gives one series per field after the x series, with the theme palette', () => {
    expect(options.series).toHaveLength(3);
    expect(options.series.slice(1).map((s) => s.label)).toEqual(['user pct', 'system pct']);
    expect(options.series.slice(1).map((s) => s.stroke)).toEqual(CHART_THEMES.dark.palette.slice(0, 2));
    expect(options.width).toBe(400);
    expect(options.legend?.show).toBe(false);
  });

  it('formats legend values and y ticks with the chart units', () => {
    const value = options.series[1]?.value as (u: unknown, v: number | null) => string;
    expect(value(undefined, 42.123)).toBe('42.12%');
    const yValues = options.axes?.[1]?.values as (u: unknown, splits: number[]) => string[];
    expect(yValues(undefined, [0, 50, 100])).toEqual(['0%', '50%', '100%']);
  });

  it('spans the period on the x scale and writes times in the user offset', () => {
    const range = options.scales?.x?.range as (u: unknown, min: number, max: number) => [number, number];
    expect(range(undefined, 1, 2)).toEqual([period.start, period.end]);
    const xValues = options.axes?.[0]?.values as (u: unknown, splits: number[]) => string[];
    expect(xValues(undefined, [1_700_000_000])).toEqual(['23:13']);
    expect(options.axes?.[0]?.stroke).toBe(CHART_THEMES.dark.text);
  });

  it('keeps the y range of the configs', () => {
    const range = options.scales?.y?.range as (u: unknown, min: number, max: number) => [number, number];
    expect(range(undefined, 1, 40)).toEqual([0, 100]);
  });

  it('ticks a whole-number chart at whole numbers only, and leaves others to uPlot', () => {
    const base = chart();
    const counts = buildChartOptions({
      data: { ...base, configs: { ...base.configs, precision: 0 } },
      width: 400,
      height: 180,
      theme: CHART_THEMES.light,
      offsetMinutes: 0,
      period: () => period,
    });
    const incrs = counts.axes?.[1]?.incrs as number[];
    expect(incrs.slice(0, 4)).toEqual([1, 2, 5, 10]);
    expect(incrs.every(Number.isInteger)).toBe(true);
    expect(options.axes?.[1]?.incrs).toBeUndefined();
  });

  it('sizes the value axis to its longest label, so a long duration is not cut', () => {
    const size = options.axes?.[1]?.size as (
      u: unknown,
      values: string[] | null,
      i: number,
      c: number,
    ) => number;
    const measured: string[] = [];
    const fake = {
      axes: [{}, { font: ['12px sans-serif', 12] }],
      ctx: {
        font: '',
        measureText: (text: string) => {
          measured.push(text);
          return { width: text.length * 7 };
        },
      },
    };
    const narrow = size(fake, ['0', '5'], 1, 0);
    const wide = size(fake, ['0 s', '8 m 20 s', '16 m 40 s', '25 m'], 1, 0);
    expect(measured).toContain('16 m 40 s');
    expect(wide).toBeGreaterThan(narrow);
    expect(wide).toBeGreaterThanOrEqual(
      Math.ceil(('16 m 40 s'.length * 7) / (globalThis.devicePixelRatio ?? 1)),
    );
  });
});
