import { URL_MAX_REDIRECTS, type UrlCheck, type UrlPollerConfig } from '@flightdeck/schemas';
import type { Poller, PollerFactory, PollResult, PollSample } from './contract';
import { failure, isFailure } from './failure';
import { type HttpAnswer, header, httpCheck } from './http';

/** The body is searched for the keyword in its first MiB. */
const MAX_BODY_BYTES = 1024 * 1024;

/** Whether a status is what the check expects: the listed ones, or by default any 2xx or 3xx. */
export function statusExpected(status: number, expected: readonly number[] | undefined): boolean {
  return expected ? expected.includes(status) : status >= 200 && status < 400;
}

/** The outcome of a check from its answer. */
export function urlCheck(
  answer: HttpAnswer,
  config: Pick<UrlPollerConfig, 'keyword' | 'expected_status'>,
): UrlCheck {
  const keywordFound = config.keyword === undefined ? null : answer.body.includes(config.keyword);
  return {
    final_url: answer.finalUrl,
    status_code: answer.status,
    redirects: answer.redirects,
    response_time_ms: answer.elapsedMs,
    // A redirect loop is not up, whatever its status.
    up:
      !answer.redirectsExhausted &&
      statusExpected(answer.status, config.expected_status) &&
      keywordFound !== false,
    keyword_found: keywordFound,
    certificate: answer.certificate,
  };
}

/** Samples of a check: response time, status, up, keyword (when set) and certificate days (https). */
export function urlSamples(check: UrlCheck): PollSample[] {
  const samples: PollSample[] = [
    { m: 'url.response_time_ms', v: check.response_time_ms },
    { m: 'url.status_code', v: check.status_code },
    { m: 'url.up', v: check.up ? 1 : 0 },
  ];
  if (check.keyword_found !== null) samples.push({ m: 'url.keyword_found', v: check.keyword_found ? 1 : 0 });
  if (check.certificate) samples.push({ m: 'url.cert_days_left', v: check.certificate.days_left });
  return samples;
}

/**
 * The URL as messages, logs and stored errors show it: a password in it is replaced by `***`, since
 * those texts are stored and returned where the config's secrets never are.
 */
export function withoutPassword(url: URL): string {
  if (!url.password) return url.toString();
  const copy = new URL(url);
  copy.password = '***';
  return copy.toString();
}

/**
 * Checks a URL: status, response time, optional keyword and the certificate's days left. An HTTP
 * answer of any status is a measurement (`url.up` says whether it was the expected one); a
 * refused connection, a name that does not resolve, a failed TLS check or no answer in time is
 * a failure.
 */
export const createUrlPoller: PollerFactory<'url'> = (config: UrlPollerConfig) => {
  const url = new URL(config.url);
  const shown = withoutPassword(url);
  const check = () =>
    httpCheck({
      url,
      method: config.method,
      timeoutMs: config.timeout_ms,
      rejectUnauthorized: config.tls.reject_unauthorized,
      ca: config.tls.ca,
      maxRedirects: config.follow_redirects ? URL_MAX_REDIRECTS : 0,
      maxBodyBytes: config.method === 'HEAD' ? 0 : MAX_BODY_BYTES,
      what: shown,
    });

  const poller: Poller = {
    service: 'url',
    target: shown,
    async testConnection() {
      const answer = await check();
      if (isFailure(answer)) return answer;
      // A 404 at registration is almost always a typo in the path, unless it is what is expected.
      if (
        (answer.status === 404 || answer.status === 410) &&
        !config.expected_status?.includes(answer.status)
      ) {
        return failure('not_found', `${answer.finalUrl} answered ${answer.status}: check the address.`);
      }
      const result = urlCheck(answer, config);
      return {
        ok: true,
        version: header(answer.headers, 'server') ?? '',
        details: {
          status_code: result.status_code,
          response_time_ms: result.response_time_ms,
          final_url: result.final_url,
          up: result.up,
          keyword_found: result.keyword_found,
          cert_days_left: result.certificate?.days_left ?? null,
        },
      };
    },
    async poll(): Promise<PollResult> {
      const answer = await check();
      if (isFailure(answer)) return answer;
      const result = urlCheck(answer, config);
      return { ok: true, samples: urlSamples(result), extras: { url: result } };
    },
    async close() {},
  };
  return poller;
};
