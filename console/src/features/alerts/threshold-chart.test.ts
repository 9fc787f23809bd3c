import type { ChartData } from '@flightdeck/schemas';
import type uPlot from 'uplot';
import { describe, expect, it } from 'vitest';
import {
  chartForThreshold,
  rangeWithLevels,
  thresholdLevels,
  watchedFields,
  withThresholdLines,
} from './threshold-chart';

const data: ChartData = {
  configs: {
    is_dynamic: false,
    timer_task: 60,
    precision: 1,
    suffix: '%',
    stack: { all: ['cpu.user', 'cpu.system'] },
  },
  x_values: [1, 2],
  y_axis: [
    'cpu.user',
    'cpu.total',
    'cpu.total{core=0}',
    'cpu.total{core=1}',
    'disk.used_pct{mount=/,device=sda}',
  ],
  y_values: {
    'cpu.user': [1, 2],
    'cpu.total': [10, 20],
    'cpu.total{core=0}': [5, 6],
    'cpu.total{core=1}': [7, 8],
    'disk.used_pct{mount=/,device=sda}': [50, 51],
  },
};

describe('threshold chart', () => {
  it('draws the whole-host series of a threshold without labels', () => {
    expect(watchedFields(data, 'cpu.total', null)).toEqual(['cpu.total']);
  });

  it('draws the series whose labels hold the threshold labels', () => {
    expect(watchedFields(data, 'cpu.total', { core: '1' })).toEqual(['cpu.total{core=1}']);
    expect(watchedFields(data, 'disk.used_pct', { mount: '/' })).toEqual([
      'disk.used_pct{mount=/,device=sda}',
    ]);
  });

  it('draws every series of a metric that has no whole-host one', () => {
    const perCore = { ...data, y_axis: ['cpu.total{core=0}', 'cpu.total{core=1}'] };
    expect(watchedFields(perCore, 'cpu.total', null)).toEqual(['cpu.total{core=0}', 'cpu.total{core=1}']);
  });

  it('cuts the answer down to the watched series and drops stacking', () => {
    const cut = chartForThreshold(data, 'cpu.total', null);
    expect(cut.y_axis).toEqual(['cpu.total']);
    expect(cut.y_values).toEqual({ 'cpu.total': [10, 20] });
    expect(cut.configs.stack).toBeUndefined();
    expect(cut.configs.suffix).toBe('%');
  });

  it('lists the levels a threshold sets', () => {
    expect(thresholdLevels({ yellow: null, red: 90, recovery: 70 }).map((l) => [l.kind, l.value])).toEqual([
      ['red', 90],
      ['recovery', 70],
    ]);
  });

  it('widens the y range so every level shows', () => {
    const levels = thresholdLevels({ yellow: 80, red: 1000, recovery: -5 });
    const [low, high] = rangeWithLevels([0, 100], levels);
    expect(low).toBe(-5);
    expect(high).toBeGreaterThan(1000);
    expect(rangeWithLevels([0, 100], [])).toEqual([0, 100]);
    expect(rangeWithLevels([0, 100], thresholdLevels({ yellow: 50, red: null, recovery: null }))).toEqual([
      0, 100,
    ]);
  });

  it('adds the level lines to the builder options without touching its series', () => {
    const options = {
      width: 100,
      height: 50,
      series: [{}, { label: 'total' }],
      scales: { x: { time: true }, y: { range: () => [0, 100] as [number, number] } },
    } as uPlot.Options;
    const out = withThresholdLines(options, thresholdLevels({ yellow: 80, red: 200, recovery: null }));
    expect(out.series).toBe(options.series);
    expect(out.plugins).toHaveLength(1);
    const range = out.scales?.y?.range as (
      u: uPlot,
      min: number,
      max: number,
      key: string,
    ) => [number, number];
    expect(range({} as uPlot, 0, 50, 'y')[1]).toBeGreaterThan(200);
    expect(withThresholdLines(options, [])).toBe(options);
  });
});
