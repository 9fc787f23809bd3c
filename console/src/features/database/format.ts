import { type CounterUnit, formatBytes, type HealthStatus } from '@flightdeck/schemas';
import { formatDateTime } from '../../app/time-range';
import { formatDuration, formatNumber } from '../../lib/format';

/** The database screen's formatters: every figure with its unit, "—" for a missing one. */

export const DASH = '—';

export function formatBytesOrDash(value: number | null | undefined): string {
  return value === null || value === undefined || !Number.isFinite(value) ? DASH : formatBytes(value, 1);
}

export function formatCount(value: number | null | undefined, locale: string): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return DASH;
  return formatNumber(Math.round(value), locale);
}

/** A rate per second: two decimals below 10, whole numbers above. */
export function formatRate(value: number | null | undefined, locale: string): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return DASH;
  const digits = Math.abs(value) < 10 ? 2 : 0;
  return new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(value);
}

/** A ratio from 0 to 1 as a percentage with one decimal ("99.7 %" in the reader's language). */
export function formatRatio(value: number | null | undefined, locale: string): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return DASH;
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(value);
}

/** A percentage from 0 to 100. */
export function formatPercent(value: number | null | undefined, locale: string): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return DASH;
  return formatRatio(value / 100, locale);
}

/** Seconds as a duration; below ten seconds with one decimal, so a short query does not read "0 s". */
export function formatSeconds(value: number | null | undefined, locale: string): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return DASH;
  if (Math.abs(value) < 10) {
    return new Intl.NumberFormat(locale, {
      style: 'unit',
      unit: 'second',
      unitDisplay: 'short',
      maximumFractionDigits: 1,
    }).format(value);
  }
  return formatDuration(value, locale);
}

/** A table counter as its unit reads: `timestamp` values are unix ms, shown in the user's offset. */
export function formatCounter(
  value: number | null,
  unit: CounterUnit,
  locale: string,
  offsetMinutes: number,
): string {
  if (value === null || !Number.isFinite(value)) return DASH;
  switch (unit) {
    case 'bytes':
      return formatBytes(value, 1);
    case 'seconds':
      return formatSeconds(value, locale);
    case 'timestamp':
      return formatDateTime(Math.floor(value / 1000), offsetMinutes);
    case 'count':
      return formatNumber(value, locale);
  }
}

/** A health check's value in its unit. */
export function formatHealthValue(
  value: number | null,
  unit: 'count' | 'ratio' | 'percent' | 'seconds' | 'bytes',
  locale: string,
): string {
  switch (unit) {
    case 'ratio':
      return formatRatio(value, locale);
    case 'percent':
      return formatPercent(value, locale);
    case 'seconds':
      return formatSeconds(value, locale);
    case 'bytes':
      return formatBytesOrDash(value);
    case 'count':
      return formatCount(value, locale);
  }
}

/** Seconds since a unix-ms time, never below zero (the browser's clock may run behind). */
export function secondsSince(unixMs: number, nowMs: number): number {
  return Math.max(0, Math.floor((nowMs - unixMs) / 1000));
}

/** Worst first: critical, warning, unknown, ok. */
const SEVERITY: Readonly<Record<HealthStatus, number>> = { critical: 0, warning: 1, unknown: 2, ok: 3 };

export const HEALTH_COLORS: Readonly<Record<HealthStatus, string>> = {
  ok: 'teal',
  warning: 'yellow',
  critical: 'red',
  unknown: 'gray',
};

/** Items with a health status, the worst first; items of one status keep their order. */
export function worstFirst<T extends { status: HealthStatus }>(items: readonly T[]): T[] {
  return items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => SEVERITY[a.item.status] - SEVERITY[b.item.status] || a.index - b.index)
    .map(({ item }) => item);
}

/** The time of day of a unix-ms instant in the user's UTC offset, to the second ("14:03:27"). */
export function formatClock(unixMs: number, offsetMinutes: number): string {
  return new Date(unixMs + offsetMinutes * 60_000).toISOString().slice(11, 19);
}
