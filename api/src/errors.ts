import {
  ERROR_CODES,
  ERROR_FALLBACK_MESSAGES,
  ERROR_HTTP_STATUS,
  type ErrorCode,
  type ErrorEnvelope,
} from '@flightdeck/schemas';
import type { Context, ErrorHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Logger } from 'pino';
import { ZodError, type z } from 'zod';

/**
 * An error a handler throws on purpose: the HTTP status, a code of `ERROR_CODES` and the message
 * the console shows (an English fallback of `errors.<code>` unless given).
 */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: ErrorCode,
    message: string = ERROR_FALLBACK_MESSAGES[code],
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** An error with the code's usual HTTP status. */
  static of(code: ErrorCode, message?: string): ApiError {
    return new ApiError(ERROR_HTTP_STATUS[code] as ContentfulStatusCode, code, message);
  }
}

/** The failure envelope with its status, for answers built outside `onError` (404, 401). */
export function errorResponse(c: Context, status: ContentfulStatusCode, body: ErrorEnvelope): Response {
  return c.json(body, status);
}

function fieldName(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out;
}

/** The first zod issue as a path (naming the field) and a message that starts with the field. */
export function describeZodError(error: z.ZodError): { path: (string | number)[]; message: string } {
  const issue = error.issues[0];
  if (!issue) return { path: [], message: ERROR_FALLBACK_MESSAGES.validation_failed };
  const base = issue.path.map((p) => (typeof p === 'number' ? p : String(p)));
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys;
    const path = [...base, keys[0] ?? ''];
    const names = keys.map((k) => `"${fieldName([...base, k])}"`).join(', ');
    return {
      path,
      message: `unknown field${keys.length > 1 ? 's' : ''} ${names}: not accepted by this call`,
    };
  }
  const name = fieldName(base);
  return { path: base, message: name ? `${name}: ${issue.message}` : issue.message };
}

const CODE_BY_STATUS: Record<number, ErrorCode> = {};
for (const code of ERROR_CODES) CODE_BY_STATUS[ERROR_HTTP_STATUS[code]] ??= code;

/**
 * The app's one error handler: ZodError → 400 `validation_failed` naming the field, ApiError → its
 * status, Hono's HTTPException → its status, anything else → 500 `internal` with a request id that
 * is also in the log line. Stacks never reach the client.
 */
export function errorHandler(logger: Logger): ErrorHandler {
  return (err, c) => {
    if (err instanceof ZodError) {
      const { path, message } = describeZodError(err);
      return c.json(
        { status: 'error', code: 'validation_failed', message, path } satisfies ErrorEnvelope,
        400,
      );
    }
    if (err instanceof ApiError) {
      return c.json(
        { status: 'error', code: err.code, message: err.message } satisfies ErrorEnvelope,
        err.status,
      );
    }
    if (err instanceof HTTPException && err.status < 500) {
      const code = CODE_BY_STATUS[err.status] ?? 'validation_failed';
      const status = err.status as ContentfulStatusCode;
      return c.json(
        {
          status: 'error',
          code,
          message: err.message || ERROR_FALLBACK_MESSAGES[code],
        } satisfies ErrorEnvelope,
        status,
      );
    }
    const requestId: string = c.get('requestId') ?? crypto.randomUUID();
    logger.error({ err, request_id: requestId, method: c.req.method, path: c.req.path }, 'request failed');
    return c.json(
      {
        status: 'error',
        code: 'internal',
        message: ERROR_FALLBACK_MESSAGES.internal,
        request_id: requestId,
      } satisfies ErrorEnvelope,
      500,
    );
  };
}
