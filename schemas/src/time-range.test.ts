import { describe, expect, it } from 'vitest';
import {
  clampToFlashback,
  DAY_SECONDS,
  DEFAULT_TIME_RANGE_TYPE,
  flashbackLowerBound,
  normalizeCustomRange,
  parseUtcOffset,
  REFRESHABLE_TIME_RANGE_TYPES,
  refreshAllowed,
  resolveTimeRange,
  startOfLocalDay,
  TIME_RANGE_DURATIONS,
  TIME_RANGE_TYPES,
  TimeRange,
} from './time-range';

const utc = (...args: [number, number, number, number?, number?, number?]) => Date.UTC(...args) / 1000;
/** 2024-03-15 12:34:56 UTC, a Friday. */
const NOW = utc(2024, 2, 15, 12, 34, 56);

describe('time-range types', () => {
  it('lists the eleven types of the spec and defaults to the last hour', () => {
    expect(TIME_RANGE_TYPES).toEqual([
      'last_hour',
      'last_two_hours',
      'last_six_hours',
      'last_twelve_hours',
      'last_twenty_four_hours',
      'today',
      'yesterday',
      'last_three_days',
      'last_week',
      'last_two_weeks',
      'custom',
    ]);
    expect(DEFAULT_TIME_RANGE_TYPE).toBe('last_hour');
  });

  it('spans 1, 2, 6, 12, 24, 72, 168 and 336 hours for the rolling types', () => {
    expect(Object.values(TIME_RANGE_DURATIONS).map((s) => s / 3600)).toEqual([1, 2, 6, 12, 24, 72, 168, 336]);
    expect(TIME_RANGE_DURATIONS.last_two_weeks).toBe(336 * 3600);
  });

  it('validates {type, start?, end?} with unix seconds', () => {
    expect(TimeRange.parse({ type: 'last_week' })).toEqual({ type: 'last_week' });
    expect(TimeRange.parse({ type: 'custom', start: 1, end: 2 })).toEqual({
      type: 'custom',
      start: 1,
      end: 2,
    });
    expect(TimeRange.safeParse({ type: 'last_month' }).success).toBe(false);
    expect(TimeRange.safeParse({ type: 'custom', start: '1', end: 2 }).success).toBe(false);
    expect(TimeRange.safeParse({ type: 'custom', start: 1.5, end: 2 }).success).toBe(false);
  });
});

describe('normalizeCustomRange', () => {
  it('keeps an ordered period as it is', () => {
    expect(normalizeCustomRange(100, 200)).toEqual({ start: 100, end: 200 });
  });

  it('swaps a start after the end', () => {
    expect(normalizeCustomRange(500, 100)).toEqual({ start: 100, end: 500 });
  });

  it('moves the end of an empty period to one minute after the start', () => {
    expect(normalizeCustomRange(100, 100)).toEqual({ start: 100, end: 160 });
  });
});

describe('resolveTimeRange', () => {
  it('ends rolling types now and starts them their duration earlier', () => {
    expect(resolveTimeRange({ type: 'last_hour' }, NOW)).toEqual({ start: NOW - 3600, end: NOW });
    expect(resolveTimeRange({ type: 'last_twenty_four_hours' }, NOW)).toEqual({
      start: NOW - 86_400,
      end: NOW,
    });
    expect(resolveTimeRange({ type: 'last_two_weeks' }, NOW)).toEqual({ start: NOW - 336 * 3600, end: NOW });
  });

  it('gives whole seconds for a fractional now', () => {
    expect(resolveTimeRange({ type: 'last_hour' }, NOW + 0.9)).toEqual({ start: NOW - 3600, end: NOW });
  });

  it('runs today from midnight in UTC to now by default', () => {
    expect(resolveTimeRange({ type: 'today' }, NOW)).toEqual({ start: utc(2024, 2, 15), end: NOW });
  });

  it('runs yesterday over the whole previous calendar day', () => {
    expect(resolveTimeRange({ type: 'yesterday' }, NOW)).toEqual({
      start: utc(2024, 2, 14),
      end: utc(2024, 2, 15),
    });
  });

  it('takes today and yesterday in the user offset, where the date may differ from UTC', () => {
    // 12:34 UTC is already 01:34 on the 16th at +13:00 and still 02:34 on the 15th at -10:00.
    expect(resolveTimeRange({ type: 'today' }, NOW, 13 * 60).start).toBe(utc(2024, 2, 16) - 13 * 3600);
    expect(resolveTimeRange({ type: 'today' }, NOW, -10 * 60).start).toBe(utc(2024, 2, 15) + 10 * 3600);
    expect(resolveTimeRange({ type: 'yesterday' }, NOW, 330)).toEqual({
      start: utc(2024, 2, 14) - 330 * 60,
      end: utc(2024, 2, 15) - 330 * 60,
    });
  });

  it('uses the unix pair of a custom range, normalised', () => {
    expect(resolveTimeRange({ type: 'custom', start: 1000, end: 5000 }, NOW)).toEqual({
      start: 1000,
      end: 5000,
    });
    expect(resolveTimeRange({ type: 'custom', start: 5000, end: 1000 }, NOW)).toEqual({
      start: 1000,
      end: 5000,
    });
    expect(resolveTimeRange({ type: 'custom', start: 5000, end: 5000 }, NOW)).toEqual({
      start: 5000,
      end: 5060,
    });
  });

  it('defaults a custom range without a unix pair to the last hour', () => {
    const lastHour = { start: NOW - 3600, end: NOW };
    expect(resolveTimeRange({ type: 'custom' }, NOW)).toEqual(lastHour);
    expect(resolveTimeRange({ type: 'custom', start: 1000 }, NOW)).toEqual(lastHour);
  });

  it('accepts unix timestamps only if both are numbers', () => {
    const lastHour = { start: NOW - 3600, end: NOW };
    expect(resolveTimeRange({ type: 'custom', start: '1000', end: 5000 }, NOW)).toEqual(lastHour);
    expect(resolveTimeRange({ type: 'custom', start: 1000, end: null }, NOW)).toEqual(lastHour);
    expect(resolveTimeRange({ type: 'custom', start: Number.NaN, end: 5000 }, NOW)).toEqual(lastHour);
  });

  it('defaults a missing or unknown type to the last hour', () => {
    const lastHour = { start: NOW - 3600, end: NOW };
    expect(resolveTimeRange({}, NOW)).toEqual(lastHour);
    expect(resolveTimeRange({ type: 'last_month' }, NOW)).toEqual(lastHour);
  });

  it('ignores a unix pair sent with a preset type', () => {
    expect(resolveTimeRange({ type: 'last_six_hours', start: 1, end: 2 }, NOW)).toEqual({
      start: NOW - 6 * 3600,
      end: NOW,
    });
  });
});

describe('startOfLocalDay', () => {
  it('finds midnight for positive, negative and half-hour offsets', () => {
    expect(startOfLocalDay(NOW)).toBe(utc(2024, 2, 15));
    expect(startOfLocalDay(NOW, -180)).toBe(utc(2024, 2, 15, 3));
    expect(startOfLocalDay(NOW, 330)).toBe(utc(2024, 2, 15) - 330 * 60);
  });

  it('keeps midnight itself in its own day', () => {
    expect(startOfLocalDay(utc(2024, 2, 15))).toBe(utc(2024, 2, 15));
    expect(startOfLocalDay(utc(2024, 2, 15) - 1)).toBe(utc(2024, 2, 14));
  });
});

describe('flashback', () => {
  it('bounds the lookback at the start of today minus max_flashback days', () => {
    expect(flashbackLowerBound(7, NOW)).toBe(utc(2024, 2, 8));
    expect(flashbackLowerBound(0, NOW)).toBe(utc(2024, 2, 15));
  });

  it('counts the start of today in the user offset', () => {
    expect(flashbackLowerBound(1, NOW, -180)).toBe(utc(2024, 2, 14, 3));
  });

  it('treats a negative max_flashback as 0', () => {
    expect(flashbackLowerBound(-3, NOW)).toBe(utc(2024, 2, 15));
  });

  it('leaves a range inside the selectable dates alone', () => {
    const range = { start: NOW - 7200, end: NOW };
    expect(clampToFlashback(range, 7, NOW)).toEqual(range);
  });

  it('moves a start before the bound up to the bound', () => {
    expect(clampToFlashback({ start: utc(2024, 1, 1), end: NOW }, 7, NOW)).toEqual({
      start: utc(2024, 2, 8),
      end: NOW,
    });
  });

  it('ends the range at the end of today at the latest', () => {
    expect(clampToFlashback({ start: NOW, end: NOW + 10 * DAY_SECONDS }, 7, NOW)).toEqual({
      start: NOW,
      end: utc(2024, 2, 16),
    });
  });

  it('gives a one-minute range at the bound for a range wholly before it', () => {
    expect(clampToFlashback({ start: 0, end: 1000 }, 7, NOW)).toEqual({
      start: utc(2024, 2, 8),
      end: utc(2024, 2, 8) + 60,
    });
  });
});

describe('refreshAllowed', () => {
  it('allows auto-refresh only for the last hour and the last two hours', () => {
    expect(TIME_RANGE_TYPES.filter(refreshAllowed)).toEqual(['last_hour', 'last_two_hours']);
    expect(REFRESHABLE_TIME_RANGE_TYPES).toEqual(['last_hour', 'last_two_hours']);
  });
});

describe('parseUtcOffset', () => {
  const JANUARY = utc(2024, 0, 15, 12);
  const JULY = utc(2024, 6, 15, 12);

  it('reads fixed +HH:MM and -HH:MM offsets', () => {
    expect(parseUtcOffset('+00:00')).toBe(0);
    expect(parseUtcOffset('+05:30')).toBe(330);
    expect(parseUtcOffset('-03:00')).toBe(-180);
    expect(parseUtcOffset('+14:00')).toBe(840);
    expect(parseUtcOffset('-00:00')).toBe(0);
    expect(Object.is(parseUtcOffset('-00:00'), 0)).toBe(true);
  });

  it('keeps a fixed offset the same all year, free of daylight saving', () => {
    expect(parseUtcOffset('+01:00', JANUARY)).toBe(60);
    expect(parseUtcOffset('+01:00', JULY)).toBe(60);
  });

  it('resolves a named zone at the given instant, daylight saving included', () => {
    expect(parseUtcOffset('Europe/Berlin', JANUARY)).toBe(60);
    expect(parseUtcOffset('Europe/Berlin', JULY)).toBe(120);
    expect(parseUtcOffset('America/New_York', JANUARY)).toBe(-300);
    expect(parseUtcOffset('America/New_York', JULY)).toBe(-240);
    expect(parseUtcOffset('Asia/Kolkata', JULY)).toBe(330);
    expect(parseUtcOffset('America/Sao_Paulo', JANUARY)).toBe(-180);
    expect(parseUtcOffset('UTC', JULY)).toBe(0);
  });

  it('defaults to +00:00 when the timezone is missing or unreadable', () => {
    expect(parseUtcOffset(undefined)).toBe(0);
    expect(parseUtcOffset(null)).toBe(0);
    expect(parseUtcOffset('')).toBe(0);
    expect(parseUtcOffset('Mars/Olympus_Mons')).toBe(0);
    expect(parseUtcOffset('+5:30')).toBe(0);
    expect(parseUtcOffset('+25:00')).toBe(0);
    expect(parseUtcOffset('+05:75')).toBe(0);
  });
});
