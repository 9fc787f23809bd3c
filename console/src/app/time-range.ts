import {
  DEFAULT_TIME_RANGE_TYPE,
  normalizeCustomRange,
  REFRESH_INTERVALS,
  type RefreshInterval,
  resolveTimeRange,
  TIME_RANGE_TYPES,
  type TimeRangeType,
  type UnixRange,
} from '@flightdeck/schemas';

/**
 * Search params every signed-in page keeps (DESIGN 6: typed search params), so a link reopens the
 * same period: `range` (a time-range type, absent = last hour), `from`/`to` (unix seconds, only with
 * `custom`), `interval` (auto-refresh seconds, absent = 300) and `tv=1` (TV mode).
 */
export interface ShellSearch {
  range?: TimeRangeType;
  from?: number;
  to?: number;
  interval?: RefreshInterval;
  tv?: 1;
}

export const SHELL_SEARCH_KEYS = ['range', 'from', 'to', 'interval', 'tv'] as const;

function unixSeconds(value: unknown): number | undefined {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : undefined;
}

/** Reads the shell's search params, dropping what does not fit instead of failing the page. */
export function validateShellSearch(search: Record<string, unknown>): ShellSearch {
  const out: ShellSearch = {};
  const range = search.range;
  if (typeof range === 'string' && (TIME_RANGE_TYPES as readonly string[]).includes(range)) {
    if (range !== DEFAULT_TIME_RANGE_TYPE) out.range = range as TimeRangeType;
  }
  if (out.range === 'custom') {
    const from = unixSeconds(search.from);
    const to = unixSeconds(search.to);
    // Without both ends a custom range reads as the last hour (spec 4), so it is dropped.
    if (from === undefined || to === undefined) delete out.range;
    else Object.assign(out, rangeToSearch(normalizeCustomRange(from, to)));
  }
  const interval = Number(search.interval);
  if ((REFRESH_INTERVALS as readonly number[]).includes(interval)) out.interval = interval as RefreshInterval;
  if (search.tv === 1 || search.tv === '1' || search.tv === true) out.tv = 1;
  return out;
}

function rangeToSearch(range: UnixRange): { from: number; to: number } {
  return { from: range.start, to: range.end };
}

/** The period a page should show at `nowSeconds` for the search params in the URL. */
export function searchToRange(search: ShellSearch, nowSeconds: number, utcOffsetMinutes = 0): UnixRange {
  return resolveTimeRange(
    { type: search.range ?? DEFAULT_TIME_RANGE_TYPE, start: search.from, end: search.to },
    nowSeconds,
    utcOffsetMinutes,
  );
}

/** Unix seconds as the value of an `<input type="datetime-local">`, in the user's fixed offset. */
export function toDateTimeInput(seconds: number, utcOffsetMinutes = 0): string {
  return new Date((seconds + utcOffsetMinutes * 60) * 1000).toISOString().slice(0, 16);
}

/** The value of an `<input type="datetime-local">` (user's offset) as unix seconds; NaN when empty. */
export function fromDateTimeInput(value: string, utcOffsetMinutes = 0): number {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) return Number.NaN;
  return Math.floor(Date.parse(`${value.slice(0, 16)}:00Z`) / 1000) - utcOffsetMinutes * 60;
}

/** "DD-MM-YYYY HH:mm" (spec 9 date format) in the user's offset. */
export function formatDateTime(seconds: number, utcOffsetMinutes = 0): string {
  const iso = toDateTimeInput(seconds, utcOffsetMinutes);
  return `${iso.slice(8, 10)}-${iso.slice(5, 7)}-${iso.slice(0, 4)} ${iso.slice(11, 16)}`;
}
