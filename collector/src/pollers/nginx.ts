import type { NginxPollerConfig, PollerFailure } from '@flightdeck/schemas';
import type { Poller, PollerFactory, PollResult, PollSample } from './contract';
import { failure, isFailure } from './failure';
import { header } from './http';
import { ratePerSecond } from './rates';
import { fetchStatusPage, statusPageUrl } from './status-page';

/** The figures of Nginx's `stub_status` page. */
export interface StubStatus {
  active: number;
  accepts: number;
  handled: number;
  requests: number;
  reading: number;
  writing: number;
  waiting: number;
}

const STUB_STATUS_RE =
  /^Active connections:\s*(\d+)\s*\nserver accepts handled requests\s*\n\s*(\d+)\s+(\d+)\s+(\d+)\s*\nReading:\s*(\d+)\s+Writing:\s*(\d+)\s+Waiting:\s*(\d+)/;

/** The figures of a `stub_status` page, or undefined when the text is not one. */
export function parseStubStatus(text: string): StubStatus | undefined {
  const m = STUB_STATUS_RE.exec(text.replace(/\r\n/g, '\n').trimStart());
  if (!m) return undefined;
  const n = (i: number) => Number(m[i]);
  return {
    active: n(1),
    accepts: n(2),
    handled: n(3),
    requests: n(4),
    reading: n(5),
    writing: n(6),
    waiting: n(7),
  };
}

/**
 * Samples of a reading: the connection gauges always, the per-second rates when there is an
 * earlier reading `seconds` before. A dropped connection is one accepted but not handled.
 */
export function stubStatusSamples(
  cur: StubStatus,
  prev: StubStatus | undefined,
  seconds: number,
): PollSample[] {
  const samples: PollSample[] = [
    { m: 'nginx.connections_active', v: cur.active },
    { m: 'nginx.connections_reading', v: cur.reading },
    { m: 'nginx.connections_writing', v: cur.writing },
    { m: 'nginx.connections_waiting', v: cur.waiting },
  ];
  // A restart starts every counter again: no rates for that interval, not even the dropped one.
  if (!prev || cur.requests < prev.requests || cur.accepts < prev.accepts || cur.handled < prev.handled) {
    return samples;
  }
  const rates: [string, number | undefined][] = [
    ['nginx.requests_rate', ratePerSecond(prev.requests, cur.requests, seconds)],
    ['nginx.connections_accepted_rate', ratePerSecond(prev.accepts, cur.accepts, seconds)],
    ['nginx.connections_handled_rate', ratePerSecond(prev.handled, cur.handled, seconds)],
    [
      'nginx.connections_dropped_rate',
      ratePerSecond(prev.accepts - prev.handled, cur.accepts - cur.handled, seconds),
    ],
  ];
  for (const [m, v] of rates) if (v !== undefined) samples.push({ m, v });
  return samples;
}

/** The Nginx version from a `Server` header (`nginx/1.22.1`); `nginx` alone when server_tokens is off. */
function nginxVersion(server: string | undefined): string {
  const m = /^nginx\/(\S+)/i.exec(server ?? '');
  return m?.[1] ?? '';
}

/** Polls an Nginx server's `stub_status` page. */
export const createNginxPoller: PollerFactory<'nginx'> = (config: NginxPollerConfig) => {
  const url = statusPageUrl(config, config.path).toString();
  let previous: { at: number; status: StubStatus } | undefined;

  async function read(): Promise<{ status: StubStatus; server: string | undefined } | PollerFailure> {
    const answer = await fetchStatusPage(config, config.path, 'Nginx');
    if (isFailure(answer)) return answer;
    const status = parseStubStatus(answer.body);
    if (!status) {
      const server = header(answer.headers, 'server') ?? 'an unknown server';
      return failure(
        'wrong_engine',
        `The page at ${url} is not an Nginx stub_status page (the server says "${server}"). Add "stub_status;" to a location and check the path.`,
      );
    }
    return { status, server: header(answer.headers, 'server') };
  }

  const poller: Poller = {
    service: 'nginx',
    target: url,
    async testConnection() {
      const result = await read();
      if (isFailure(result)) return result;
      return {
        ok: true,
        version: nginxVersion(result.server),
        details: { server: result.server ?? null, active_connections: result.status.active },
      };
    },
    async poll(now): Promise<PollResult> {
      const result = await read();
      if (isFailure(result)) return result;
      const prev = previous;
      previous = { at: now, status: result.status };
      const seconds = prev ? (now - prev.at) / 1000 : 0;
      return { ok: true, samples: stubStatusSamples(result.status, prev?.status, seconds) };
    },
    async close() {},
  };
  return poller;
};
