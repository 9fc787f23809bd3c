import type { DemoHost } from './profiles';
import type { Random } from './random';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

/** Something that goes wrong in the demo week, for alerts and charts to show. */
export type Incident =
  /** A runaway process: CPU near 100 % for 20 minutes. */
  | { kind: 'cpu_spike'; host: string; start: number; end: number }
  /** A mount fills up over hours to 97 %, stays full a while, then is cleaned at `end`. */
  | { kind: 'disk_fill'; host: string; start: number; end: number; mount: string; fullAt: number }
  /** Traffic several times the usual on one interface, with drops. */
  | { kind: 'network_burst'; host: string; start: number; end: number; interface: string }
  /** The host is down from `start` to `end` and comes back with its uptime from zero. */
  | { kind: 'reboot'; host: string; start: number; end: number };

/** Local time of a unix-ms instant: hour of the day (fractional), weekday (0 Sunday) and day number. */
export function localTime(ms: number, utcOffsetMinutes: number) {
  const local = ms + utcOffsetMinutes * MINUTE;
  const day = Math.floor(local / DAY);
  return { hour: (local - day * DAY) / HOUR, weekday: (day + 4) % 7, day };
}

interface When {
  /** Local hours the incident may start in, [from, to). */
  hours: [number, number];
  weekdays?: readonly number[];
}

/**
 * A start in [start, end - duration] at one of the wanted local hours and weekdays; the first of
 * 200 draws that fits, or the last draw when none does (a range of a few hours may have no fit).
 */
function pickStart(
  rng: Random,
  range: { start: number; end: number; utcOffsetMinutes: number },
  duration: number,
  when: When,
): number {
  const margin = Math.min(HOUR, (range.end - range.start) / 20);
  const lo = range.start + margin;
  const hi = Math.max(lo, range.end - duration - margin);
  let t = lo;
  for (let i = 0; i < 200; i++) {
    t = Math.floor((lo + rng.next() * (hi - lo)) / MINUTE) * MINUTE;
    const { hour, weekday } = localTime(t, range.utcOffsetMinutes);
    const dayOk = !when.weekdays || when.weekdays.includes(weekday);
    if (dayOk && hour >= when.hours[0] && hour < when.hours[1]) return t;
  }
  return t;
}

const WEEKDAYS = [1, 2, 3, 4, 5] as const;

/**
 * The incidents of a demo range: a CPU spike on a web server in office hours, a filling disk on a
 * batch worker (or the busiest host there is), a network burst on a second web server, and a
 * maintenance reboot of a database on a weekend night. With few hosts one host gets several.
 */
export function planIncidents(
  hosts: readonly DemoHost[],
  rng: Random,
  range: { start: number; end: number; utcOffsetMinutes: number },
): Incident[] {
  if (hosts.length === 0) return [];
  const byRole = (role: DemoHost['role'], nth = 0) => hosts.filter((h) => h.role === role)[nth];
  const incidents: Incident[] = [];

  const spikeHost = byRole('web') ?? hosts[0]!;
  const spike = pickStart(rng, range, 20 * MINUTE, { hours: [9, 17], weekdays: WEEKDAYS });
  incidents.push({ kind: 'cpu_spike', host: spikeHost.key, start: spike, end: spike + 20 * MINUTE });

  const fillHost = byRole('batch') ?? byRole('db') ?? hosts[0]!;
  const fillMount =
    fillHost.profile.mounts.find((m) => m.mount !== '/' && !m.growsWith) ?? fillHost.profile.mounts[0]!;
  const fillStart = pickStart(rng, range, 7 * HOUR, { hours: [8, 12], weekdays: WEEKDAYS });
  incidents.push({
    kind: 'disk_fill',
    host: fillHost.key,
    mount: fillMount.mount,
    start: fillStart,
    fullAt: fillStart + 6 * HOUR,
    end: fillStart + 6 * HOUR + 45 * MINUTE,
  });

  const burstHost = byRole('web', 1) ?? byRole('web') ?? hosts[Math.min(1, hosts.length - 1)]!;
  const burst = pickStart(rng, range, 15 * MINUTE, { hours: [13, 18], weekdays: WEEKDAYS });
  incidents.push({
    kind: 'network_burst',
    host: burstHost.key,
    interface: burstHost.profile.interfaces[0]!.interface,
    start: burst,
    end: burst + 15 * MINUTE,
  });

  const rebootHost = byRole('db') ?? hosts[hosts.length - 1]!;
  const reboot = pickStart(rng, range, 4 * MINUTE, { hours: [3, 4], weekdays: [0, 6] });
  incidents.push({ kind: 'reboot', host: rebootHost.key, start: reboot, end: reboot + 3 * MINUTE });
  return incidents;
}
