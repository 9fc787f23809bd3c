import type { MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';

/**
 * Parses the JSON body with `schema` (whatever the Content-Type says) and hands it to the handler
 * as `c.req.valid('json')`. A body that is not JSON answers 400 with the parser's reason; a body
 * that does not fit throws the ZodError that `onError` turns into 400 naming the field. An empty
 * body counts as `{}`, so the answer names the missing fields.
 */
export function jsonBody<S extends z.ZodType>(
  schema: S,
): MiddlewareHandler<AppEnv, string, { in: { json: z.input<S> }; out: { json: z.output<S> } }> {
  return async (c, next) => {
    const text = await c.req.text();
    let value: unknown = {};
    if (text.trim() !== '') {
      try {
        value = JSON.parse(text);
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        throw new ApiError(400, 'validation_failed', `The request body is not valid JSON: ${reason}`);
      }
    }
    c.req.addValidatedData('json', schema.parse(value) as object);
    await next();
  };
}
