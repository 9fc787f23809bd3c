import type { HttpBindings } from '@hono/node-server';
import type { Context } from 'hono';

/**
 * The peer address of the connection when running under @hono/node-server; null otherwise (tests
 * through `app.request()`). Forwarded headers are not trusted: no proxy is configured yet.
 */
export function clientIp(c: Context): string | null {
  const env = c.env as Partial<HttpBindings> | undefined;
  return env?.incoming?.socket?.remoteAddress ?? null;
}
