import { describe, expect, it } from 'vitest';
import { hitRatio, num, ratePerSecond } from './rates';

describe('ratePerSecond', () => {
  it('divides the increase by the seconds between readings', () => {
    expect(ratePerSecond(100, 160, 60)).toBe(1);
    expect(ratePerSecond(0, 1, 3)).toBe(0.333);
  });

  it('has no rate without two readings, without time, or after a reset', () => {
    expect(ratePerSecond(undefined, 5, 10)).toBeUndefined();
    expect(ratePerSecond(5, undefined, 10)).toBeUndefined();
    expect(ratePerSecond(5, 6, 0)).toBeUndefined();
    expect(ratePerSecond(50, 6, 10)).toBeUndefined();
  });
});

describe('hitRatio', () => {
  it('is the share of hits over the interval', () => {
    expect(hitRatio(1000, 1900, 10, 110)).toBe(0.9);
  });

  it('is undefined when nothing happened or a counter was reset', () => {
    expect(hitRatio(5, 5, 1, 1)).toBeUndefined();
    expect(hitRatio(5, 4, 1, 2)).toBeUndefined();
  });
});

describe('num', () => {
  it('reads driver values: numbers, numeric strings and bigints', () => {
    expect(num(3)).toBe(3);
    expect(num('2523.782')).toBe(2523.782);
    expect(num(10n)).toBe(10);
    expect(num('ON')).toBeUndefined();
    expect(num('')).toBeUndefined();
    expect(num(null)).toBeUndefined();
  });
});
