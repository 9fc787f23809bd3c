import type { MiddlewareHandler } from 'hono';
import type { Db } from '../db/kysely';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';
import { readSessionToken } from './cookie';
import { findActiveSession } from './sessions';

/**
 * Lets a request through only with an open session (bearer token or `fd_session` cookie) and sets
 * `c.var.session` ({sessionId, userId, customerId, isAdmin, roleCode}); otherwise 401 `unauthorized`
 * in the envelope. Use it on a domain sub-app: `routes.use('*', requireSession(deps.db))`.
 */
export function requireSession(db: Db): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const token = readSessionToken(c);
    const session = token ? await findActiveSession(db, token) : undefined;
    if (!session) throw ApiError.of('unauthorized');
    c.set('session', session);
    await next();
  };
}
