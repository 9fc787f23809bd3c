import type uPlot from 'uplot';
import { describe, expect, it } from 'vitest';
import { bandForChart, rangeWithBand, withDynamicBand } from './threshold-chart';

const H = 3600;
/** Two hours of band starting at 10:00, then an hour missing, then 13:00. */
const band = {
  x: [10 * H, 11 * H, 13 * H],
  lower: [1, 2, 4],
  median: [10, 20, 40],
  upper: [19, 38, 76],
};

describe('dynamic band on the threshold chart', () => {
  it("gives each chart point its hour's band, and none before the band or in a missing hour", () => {
    const xs = [9 * H + 3000, 10 * H, 10 * H + 1800, 11 * H + 3599, 12 * H + 60, 13 * H, 14 * H + 10];
    expect(bandForChart(band, xs)).toEqual({
      lower: [null, 1, 1, 2, null, 4, null],
      median: [null, 10, 10, 20, null, 40, null],
      upper: [null, 19, 19, 38, null, 76, null],
    });
  });

  it('maps nothing onto an empty band or an empty chart', () => {
    expect(bandForChart({ x: [], lower: [], median: [], upper: [] }, [H, 2 * H])).toEqual({
      lower: [null, null],
      median: [null, null],
      upper: [null, null],
    });
    expect(bandForChart(band, [])).toEqual({ lower: [], median: [], upper: [] });
  });

  it('widens the y range to the band', () => {
    const mapped = bandForChart(band, [10 * H, 13 * H]);
    expect(rangeWithBand([5, 50], mapped)).toEqual([1, 76]);
    expect(rangeWithBand([0, 100], mapped)).toEqual([0, 100]);
  });

  it('adds the band plugin and range to the builder options, and nothing without a band', () => {
    const options = {
      width: 100,
      height: 50,
      series: [{}, { label: 'user' }],
      scales: { x: { time: true }, y: { range: () => [0, 10] as [number, number] } },
    } as uPlot.Options;
    const out = withDynamicBand(options, bandForChart(band, [10 * H, 11 * H]));
    expect(out.series).toBe(options.series);
    expect(out.plugins).toHaveLength(1);
    const range = out.scales?.y?.range as (
      u: uPlot,
      min: number,
      max: number,
      key: string,
    ) => [number, number];
    expect(range({} as uPlot, 0, 5, 'y')).toEqual([0, 38]);
    expect(withDynamicBand(options, bandForChart(band, [5 * H]))).toBe(options);
  });
});
