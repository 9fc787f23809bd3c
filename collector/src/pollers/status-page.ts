import type { NginxPollerConfig, PollerFailure } from '@flightdeck/schemas';
import { failure, hostPort, isFailure } from './failure';
import { type HttpAnswer, httpCheck } from './http';

/** What the Nginx and Apache pollers share of their config. */
export type StatusPageConfig = Pick<
  NginxPollerConfig,
  'host' | 'port' | 'tls' | 'user' | 'password' | 'timeout_ms'
>;

/** The URL of a status page: https when TLS is on. */
export function statusPageUrl(config: StatusPageConfig, pathAndQuery: string): URL {
  return new URL(
    `${config.tls.enabled ? 'https' : 'http'}://${hostPort(config.host, config.port)}${pathAndQuery}`,
  );
}

/**
 * Reads a web server's status page. An answer other than 200 is a failure a person can act on:
 * 401 and 403 say the page refuses the collector, 404 that the path is wrong, anything else
 * names the status. Status pages are small; 64 KiB is plenty.
 */
export async function fetchStatusPage(
  config: StatusPageConfig,
  pathAndQuery: string,
  server: string,
): Promise<HttpAnswer | PollerFailure> {
  const url = statusPageUrl(config, pathAndQuery);
  const what = `the ${server} status page at ${url.toString()}`;
  const headers: Record<string, string> = {};
  if (config.user !== undefined) {
    headers.authorization = `Basic ${Buffer.from(`${config.user}:${config.password ?? ''}`).toString('base64')}`;
  }
  const answer = await httpCheck({
    url,
    method: 'GET',
    timeoutMs: config.timeout_ms,
    headers,
    rejectUnauthorized: config.tls.reject_unauthorized,
    ca: config.tls.ca,
    maxRedirects: 5,
    maxBodyBytes: 64 * 1024,
    what,
  });
  if (isFailure(answer)) return answer;
  const where = answer.finalUrl;
  switch (answer.status) {
    case 200:
      return answer;
    case 401:
    case 403:
      return failure(
        'auth_failed',
        `The ${server} status page at ${where} answered ${answer.status}: ${
          config.user === undefined ? 'it needs a user and password, or' : 'check the user and password, and'
        } allow the collector's address in its access rules.`,
      );
    case 404:
      return failure(
        'not_found',
        `The ${server} status page was not found at ${where} (404). Check the path and that the status module is enabled there.`,
      );
    default:
      return failure(
        'connection_failed',
        `The ${server} status page at ${where} answered ${answer.status} instead of the status. Check the path and the server's error log.`,
      );
  }
}
