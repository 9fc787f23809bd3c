import {
  type AuthUser,
  LoginType,
  type OkEnvelope,
  SigninRequest,
  SYSTEM_ADMIN_ROLE,
} from '@flightdeck/schemas';
import { Hono } from 'hono';
import { clearSessionCookie, readSessionToken, setSessionCookie } from '../../auth/cookie';
import { requireSession } from '../../auth/middleware';
import { verifyDecoy, verifyPassword } from '../../auth/password';
import { createLoginLimiter } from '../../auth/rate-limit';
import { createSession, revokeSession } from '../../auth/sessions';
import { usesSecureCookies } from '../../config';
import { getCustomer } from '../../db/queries/customers';
import { findUserForSignin, getUser, getUserPreferences, recordLogin } from '../../db/queries/users';
import type { AppDeps, AppEnv } from '../../env';
import { ApiError } from '../../errors';
import { jsonBody } from '../../http/body';
import { clientIp } from '../../http/client-ip';

const INVALID_LOGIN = 'Invalid login';

/** Sign-in, the session check and logout (spec section 7, "Auth and user"). */
export function authRoutes(deps: AppDeps) {
  const { db, config } = deps;
  const secure = usesSecureCookies(config);
  // Failed attempts per e-mail from one address, and per address across e-mails.
  const perAccount = createLoginLimiter({ maxFailures: 10, windowMs: 60_000 });
  const perAddress = createLoginLimiter({ maxFailures: 50, windowMs: 60_000 });

  return new Hono<AppEnv>()
    .post('/signin', jsonBody(SigninRequest), async (c) => {
      const { email, password } = c.req.valid('json');
      const ip = clientIp(c);
      const accountKey = `${ip ?? '-'}|${email}`;
      const addressKey = ip ?? '-';
      if (perAccount.blocked(accountKey) || perAddress.blocked(addressKey)) throw ApiError.of('rate_limited');

      const user = await findUserForSignin(db, email);
      const valid = user?.password_hash
        ? await verifyPassword(user.password_hash, password)
        : await verifyDecoy(password);
      if (!user || !valid) {
        perAccount.fail(accountKey);
        perAddress.fail(addressKey);
        throw new ApiError(401, 'invalid_credentials', INVALID_LOGIN);
      }
      perAccount.reset(accountKey);
      if (user.status !== 'ACTIVE') {
        throw new ApiError(
          403,
          'forbidden',
          user.status === 'BLOCKED' ? 'This user is blocked.' : 'This user was removed.',
        );
      }
      const customer = await getCustomer(db, user.customer_id);
      // The system administrator keeps access to reactivate the company.
      if (customer && customer.status !== 'active' && user.role_code !== SYSTEM_ADMIN_ROLE) {
        throw new ApiError(403, 'forbidden', `This company's access is ${customer.status}.`);
      }

      const { token } = await createSession(db, {
        userId: user.id,
        customerId: user.customer_id,
        ttlHours: config.SESSION_TTL_HOURS,
        ip,
        userAgent: c.req.header('User-Agent') ?? null,
      });
      await recordLogin(db, user.customer_id, user.id);
      setSessionCookie(c, token, { maxAgeS: Math.round(config.SESSION_TTL_HOURS * 3600), secure });
      return c.json({ status: 'ok', data: { token } } satisfies OkEnvelope<{ token: string }>);
    })

    .get('/auth/:login_type/check', requireSession(db), async (c) => {
      LoginType.parse(c.req.param('login_type'));
      const { customerId, userId } = c.var.session;
      const user = await getUser(db, customerId, userId);
      if (!user) throw ApiError.of('unauthorized');
      const preferences = await getUserPreferences(db, customerId, userId);
      const data: AuthUser = {
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
      return c.json({ status: 'ok', data } satisfies OkEnvelope<AuthUser>);
    })

    .post('/logout', async (c) => {
      // Open on purpose: logging out with an expired or revoked token still clears the cookie.
      const token = readSessionToken(c);
      if (token) await revokeSession(db, token);
      clearSessionCookie(c, { secure });
      return c.json({ status: 'ok', data: null } satisfies OkEnvelope<null>);
    });
}
