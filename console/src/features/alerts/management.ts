import type {
  AlertTypeEntry,
  ChartData,
  MttxDay,
  UnavailabilityPeriod,
  UnavailableMark,
} from '@flightdeck/schemas';

/**
 * Pure parts of the alert management page (/flightdeck/management/alerts): the alert-type search,
 * the per-day MTTA/MTTR chart data and the unavailability summaries.
 */

const DAY_S = 86_400;

/** Lower case without accents, so "critico" finds "Crítico". */
function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
}

/**
 * The alert types whose id, code, title or category contains every word of `query` (case- and
 * accent-insensitive); an empty query keeps them all. Ordered by id.
 */
export function filterAlertTypes(types: readonly AlertTypeEntry[], query: string): AlertTypeEntry[] {
  const words = fold(query).split(/\s+/).filter(Boolean);
  return types
    .filter((t) => {
      const haystack = fold(`${t.id} ${t.code} ${t.title} ${t.category}`);
      return words.every((w) => haystack.includes(w));
    })
    .sort((a, b) => a.id - b.id);
}

/** First second of the UTC day holding `unixS`. */
export function utcDayStart(unixS: number): number {
  return Math.floor(unixS / DAY_S) * DAY_S;
}

/**
 * Per-day MTTA and MTTR in minutes over [start, end] for the chart: every UTC day of the range has
 * a point, `null` where nothing was acknowledged (MTTA) or resolved (MTTR) that day. Minutes with
 * one decimal, since hours of seconds make an unreadable axis.
 */
export function mttxChartData(days: readonly MttxDay[], start: number, end: number): ChartData {
  const [from, to] = start <= end ? [start, end] : [end, start];
  const byDay = new Map(days.map((d) => [d.day, d]));
  const x: number[] = [];
  const mtta: (number | null)[] = [];
  const mttr: (number | null)[] = [];
  const toMinutes = (s: number | null | undefined) => (s == null ? null : Math.round(s / 6) / 10);
  for (let day = utcDayStart(from); day <= to; day += DAY_S) {
    const d = byDay.get(day);
    x.push(day);
    mtta.push(toMinutes(d?.mtta_s));
    mttr.push(toMinutes(d?.mttr_s));
  }
  return {
    configs: { is_dynamic: false, timer_task: 60, precision: 1, suffix: ' min', step: DAY_S },
    x_values: x,
    y_axis: ['MTTA', 'MTTR'],
    y_values: { MTTA: mtta, MTTR: mttr },
  };
}

/** Key of an unavailable mark: a server, or one service of it. */
export function markKey(serverId: number, service: string | null | undefined): string {
  return `${serverId}:${service ?? ''}`;
}

/** The marks still in force (the api answers removed ones with `unavailable: false`). */
export function activeMarks(marks: readonly UnavailableMark[]): UnavailableMark[] {
  return marks.filter((m) => m.unavailable);
}

/** Seconds each server was unavailable inside the range, most first. */
export interface ServerUnavailability {
  server_id: number;
  server_name: string;
  periods: number;
  seconds: number;
}

export function unavailabilityByServer(periods: readonly UnavailabilityPeriod[]): ServerUnavailability[] {
  const out = new Map<number, ServerUnavailability>();
  for (const p of periods) {
    const row = out.get(p.server_id) ?? {
      server_id: p.server_id,
      server_name: p.server_name,
      periods: 0,
      seconds: 0,
    };
    row.periods += 1;
    row.seconds += p.seconds_in_range;
    out.set(p.server_id, row);
  }
  return [...out.values()].sort((a, b) => b.seconds - a.seconds || a.server_id - b.server_id);
}
