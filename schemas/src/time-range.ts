import { z } from 'zod';

/** Time-range types of the time-range state (spec sections 4 and 9). */
export const TIME_RANGE_TYPES = [
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
] as const;
/** A time-range type. */
export const TimeRangeType = z.enum(TIME_RANGE_TYPES);
/** A time-range type. */
export type TimeRangeType = z.infer<typeof TimeRangeType>;

/** Time-range type of a fresh state, and the fallback when a custom range has no unix range. */
export const DEFAULT_TIME_RANGE_TYPE = 'last_hour' satisfies TimeRangeType;

/** Time-range types that end now and span a fixed number of seconds. */
export type RollingTimeRangeType = Exclude<TimeRangeType, 'today' | 'yesterday' | 'custom'>;

const HOUR = 3600;
/** Seconds in a day; offsets are fixed, so every calendar day here is this long. */
export const DAY_SECONDS = 86_400;

/** Length in seconds of each rolling type; the longest, last_two_weeks, is 336 hours. */
export const TIME_RANGE_DURATIONS: Readonly<Record<RollingTimeRangeType, number>> = {
  last_hour: HOUR,
  last_two_hours: 2 * HOUR,
  last_six_hours: 6 * HOUR,
  last_twelve_hours: 12 * HOUR,
  last_twenty_four_hours: 24 * HOUR,
  last_three_days: 72 * HOUR,
  last_week: 168 * HOUR,
  last_two_weeks: 336 * HOUR,
};

/** Types under which the shell may auto-refresh: short ranges that end now. */
export const REFRESHABLE_TIME_RANGE_TYPES = ['last_hour', 'last_two_hours'] as const;

/** A time range as the console sends it: a type, and for `custom` a unix-seconds pair. */
export const TimeRange = z.object({
  type: TimeRangeType,
  start: z.number().int().nonnegative().optional(),
  end: z.number().int().nonnegative().optional(),
});
/** A time range as the console sends it: a type, and for `custom` a unix-seconds pair. */
export type TimeRange = z.infer<typeof TimeRange>;

/** A resolved range in unix seconds. */
export type UnixRange = { start: number; end: number };

/** Start (unix seconds) of the calendar day holding `nowSeconds`, for a fixed UTC offset. */
export function startOfLocalDay(nowSeconds: number, utcOffsetMinutes = 0): number {
  const offset = utcOffsetMinutes * 60;
  const local = Math.floor(nowSeconds) + offset;
  return local - mod(local, DAY_SECONDS) - offset;
}

function mod(a: number, b: number): number {
  return ((a % b) + b) % b;
}

/**
 * Orders a custom period: a start after the end is swapped with it, and a start at or after the end
 * (an empty period) moves the end to one minute after the start.
 */
export function normalizeCustomRange(start: number, end: number): UnixRange {
  const lo = Math.min(start, end);
  const hi = Math.max(start, end);
  return { start: lo, end: hi > lo ? hi : lo + 60 };
}

/**
 * Resolves a time range to unix seconds at `nowSeconds`. Rolling types end now; `today` runs from
 * the user's midnight to now and `yesterday` from the midnight before to that midnight, both in the
 * user's fixed UTC offset. `custom` uses its start and end only if both are finite numbers
 * (normalised as {@link normalizeCustomRange}); otherwise, like an unknown type, it falls back to
 * the last hour. `start`/`end` given with a preset type are ignored: the preset wins.
 */
export function resolveTimeRange(
  range: { type?: string | undefined; start?: unknown; end?: unknown },
  nowSeconds: number,
  utcOffsetMinutes = 0,
): UnixRange {
  const now = Math.floor(nowSeconds);
  const parsed = TimeRangeType.safeParse(range.type);
  const type = parsed.success ? parsed.data : DEFAULT_TIME_RANGE_TYPE;
  switch (type) {
    case 'today':
      return { start: startOfLocalDay(now, utcOffsetMinutes), end: now };
    case 'yesterday': {
      const midnight = startOfLocalDay(now, utcOffsetMinutes);
      return { start: midnight - DAY_SECONDS, end: midnight };
    }
    case 'custom': {
      const { start, end } = range;
      if (isFiniteNumber(start) && isFiniteNumber(end)) {
        return normalizeCustomRange(Math.floor(start), Math.floor(end));
      }
      return { start: now - TIME_RANGE_DURATIONS[DEFAULT_TIME_RANGE_TYPE], end: now };
    }
    default:
      return { start: now - TIME_RANGE_DURATIONS[type], end: now };
  }
}

function isFiniteNumber(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

/**
 * Earliest selectable instant: the start of today in the user's offset minus `maxFlashbackDays`
 * days (the plan's max_flashback). A negative value counts as 0.
 */
export function flashbackLowerBound(
  maxFlashbackDays: number,
  nowSeconds: number,
  utcOffsetMinutes = 0,
): number {
  return startOfLocalDay(nowSeconds, utcOffsetMinutes) - Math.max(0, maxFlashbackDays) * DAY_SECONDS;
}

/**
 * Clamps a range to the selectable dates: from {@link flashbackLowerBound} to the end of today in
 * the user's offset. A range left empty (wholly outside) gets the one-minute rule of
 * {@link normalizeCustomRange}.
 */
export function clampToFlashback(
  range: UnixRange,
  maxFlashbackDays: number,
  nowSeconds: number,
  utcOffsetMinutes = 0,
): UnixRange {
  const lower = flashbackLowerBound(maxFlashbackDays, nowSeconds, utcOffsetMinutes);
  const upper = startOfLocalDay(nowSeconds, utcOffsetMinutes) + DAY_SECONDS;
  const clamp = (t: number) => Math.min(upper, Math.max(lower, t));
  return normalizeCustomRange(clamp(range.start), clamp(range.end));
}

/** Whether auto-refresh may run under this type: only for the last hour and the last two hours. */
export function refreshAllowed(type: TimeRangeType): boolean {
  return type === 'last_hour' || type === 'last_two_hours';
}

/** Offset of a user whose timezone is missing or unreadable: +00:00 (UTC). */
export const DEFAULT_UTC_OFFSET_MINUTES = 0;

const OFFSET_RE = /^([+-])(\d{2}):(\d{2})$/;
const zoneFormats = new Map<string, Intl.DateTimeFormat | null>();

function zoneFormat(zone: string): Intl.DateTimeFormat | null {
  let f = zoneFormats.get(zone);
  if (f === undefined) {
    try {
      f = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
    } catch {
      f = null; // not a zone Intl knows
    }
    zoneFormats.set(zone, f);
  }
  return f;
}

/**
 * UTC offset in minutes of a user's timezone (spec section 5): a fixed `+HH:MM`/`-HH:MM` offset,
 * else a named IANA zone resolved with Intl at `atSeconds` (so daylight saving applies for that
 * instant), else +00:00.
 */
export function parseUtcOffset(tz: string | null | undefined, atSeconds: number = Date.now() / 1000): number {
  const text = (tz ?? '').trim();
  if (!text) return DEFAULT_UTC_OFFSET_MINUTES;
  const fixed = OFFSET_RE.exec(text);
  if (fixed) {
    const hours = Number(fixed[2]);
    const minutes = Number(fixed[3]);
    if (hours > 14 || minutes > 59) return DEFAULT_UTC_OFFSET_MINUTES;
    return signed(fixed[1], hours * 60 + minutes);
  }
  const format = zoneFormat(text);
  if (!format) return DEFAULT_UTC_OFFSET_MINUTES;
  const name = format.formatToParts(new Date(atSeconds * 1000)).find((p) => p.type === 'timeZoneName')?.value;
  // Intl writes "GMT" for a zero offset and "GMT+05:30" otherwise.
  const m = /^GMT([+-])(\d{2}):(\d{2})$/.exec(name ?? '');
  if (!m) return DEFAULT_UTC_OFFSET_MINUTES;
  return signed(m[1], Number(m[2]) * 60 + Number(m[3]));
}

// `0 - 0` is +0, so "-00:00" reads as 0 rather than -0.
function signed(sign: string | undefined, minutes: number): number {
  return sign === '-' ? 0 - minutes : minutes;
}
