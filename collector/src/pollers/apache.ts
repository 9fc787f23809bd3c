import type { ApachePollerConfig, PollerFailure } from '@flightdeck/schemas';
import type { Poller, PollerFactory, PollResult, PollSample } from './contract';
import { failure, isFailure } from './failure';
import { header } from './http';
import { ratePerSecond, round } from './rates';
import { fetchStatusPage, statusPageUrl } from './status-page';

/** Fields of mod_status `?auto` by name (`Total Accesses`, `BusyWorkers`, `Scoreboard`...). */
export type ApacheStatus = ReadonlyMap<string, string>;

/**
 * The fields of a mod_status `?auto` page, or undefined when the text is not one. Each line is
 * `Name: value`; the first line of Apache 2.4 is the server name alone and is skipped.
 */
export function parseApacheStatus(text: string): ApacheStatus | undefined {
  const fields = new Map<string, string>();
  for (const line of text.split('\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    fields.set(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  return fields.has('Scoreboard') || fields.has('BusyWorkers') ? fields : undefined;
}

/** Scoreboard keys and the `state` label of each, as mod_status's legend names them. */
export const SCOREBOARD_STATES: Readonly<Record<string, string>> = {
  _: 'waiting',
  S: 'starting',
  R: 'reading',
  W: 'sending',
  K: 'keepalive',
  D: 'dns',
  C: 'closing',
  L: 'logging',
  G: 'finishing',
  I: 'idle_cleanup',
  '.': 'open',
};

/** Worker slots in each scoreboard state; every state is present, most at 0. */
export function scoreboardCounts(scoreboard: string): Map<string, number> {
  const counts = new Map(Object.values(SCOREBOARD_STATES).map((s) => [s, 0]));
  for (const ch of scoreboard) {
    const state = SCOREBOARD_STATES[ch];
    if (state) counts.set(state, (counts.get(state) ?? 0) + 1);
  }
  return counts;
}

function field(status: ApacheStatus, name: string): number | undefined {
  const raw = status.get(name);
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  return Number.isFinite(n) ? n : undefined;
}

const GAUGES: readonly [string, string][] = [
  ['BusyWorkers', 'apache.workers_busy'],
  ['IdleWorkers', 'apache.workers_idle'],
  ['Processes', 'apache.processes'],
  ['ConnsTotal', 'apache.connections_total'],
  ['ConnsAsyncWriting', 'apache.connections_async_writing'],
  ['ConnsAsyncKeepAlive', 'apache.connections_async_keepalive'],
  ['ConnsAsyncClosing', 'apache.connections_async_closing'],
];

const CPU_FIELDS = ['CPUUser', 'CPUSystem', 'CPUChildrenUser', 'CPUChildrenSystem'];

function cpuSeconds(status: ApacheStatus): number | undefined {
  let total = 0;
  for (const name of CPU_FIELDS) {
    const v = field(status, name);
    if (v === undefined) return undefined;
    total += v;
  }
  return total;
}

/**
 * Samples of a reading: workers, scoreboard, connections and uptime always; with an earlier reading
 * `seconds` before, requests and bytes per second, the mean request duration over the interval and
 * the CPU the server used. The counters need ExtendedStatus (on by default since Apache 2.3.6).
 */
export function apacheSamples(
  cur: ApacheStatus,
  prev: ApacheStatus | undefined,
  seconds: number,
): PollSample[] {
  const samples: PollSample[] = [];
  for (const [name, m] of GAUGES) {
    const v = field(cur, name);
    if (v !== undefined) samples.push({ m, v });
  }
  const uptime = field(cur, 'ServerUptimeSeconds') ?? field(cur, 'Uptime');
  if (uptime !== undefined) samples.push({ m: 'apache.uptime', v: uptime });
  const scoreboard = cur.get('Scoreboard');
  if (scoreboard) {
    for (const [state, v] of scoreboardCounts(scoreboard))
      samples.push({ m: 'apache.scoreboard', l: { state }, v });
  }
  if (!prev) return samples;
  const accessesBefore = field(prev, 'Total Accesses');
  const accessesAfter = field(cur, 'Total Accesses');
  const requests = ratePerSecond(accessesBefore, accessesAfter, seconds);
  if (requests !== undefined) samples.push({ m: 'apache.requests_rate', v: requests });
  const kBytesBefore = field(prev, 'Total kBytes');
  const kBytesAfter = field(cur, 'Total kBytes');
  const bytes = ratePerSecond(
    kBytesBefore === undefined ? undefined : kBytesBefore * 1024,
    kBytesAfter === undefined ? undefined : kBytesAfter * 1024,
    seconds,
  );
  if (bytes !== undefined) samples.push({ m: 'apache.sent_bytes_rate', v: bytes });
  const durationBefore = field(prev, 'Total Duration');
  const durationAfter = field(cur, 'Total Duration');
  if (
    requests !== undefined &&
    accessesBefore !== undefined &&
    accessesAfter !== undefined &&
    accessesAfter > accessesBefore &&
    durationBefore !== undefined &&
    durationAfter !== undefined &&
    durationAfter >= durationBefore
  ) {
    samples.push({
      m: 'apache.request_duration_ms',
      v: round((durationAfter - durationBefore) / (accessesAfter - accessesBefore)),
    });
  }
  const cpu = ratePerSecond(cpuSeconds(prev), cpuSeconds(cur), seconds);
  if (cpu !== undefined) samples.push({ m: 'apache.cpu_pct', v: round(cpu * 100, 2) });
  return samples;
}

/** The version of `ServerVersion: Apache/2.4.62 (Debian)`: `2.4.62`. */
function apacheVersion(status: ApacheStatus): string {
  const m = /Apache\/(\S+)/.exec(status.get('ServerVersion') ?? '');
  return m?.[1] ?? '';
}

/** Polls an Apache server's mod_status page in its machine-readable form (`?auto`). */
export const createApachePoller: PollerFactory<'apache'> = (config: ApachePollerConfig) => {
  const pathAndQuery = `${config.path}${config.path.includes('?') ? '&' : '?'}auto`;
  const url = statusPageUrl(config, pathAndQuery).toString();
  let previous: { at: number; status: ApacheStatus } | undefined;

  async function read(): Promise<ApacheStatus | PollerFailure> {
    const answer = await fetchStatusPage(config, pathAndQuery, 'Apache');
    if (isFailure(answer)) return answer;
    const status = parseApacheStatus(answer.body);
    if (!status) {
      const server = header(answer.headers, 'server') ?? 'an unknown server';
      return failure(
        'wrong_engine',
        `The page at ${url} is not an Apache mod_status page (the server says "${server}"). Enable mod_status with "SetHandler server-status" there and check the path.`,
      );
    }
    return status;
  }

  const poller: Poller = {
    service: 'apache',
    target: url,
    async testConnection() {
      const status = await read();
      if (isFailure(status)) return status;
      return {
        ok: true,
        version: apacheVersion(status),
        details: {
          server: status.get('ServerVersion') ?? null,
          mpm: status.get('ServerMPM') ?? null,
          extended_status: status.has('Total Accesses'),
        },
      };
    },
    async poll(now): Promise<PollResult> {
      const status = await read();
      if (isFailure(status)) return status;
      const prev = previous;
      previous = { at: now, status };
      const seconds = prev ? (now - prev.at) / 1000 : 0;
      return { ok: true, samples: apacheSamples(status, prev?.status, seconds) };
    },
    async close() {},
  };
  return poller;
};
