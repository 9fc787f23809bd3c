import { describe, expect, it } from 'vitest';
import {
  formatDateTime,
  fromDateTimeInput,
  searchToRange,
  toDateTimeInput,
  validateShellSearch,
} from './time-range';

const NOW = Date.UTC(2024, 2, 15, 12, 34, 56) / 1000;

describe('validateShellSearch', () => {
  it('keeps a preset, an interval of the list and TV mode', () => {
    expect(validateShellSearch({ range: 'last_week', interval: 600, tv: 1 })).toEqual({
      range: 'last_week',
      interval: 600,
      tv: 1,
    });
    expect(validateShellSearch({ interval: '1800', tv: '1' })).toEqual({ interval: 1800, tv: 1 });
  });

  it('leaves the default last hour out of the URL and drops unknown values', () => {
    expect(validateShellSearch({ range: 'last_hour' })).toEqual({});
    expect(validateShellSearch({ range: 'last_year', interval: 42, tv: 0 })).toEqual({});
    expect(validateShellSearch({ interval: 'often' })).toEqual({});
  });

  it('keeps a custom range only with both ends, swapping them or adding a minute as needed', () => {
    expect(validateShellSearch({ range: 'custom', from: 100, to: 4000 })).toEqual({
      range: 'custom',
      from: 100,
      to: 4000,
    });
    expect(validateShellSearch({ range: 'custom', from: 4000, to: 100 })).toMatchObject({
      from: 100,
      to: 4000,
    });
    expect(validateShellSearch({ range: 'custom', from: 500, to: 500 })).toMatchObject({
      from: 500,
      to: 560,
    });
    expect(validateShellSearch({ range: 'custom', from: 500 })).toEqual({});
    expect(validateShellSearch({ range: 'custom', from: 'x', to: 1 })).toEqual({});
  });

  it('ignores from and to with a preset', () => {
    expect(validateShellSearch({ range: 'today', from: 1, to: 2 })).toEqual({ range: 'today' });
  });
});

describe('searchToRange', () => {
  it('resolves the last hour by default and a custom pair as given', () => {
    expect(searchToRange({}, NOW)).toEqual({ start: NOW - 3600, end: NOW });
    expect(searchToRange({ range: 'custom', from: 10, to: 20 }, NOW)).toEqual({ start: 10, end: 20 });
    expect(searchToRange({ range: 'last_two_weeks' }, NOW)).toEqual({ start: NOW - 336 * 3600, end: NOW });
  });
});

describe('date-time inputs', () => {
  it('round-trips unix seconds through the input value in the user offset', () => {
    expect(toDateTimeInput(NOW)).toBe('2024-03-15T12:34');
    expect(toDateTimeInput(NOW, -180)).toBe('2024-03-15T09:34');
    expect(fromDateTimeInput('2024-03-15T09:34', -180)).toBe(NOW - 56);
    expect(fromDateTimeInput('', 0)).toBeNaN();
  });

  it('formats dates as DD-MM-YYYY HH:mm', () => {
    expect(formatDateTime(NOW)).toBe('15-03-2024 12:34');
  });
});
