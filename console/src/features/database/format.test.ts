import type { HealthStatus } from '@flightdeck/schemas';
import { describe, expect, it } from 'vitest';
import {
  formatBytesOrDash,
  formatClock,
  formatCount,
  formatCounter,
  formatHealthValue,
  formatRate,
  formatRatio,
  formatSeconds,
  secondsSince,
  worstFirst,
} from './format';

describe('formatters', () => {
  it('writes sizes in 1024 steps and a dash for a size the engine does not know', () => {
    expect(formatBytesOrDash(8192)).toBe('8 KB');
    expect(formatBytesOrDash(1536 * 1024 * 1024)).toBe('1.5 GB');
    expect(formatBytesOrDash(null)).toBe('—');
  });

  it("writes counts and rates in the reader's language", () => {
    expect(formatCount(1234567, 'en')).toBe('1,234,567');
    expect(formatCount(1234567, 'pt')).toBe('1.234.567');
    expect(formatCount(undefined, 'en')).toBe('—');
    expect(formatRate(4.56789, 'en')).toBe('4.57');
    expect(formatRate(1234.5, 'es')).toBe('1235');
  });

  it('writes a ratio as a percentage with one decimal', () => {
    expect(formatRatio(0.9973, 'en')).toBe('99.7%');
    expect(formatRatio(1, 'en')).toBe('100%');
    expect(formatRatio(null, 'en')).toBe('—');
  });

  it('writes short durations with a decimal and longer ones in their two largest units', () => {
    expect(formatSeconds(2.46, 'en')).toBe('2.5 sec');
    expect(formatSeconds(0, 'en')).toBe('0 sec');
    expect(formatSeconds(3723, 'en')).toBe('1 hr 2 min');
    expect(formatSeconds(null, 'en')).toBe('—');
  });

  it("formats each table counter by its unit, timestamps in the user's offset", () => {
    expect(formatCounter(2048, 'bytes', 'en', 0)).toBe('2 KB');
    expect(formatCounter(42_000, 'count', 'en', 0)).toBe('42,000');
    expect(formatCounter(90, 'seconds', 'en', 0)).toBe('1 min 30 sec');
    // 2024-03-05 10:20 UTC, read three hours behind.
    expect(formatCounter(Date.UTC(2024, 2, 5, 10, 20), 'timestamp', 'en', -180)).toBe('05-03-2024 07:20');
    expect(formatCounter(null, 'timestamp', 'en', 0)).toBe('—');
  });

  it("formats a health check's value by its unit", () => {
    expect(formatHealthValue(0.5, 'ratio', 'en')).toBe('50%');
    expect(formatHealthValue(85, 'percent', 'en')).toBe('85%');
    expect(formatHealthValue(3, 'count', 'en')).toBe('3');
    expect(formatHealthValue(1024, 'bytes', 'en')).toBe('1 KB');
    expect(formatHealthValue(null, 'seconds', 'en')).toBe('—');
  });

  it('counts the seconds since a sample, never below zero', () => {
    expect(secondsSince(10_000, 14_900)).toBe(4);
    expect(secondsSince(20_000, 10_000)).toBe(0);
  });

  it("writes the time of day to the second in the user's offset", () => {
    expect(formatClock(Date.UTC(2024, 0, 1, 23, 59, 58), 120)).toBe('01:59:58');
  });
});

describe('worstFirst', () => {
  it('puts critical before warning before unknown before ok, keeping the order within each', () => {
    const items: { name: string; status: HealthStatus }[] = [
      { name: 'a', status: 'ok' },
      { name: 'b', status: 'warning' },
      { name: 'c', status: 'unknown' },
      { name: 'd', status: 'critical' },
      { name: 'e', status: 'warning' },
      { name: 'f', status: 'ok' },
    ];
    expect(worstFirst(items).map((i) => i.name)).toEqual(['d', 'b', 'e', 'c', 'a', 'f']);
    expect(items[0]?.name).toBe('a');
  });
});
