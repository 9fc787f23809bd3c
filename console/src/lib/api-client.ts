import { type ErrorCode, type ErrorEnvelope, envelope } from '@flightdeck/schemas';
import type { z } from 'zod';

/** Failures that never reach the server's envelope: no answer at all, or an answer that is not one. */
export type ClientErrorCode = 'network' | 'invalid_response';

/** A failed call: the server's error code and English message, or a client-side code. */
export class ApiError extends Error {
  constructor(
    /** HTTP status; 0 when the server could not be reached. */
    readonly status: number,
    readonly code: ErrorCode | ClientErrorCode,
    message: string,
    /** zod issue path of a validation error, when the server names the field. */
    readonly path?: ReadonlyArray<string | number>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/**
 * Checks an answer against the shared envelope and the expected `data` schema. Returns `data` of a
 * success envelope; throws ApiError for an error envelope or anything else.
 */
export function parseEnvelope<T extends z.ZodType>(status: number, body: unknown, data: T): z.output<T> {
  const parsed = envelope(data).safeParse(body);
  if (parsed.success) {
    const answer = parsed.data as { status: 'ok'; data: z.output<T> } | ErrorEnvelope;
    if (answer.status === 'ok') return answer.data;
    throw new ApiError(status, answer.code, answer.message, answer.path);
  }
  // A gateway error without an envelope comes from a proxy in front of an API that is not running.
  const code = body === undefined && GATEWAY_STATUSES.has(status) ? 'network' : 'invalid_response';
  throw new ApiError(status, code, `unexpected answer (HTTP ${status}): ${summarize(parsed.error)}`);
}

const GATEWAY_STATUSES = new Set([502, 503, 504]);

function summarize(error: z.ZodError): string {
  const first = error.issues[0];
  return first ? `${first.path.join('.') || '(root)'}: ${first.message}` : 'invalid envelope';
}

export interface ApiClientOptions {
  /** Prefix of every path; the API is mounted under /api. */
  baseUrl?: string;
  fetch?: typeof fetch;
  /**
   * Called once the server answers 403 (spec 4: a 403 removes the session and goes to /signin).
   * `plan_gated` is a 403 too, but it means "not in your plan", so it is left to the page.
   */
  onSessionEnd?: (error: ApiError) => void;
}

export interface ApiClient {
  get<T extends z.ZodType>(path: string, data: T, init?: RequestInit): Promise<z.output<T>>;
  post<T extends z.ZodType>(path: string, body: unknown, data: T, init?: RequestInit): Promise<z.output<T>>;
}

export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  const baseUrl = options.baseUrl ?? '/api';

  async function call<T extends z.ZodType>(path: string, data: T, init: RequestInit): Promise<z.output<T>> {
    const doFetch = options.fetch ?? globalThis.fetch;
    let response: Response;
    try {
      response = await doFetch(`${baseUrl}${path}`, {
        credentials: 'include',
        ...init,
        headers: { Accept: 'application/json', ...init.headers },
      });
    } catch (err) {
      if (err instanceof DOMException && err.name === 'AbortError') throw err;
      throw new ApiError(0, 'network', err instanceof Error ? err.message : String(err));
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      body = undefined;
    }
    try {
      return parseEnvelope(response.status, body, data);
    } catch (err) {
      if (err instanceof ApiError && err.status === 403 && err.code !== 'plan_gated') {
        options.onSessionEnd?.(err);
      }
      throw err;
    }
  }

  return {
    get: (path, data, init = {}) => call(path, data, { ...init, method: 'GET' }),
    post: (path, body, data, init = {}) =>
      call(path, data, {
        ...init,
        method: 'POST',
        ...(body === undefined
          ? {}
          : { body: JSON.stringify(body), headers: { 'Content-Type': 'application/json', ...init.headers } }),
      }),
  };
}

let sessionEndHandler: ((error: ApiError) => void) | undefined;

/** The router registers what "the session ended" means (clear caches, go to /signin). */
export function onSessionEnd(handler: (error: ApiError) => void): void {
  sessionEndHandler = handler;
}

/** The console's client: `/api` prefix, cookies sent, every answer parsed. */
export const api = createApiClient({ onSessionEnd: (error) => sessionEndHandler?.(error) });
