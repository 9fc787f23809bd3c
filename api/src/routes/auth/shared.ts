import { type AuthUser, DEFAULT_LOGIN_TYPE } from '@flightdeck/schemas';
import type { Context, MiddlewareHandler } from 'hono';
import { setSessionCookie } from '../../auth/cookie';
import { createLoginLimiter } from '../../auth/rate-limit';
import { createSession } from '../../auth/sessions';
import { usesSecureCookies } from '../../config';
import type { Db } from '../../db/kysely';
import { getUser, getUserPreferences, recordLogin } from '../../db/queries/users';
import type { AppDeps, AppEnv } from '../../env';
import { ApiError } from '../../errors';
import { clientIp } from '../../http/client-ip';

/**
 * Lets through only the login types served so far (the product's own); any other answers 404
 * `not_found` "unknown login type". Google sign-in will add its own.
 */
export const knownLoginType: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.param('login_type') !== DEFAULT_LOGIN_TYPE) {
    throw new ApiError(404, 'not_found', 'unknown login type');
  }
  await next();
};

/** Opens a session for the user, records the login and sets the cookie; returns the token. */
export async function startSession(
  c: Context<AppEnv>,
  deps: Pick<AppDeps, 'db' | 'config'>,
  user: { id: number; customer_id: number },
): Promise<string> {
  const { db, config } = deps;
  const { token } = await createSession(db, {
    userId: user.id,
    customerId: user.customer_id,
    ttlHours: config.SESSION_TTL_HOURS,
    ip: clientIp(c),
    userAgent: c.req.header('User-Agent') ?? null,
  });
  await recordLogin(db, user.customer_id, user.id);
  setSessionCookie(c, token, {
    maxAgeS: Math.round(config.SESSION_TTL_HOURS * 3600),
    secure: usesSecureCookies(config),
  });
  return token;
}

/** The signed-in user as `/auth/{login_type}/check` and `valid_login` answer it. */
export async function loadAuthUser(db: Db, customerId: number, userId: number): Promise<AuthUser> {
  const user = await getUser(db, customerId, userId);
  if (!user) throw ApiError.of('unauthorized');
  const preferences = await getUserPreferences(db, customerId, userId);
  return {
    user_id: user.id,
    user_login_email: user.email,
    user_name: user.name,
    timezone_code: user.timezone_code,
    picture: user.picture,
    is_admin: user.is_admin,
    locale: user.locale,
    preferences,
    customer_id: user.customer_id,
    role_code: user.role_code as AuthUser['role_code'],
  };
}

/** Requests that e-mail a code (recovery, sign-up), per e-mail and per client address. */
export interface CodeRequestLimiter {
  /** Counts one request; throws 429 `rate_limited` once the e-mail or the address used up its quota. */
  take(c: Context, email: string): void;
}

/**
 * At most `perEmail` code requests a minute for one e-mail (its inbox is not flooded, its code not
 * replaced over and over) and `perAddress` from one client address (one sender cannot spray many
 * e-mails). The address quota is larger: offices share one address behind NAT.
 */
export function createCodeRequestLimiter({ perEmail = 5, perAddress = 20, windowMs = 60_000 } = {}) {
  const byEmail = createLoginLimiter({ maxFailures: perEmail, windowMs });
  const byAddress = createLoginLimiter({ maxFailures: perAddress, windowMs });
  return {
    take(c: Context, email: string) {
      const address = clientIp(c) ?? '-';
      if (byEmail.blocked(email) || byAddress.blocked(address)) {
        throw new ApiError(
          429,
          'rate_limited',
          'Too many code requests. Wait a minute before asking for another code.',
        );
      }
      byEmail.fail(email);
      byAddress.fail(address);
    },
  } satisfies CodeRequestLimiter;
}
