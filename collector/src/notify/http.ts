import { NotifyError } from './contract';

/** Longest one HTTP call to a messaging service may take, connection included. */
export const DEFAULT_HTTP_TIMEOUT_MS = 10_000;

/** What a service answered: the status, its headers, the body as text and, when it is JSON, parsed. */
export interface HttpAnswer {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

export interface HttpCall {
  method?: 'GET' | 'POST';
  url: string;
  /** How messages name the call, e.g. "Telegram sendMessage": URLs can hold tokens, so never the URL. */
  target: string;
  headers?: Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
  signal: AbortSignal;
  timeoutMs: number;
}

/** The reason a fetch failed, from undici's cause chain (`ECONNREFUSED`, `UND_ERR_SOCKET`...). */
function networkReason(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err));
}

/**
 * One HTTP call with a time-out. Any answer is returned, whatever its status; a call that gets no
 * answer (refused, reset, timed out, aborted) rejects with a retryable `NotifyError`.
 */
export async function httpCall(call: HttpCall): Promise<HttpAnswer> {
  const timeout = AbortSignal.timeout(call.timeoutMs);
  const signal = AbortSignal.any([call.signal, timeout]);
  const headers: Record<string, string> = { ...call.headers };
  if (call.body !== undefined) headers['content-type'] ??= 'application/json; charset=utf-8';
  try {
    const res = await fetch(call.url, {
      method: call.method ?? 'POST',
      headers,
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
      signal,
      redirect: 'error',
    });
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json };
  } catch (err) {
    if (err instanceof NotifyError) throw err;
    const reason = call.signal.aborted
      ? 'the send was cancelled'
      : timeout.aborted
        ? `no answer within ${call.timeoutMs} ms`
        : `no connection (${networkReason(err)})`;
    throw new NotifyError(`${call.target}: ${reason}`, { retryable: true, cause: err });
  }
}

/**
 * Milliseconds a `Retry-After` header asks to wait: delta-seconds or an HTTP date. Undefined when
 * absent or unreadable.
 */
export function retryAfterMs(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The error for an HTTP status that is not a success: 408, 429 and 5xx are retryable (429 and 503
 * with the wait of their Retry-After), any other status is permanent. `detail` is the service's own
 * words, e.g. Telegram's `description`.
 */
export function statusError(
  target: string,
  answer: Pick<HttpAnswer, 'status' | 'headers'>,
  detail?: string,
  waitMs?: number,
): NotifyError {
  const { status } = answer;
  const retryable = status === 408 || status === 429 || status >= 500;
  const wait = waitMs ?? retryAfterMs(answer.headers.get('retry-after'));
  const text = detail ? `${target}: HTTP ${status}: ${detail}` : `${target}: HTTP ${status}`;
  return new NotifyError(text, {
    retryable,
    status,
    ...(retryable && wait !== undefined ? { retryAfterMs: wait } : {}),
  });
}

/** Base URL without trailing slashes, so `${base}/path` has one slash. */
export function trimBase(base: string): string {
  return base.replace(/\/+$/, '');
}

/**
 * A webhook URL sent to the configured base instead of the real service: the path and query of
 * the stored URL on the base's origin (and path prefix). A URL whose origin is neither the real
 * service nor the base is refused, so a stored webhook cannot make the collector post anywhere.
 */
export function rebaseWebhook(webhookUrl: string, base: string, realOrigin: string, what: string): string {
  let url: URL;
  let baseUrl: URL;
  try {
    url = new URL(webhookUrl);
    baseUrl = new URL(base);
  } catch {
    throw new NotifyError(`${what}: the webhook URL is not a URL`, { retryable: false });
  }
  if (url.origin === baseUrl.origin) return url.href;
  if (url.origin !== realOrigin) {
    throw new NotifyError(`${what}: the webhook URL must start with ${realOrigin}, not ${url.origin}`, {
      retryable: false,
    });
  }
  return `${trimBase(base)}${url.pathname}${url.search}`;
}

/** A short, single-line excerpt of a body for an error message. */
export function excerpt(text: string, max = 200): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max)}…` : line;
}
