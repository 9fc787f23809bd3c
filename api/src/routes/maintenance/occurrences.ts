import type { MaintenanceSpan, MaintenanceState } from '@flightdeck/schemas';
import type { MaintenanceWindowRow } from '../../db/types';

const DAY_S = 86_400;
/** 1970-01-01 was a Thursday. */
const EPOCH_WEEKDAY = 4;

/** When a window runs: its first occurrence, how it repeats, and an early end. Unix seconds. */
export interface WindowTiming {
  start: number;
  end: number;
  recurrence: 'none' | 'daily' | 'weekly';
  /** Days of the week (UTC, 0 Sunday) of a weekly window. */
  weekdays: readonly number[];
  /** No occurrence starts after it; null: no end. */
  until: number | null;
  /** Ended early: occurrences from then on do not run, the running one stops. */
  finishedAt: number | null;
}

export function timingOf(row: MaintenanceWindowRow): WindowTiming {
  return {
    start: row.start_at,
    end: row.end_at,
    recurrence: row.recurrence,
    weekdays: parseWeekdays(row.weekdays),
    until: row.until_at,
    finishedAt: row.finished_at,
  };
}

export function parseWeekdays(text: string): number[] {
  return text === '' ? [] : text.split(',').map(Number);
}

/** Day of the week (UTC, 0 Sunday) of a unix time. */
export function weekdayOf(unixS: number): number {
  return (((Math.floor(unixS / DAY_S) + EPOCH_WEEKDAY) % 7) + 7) % 7;
}

/** Whether an occurrence may start at `occStart` (the repetition's day and `until`, not the finish). */
function startsOn(w: WindowTiming, occStart: number): boolean {
  if (occStart < w.start) return false;
  if (w.until !== null && occStart > w.until) return false;
  return w.recurrence !== 'weekly' || w.weekdays.includes(weekdayOf(occStart));
}

/** An occurrence starting at `occStart`, cut at the finish; null when the finish came first. */
function spanAt(w: WindowTiming, occStart: number): MaintenanceSpan | null {
  const end = occStart + (w.end - w.start);
  if (w.finishedAt === null) return { start: occStart, end };
  if (w.finishedAt <= occStart) return null;
  return { start: occStart, end: Math.min(end, w.finishedAt) };
}

/** Occurrences that overlap [from, to), in order. `to` may be Infinity: stop reading when done. */
export function* occurrencesBetween(w: WindowTiming, from: number, to: number): Generator<MaintenanceSpan> {
  if (w.recurrence === 'none') {
    const span = spanAt(w, w.start);
    if (span && span.start < to && span.end > from) yield span;
    return;
  }
  const length = w.end - w.start;
  const timeOfDay = ((w.start % DAY_S) + DAY_S) % DAY_S;
  const firstDay = w.start - timeOfDay;
  let k = Math.max(0, Math.floor((from - length - firstDay) / DAY_S));
  for (;;) {
    const occStart = firstDay + k * DAY_S + timeOfDay;
    if (occStart >= to) return;
    if (w.until !== null && occStart > w.until) return;
    if (w.finishedAt !== null && occStart >= w.finishedAt) return;
    if (startsOn(w, occStart)) {
      const span = spanAt(w, occStart);
      if (span && span.end > from) yield span;
    }
    k++;
  }
}

/** The occurrence running at `at`, if any. */
export function occurrenceAt(w: WindowTiming, at: number): MaintenanceSpan | null {
  for (const span of occurrencesBetween(w, at, at + 1)) {
    if (span.start <= at && at < span.end) return span;
  }
  return null;
}

/** The last occurrence that starts at or before `t` (finish applied), if any. */
export function lastOccurrenceFrom(w: WindowTiming, t: number): MaintenanceSpan | null {
  if (w.recurrence === 'none') return w.start <= t ? spanAt(w, w.start) : null;
  const limit = Math.min(t, w.until ?? t, w.finishedAt !== null ? w.finishedAt - 1 : t);
  const timeOfDay = ((w.start % DAY_S) + DAY_S) % DAY_S;
  const firstDay = w.start - timeOfDay;
  // A weekly window has an occurrence in any 7 days after its first day, so 8 steps back suffice.
  for (let k = Math.floor((limit - w.start) / DAY_S) + 1, steps = 0; k >= 0 && steps < 9; k--, steps++) {
    const occStart = firstDay + k * DAY_S + timeOfDay;
    if (occStart > limit) continue;
    if (startsOn(w, occStart)) return spanAt(w, occStart);
  }
  return null;
}

/**
 * When the window's last occurrence ends: null while it repeats with no end. A window none of whose
 * occurrences can run (weekly days after `until`) ends at its start.
 */
export function lastEndOf(w: WindowTiming): number | null {
  if (w.finishedAt !== null) return w.finishedAt;
  if (w.recurrence === 'none') return w.end;
  if (w.until === null) return null;
  return lastOccurrenceFrom(w, w.until)?.end ?? w.start;
}

/**
 * A window's state at `now`, with the occurrence it refers to: the running one (active), the next
 * (scheduled), or the last that ran (historic; null when none did).
 */
export function stateAt(
  w: WindowTiming,
  now: number,
): { status: MaintenanceState; occurrence: MaintenanceSpan | null } {
  const running = occurrenceAt(w, now);
  if (running) return { status: 'active', occurrence: running };
  for (const span of occurrencesBetween(w, now, Number.POSITIVE_INFINITY)) {
    if (span.start > now) return { status: 'scheduled', occurrence: span };
  }
  return { status: 'historic', occurrence: lastOccurrenceFrom(w, now) };
}
