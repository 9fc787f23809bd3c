import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { PeerCertificate, TLSSocket } from 'node:tls';
import type { CertificateInfo, PollerFailure } from '@flightdeck/schemas';
import { failure, networkFailure, TimeoutError } from './failure';
import { round } from './rates';

/** One HTTP(S) request as a poller makes it. */
export interface HttpCheckOptions {
  url: URL;
  method: 'GET' | 'HEAD';
  /** For the whole check, redirects included. */
  timeoutMs: number;
  headers?: Record<string, string>;
  rejectUnauthorized: boolean;
  /** PEM of an authority to trust besides the system's. */
  ca?: string | undefined;
  /** Redirects to follow; 0 returns the first answer as it is. */
  maxRedirects: number;
  /** Bytes of body kept; the rest is not read. */
  maxBodyBytes: number;
  /** How messages name the target: "the status page at http://...". */
  what: string;
}

/** The final answer of a check. */
export interface HttpAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body's first `maxBodyBytes`, as UTF-8. */
  body: string;
  finalUrl: string;
  redirects: number;
  /** The answer is a redirect the check did not follow because it had followed `maxRedirects` already. */
  redirectsExhausted: boolean;
  elapsedMs: number;
  /** The certificate of the last https answer, if any. */
  certificate: CertificateInfo | null;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const DAY_MS = 86_400_000;

function distinguishedName(name: PeerCertificate['subject'] | undefined): string {
  if (!name) return '';
  return Object.entries(name)
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join('+') : String(v)}`)
    .join(', ');
}

/** What a presented certificate says, with the days left counted from `now`. */
export function certificateInfo(
  cert: PeerCertificate,
  trusted: boolean,
  now = Date.now(),
): CertificateInfo | null {
  const validFrom = Date.parse(cert.valid_from);
  const validTo = Date.parse(cert.valid_to);
  if (!Number.isFinite(validFrom) || !Number.isFinite(validTo)) return null;
  return {
    subject: distinguishedName(cert.subject),
    issuer: distinguishedName(cert.issuer),
    valid_from: validFrom,
    valid_to: validTo,
    days_left: round((validTo - now) / DAY_MS, 2),
    trusted,
  };
}

interface HopAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  certificate: CertificateInfo | null;
}

function hop(
  url: URL,
  options: HttpCheckOptions,
  method: 'GET' | 'HEAD',
  remainingMs: number,
): Promise<HopAnswer> {
  return new Promise((resolve, reject) => {
    const https = url.protocol === 'https:';
    let certificate: CertificateInfo | null = null;
    let settled = false;
    const req = (https ? httpsRequest : httpRequest)(url, {
      method,
      agent: false,
      headers: { 'user-agent': 'Flightdeck-Poller', accept: '*/*', ...options.headers },
      ...(https
        ? { rejectUnauthorized: options.rejectUnauthorized, ...(options.ca ? { ca: options.ca } : {}) }
        : {}),
    });
    const timer = setTimeout(() => req.destroy(new TimeoutError(options.timeoutMs)), remainingMs);
    const finish = (err: Error | undefined, answer?: HopAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      if (err) reject(err);
      else resolve(answer!);
    };
    if (https) {
      req.once('socket', (socket) => {
        socket.once('secureConnect', () => {
          const tls = socket as TLSSocket;
          certificate = certificateInfo(tls.getPeerCertificate(), tls.authorized);
        });
      });
    }
    req.once('error', (err) => finish(err));
    req.once('response', (res) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      const done = () =>
        finish(undefined, {
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks),
          certificate,
        });
      res.on('data', (chunk: Buffer) => {
        if (kept < options.maxBodyBytes) {
          const part = chunk.subarray(0, options.maxBodyBytes - kept);
          chunks.push(part);
          kept += part.length;
        }
        if (kept >= options.maxBodyBytes) done();
      });
      res.once('end', done);
      res.once('error', (err) => finish(err));
      if (method === 'HEAD' || REDIRECTS.has(res.statusCode ?? 0)) done();
    });
    req.end();
  });
}

/**
 * Requests a URL with node's http/https and a deadline over the whole check, following redirects up
 * to `maxRedirects`. Past that, the last redirect is the answer. Errors of the network, DNS, TLS
 * and the deadline come back as failures naming the target; an HTTP status is an answer.
 */
export async function httpCheck(options: HttpCheckOptions): Promise<HttpAnswer | PollerFailure> {
  const started = performance.now();
  let url = options.url;
  let method = options.method;
  let redirects = 0;
  let certificate: CertificateInfo | null = null;
  for (;;) {
    const remaining = options.timeoutMs - (performance.now() - started);
    let answer: HopAnswer;
    try {
      if (remaining <= 0) throw new TimeoutError(options.timeoutMs);
      answer = await hop(url, options, method, remaining);
    } catch (err) {
      return (
        networkFailure(err, options.what, url.hostname, options.timeoutMs) ??
        failure(
          'connection_failed',
          `Failed to reach ${options.what}: ${err instanceof Error ? err.message : err}.`,
        )
      );
    }
    if (url.protocol === 'https:') certificate = answer.certificate;
    const location = answer.headers.location;
    const redirect = REDIRECTS.has(answer.status) && location !== undefined;
    if (redirect && redirects < options.maxRedirects) {
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        next = url;
      }
      if (next !== url && (next.protocol === 'http:' || next.protocol === 'https:')) {
        redirects++;
        url = next;
        if (answer.status === 303) method = method === 'HEAD' ? 'HEAD' : 'GET';
        continue;
      }
    }
    return {
      status: answer.status,
      headers: answer.headers,
      body: answer.body.toString('utf8'),
      finalUrl: url.toString(),
      redirects,
      redirectsExhausted: redirect && options.maxRedirects > 0 && redirects >= options.maxRedirects,
      elapsedMs: round(performance.now() - started, 1),
      certificate,
    };
  }
}

/** A response header as one string (the first, when it was sent twice). */
export function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}
