import {
  type AuthUser,
  type OkEnvelope,
  SigninRequest,
  SYSTEM_ADMIN_ROLE,
  type ValidLoginData,
} from '@flightdeck/schemas';
import { type Context, Hono } from 'hono';
import { clearSessionCookie, readSessionToken } from '../../auth/cookie';
import { requireSession } from '../../auth/middleware';
import { verifyDecoy, verifyPassword } from '../../auth/password';
import { createLoginLimiter } from '../../auth/rate-limit';
import { revokeSession } from '../../auth/sessions';
import { usesSecureCookies } from '../../config';
import { getCustomer } from '../../db/queries/customers';
import { findUserForSignin } from '../../db/queries/users';
import type { AppDeps, AppEnv } from '../../env';
import { ApiError } from '../../errors';
import { jsonBody } from '../../http/body';
import { clientIp } from '../../http/client-ip';
import { createMailer } from '../../mail';
import { recoveryRoutes } from './recovery';
import { createCodeRequestLimiter, knownLoginType, loadAuthUser, startSession } from './shared';
import { signupRoutes } from './signup';

const INVALID_LOGIN = 'Invalid login';
const TOO_MANY_SIGNINS = 'Too many failed sign-ins. Wait a minute and try again.';

/**
 * Sign-in, the session checks, logout, password recovery and sign-up (spec section 7, "Auth and
 * user"). The recovery and sign-up calls share one mailer and one limit on code requests.
 */
export function authRoutes(deps: AppDeps) {
  const { db, config, logger } = deps;
  const secure = usesSecureCookies(config);
  // Failed attempts per e-mail from one address, and per address across e-mails.
  const perAccount = createLoginLimiter({ maxFailures: 10, windowMs: 60_000 });
  const perAddress = createLoginLimiter({ maxFailures: 50, windowMs: 60_000 });
  const mailer = deps.mailer ?? createMailer(config, logger);
  const codeRequests = createCodeRequestLimiter();

  async function signIn(c: Context<AppEnv>, { email, password }: SigninRequest) {
    const ip = clientIp(c);
    const accountKey = `${ip ?? '-'}|${email}`;
    const addressKey = ip ?? '-';
    if (perAccount.blocked(accountKey) || perAddress.blocked(addressKey)) {
      throw new ApiError(429, 'rate_limited', TOO_MANY_SIGNINS);
    }

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

    const token = await startSession(c, deps, user);
    return c.json({ status: 'ok', data: { token } } satisfies OkEnvelope<{ token: string }>);
  }

  return new Hono<AppEnv>()
    .post('/signin', jsonBody(SigninRequest), (c) => signIn(c, c.req.valid('json')))
    .post('/signin/:login_type/login', knownLoginType, jsonBody(SigninRequest), (c) =>
      signIn(c, c.req.valid('json')),
    )

    .get('/auth/:login_type/check', requireSession(db), knownLoginType, async (c) => {
      const { customerId, userId } = c.var.session;
      const data = await loadAuthUser(db, customerId, userId);
      return c.json({ status: 'ok', data } satisfies OkEnvelope<AuthUser>);
    })

    .post('/auth/:login_type/valid_login', requireSession(db), knownLoginType, async (c) => {
      const { customerId, userId } = c.var.session;
      const data: ValidLoginData = { valid: true, user: await loadAuthUser(db, customerId, userId) };
      return c.json({ status: 'ok', data } satisfies OkEnvelope<ValidLoginData>);
    })

    .post('/logout', async (c) => {
      // Open on purpose: logging out with an expired or revoked token still clears the cookie.
      const token = readSessionToken(c);
      if (token) await revokeSession(db, token);
      clearSessionCookie(c, { secure });
      return c.json({ status: 'ok', data: null } satisfies OkEnvelope<null>);
    })

    .route('/', recoveryRoutes(deps, { mailer, codeRequests }))
    .route('/', signupRoutes(deps, { mailer, codeRequests }));
}
