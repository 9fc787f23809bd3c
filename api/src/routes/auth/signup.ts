import {
  EMAIL_CODE_TTL_MINUTES,
  EmailVerificationRequest,
  type OkEnvelope,
  type SigninData,
  SignupRequest,
  UserLocale,
} from '@flightdeck/schemas';
import { Hono } from 'hono';
import { z } from 'zod';
import { hashPassword } from '../../auth/password';
import { unixNow } from '../../clock';
import type { Db } from '../../db/kysely';
import { createCustomer } from '../../db/queries/customers';
import { createPlan } from '../../db/queries/plans';
import { createUser, emailInUse } from '../../db/queries/users';
import type { User } from '../../db/types';
import type { AppDeps, AppEnv } from '../../env';
import { ApiError } from '../../errors';
import { jsonBody } from '../../http/body';
import type { Mailer } from '../../mail';
import { signupCodeMail } from '../../mail/messages';
import { checkAuthCode, consumeAuthCode, issueAuthCode } from './codes';
import { type CodeRequestLimiter, knownLoginType, startSession } from './shared';

/** The account a sign-up code stands for, kept with the code until the e-mail is confirmed. */
const SignupPayload = z.object({
  name: z.string(),
  company: z.string().nullable(),
  password_hash: z.string(),
  locale: UserLocale,
});
type SignupPayload = z.infer<typeof SignupPayload>;

/** Role of the user who signs a company up: its admin (spec 6, role 7). */
const CUSTOMER_ADMIN_ROLE = 7;
/** Days of the Freemium plan created when no plan is marked freemium yet. */
const FALLBACK_FREEMIUM_DAYS = 14;

/**
 * The Freemium plan new sign-ups get (spec 9: default registration plan): the first plan marked
 * freemium, or, when the catalogue has none yet, a new one with the column defaults.
 */
async function freemiumPlanId(db: Db): Promise<number> {
  const found = await db
    .selectFrom('plans')
    .select('id')
    .where('is_freemium', '=', 1)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  if (found) return found.id;
  const plan = await createPlan(db, {
    name: 'Freemium',
    is_freemium: 1,
    lifetime_days: FALLBACK_FREEMIUM_DAYS,
    user_limit: null,
    max_servers: null,
    max_services: null,
    data_retention_days: null,
    concurrent_sessions: null,
    instance_quantity: null,
  });
  return plan.id;
}

/** Creates the customer, its admin user and the user's first preferences; one transaction. */
async function createFreemiumAccount(db: Db, email: string, payload: SignupPayload): Promise<User> {
  const planId = await freemiumPlanId(db);
  const customer = await createCustomer(db, {
    name: payload.company ?? `${payload.name}'s company`,
    email,
    status: 'active',
    register_in: unixNow(),
    plan_id: planId,
  });
  const user = await createUser(db, customer.id, {
    email,
    name: payload.name,
    password_hash: payload.password_hash,
    role_code: CUSTOMER_ADMIN_ROLE,
    is_admin: '1',
    status: 'ACTIVE',
    locale: payload.locale,
    timezone_code: 'UTC',
  });
  const preferences: Record<string, string> = {
    first_access_banner: '1',
    locale: payload.locale,
    dark_mode: '0',
    timezone: 'UTC',
    utc_offset: '+00:00',
  };
  await db
    .insertInto('user_preferences')
    .values(
      Object.entries(preferences).map(([preference, value]) => ({
        customer_id: customer.id,
        user_id: user.id,
        preference,
        value,
      })),
    )
    .execute();
  return user;
}

/** Freemium sign-up with e-mail verification (spec 4 and 9). */
export function signupRoutes(
  deps: AppDeps,
  { mailer, codeRequests }: { mailer: Mailer; codeRequests: CodeRequestLimiter },
) {
  const { db } = deps;

  return new Hono<AppEnv>()
    .post('/signup/:login_type/register', knownLoginType, jsonBody(SignupRequest), async (c) => {
      const body = c.req.valid('json');
      codeRequests.take(c, body.email);
      if (await emailInUse(db, body.email)) throw ApiError.of('email_taken');
      const payload: SignupPayload = {
        name: body.name,
        company: body.company ?? null,
        password_hash: await hashPassword(body.password),
        locale: body.locale ?? 'en',
      };
      const code = await issueAuthCode(db, 'signup', body.email, JSON.stringify(payload));
      await mailer.send(signupCodeMail(payload.locale, body.email, { name: body.name, code }));
      return c.json({
        status: 'ok',
        data: null,
        message: `A 6-digit code was sent to ${body.email}. It is valid for ${EMAIL_CODE_TTL_MINUTES} minutes.`,
      } satisfies OkEnvelope<null>);
    })

    .post('/signup/email_verification', jsonBody(EmailVerificationRequest), async (c) => {
      const { email, code } = c.req.valid('json');
      // Checked (and a wrong try counted) outside the transaction, so a rollback cannot undo the count.
      const matched = await checkAuthCode(db, 'signup', email, code);
      if (!matched?.payload) throw ApiError.of('invalid_code');
      const payload = SignupPayload.parse(JSON.parse(matched.payload));
      const user = await db.transaction().execute(async (trx) => {
        if (!(await consumeAuthCode(trx, matched))) throw ApiError.of('invalid_code');
        // Someone may have taken the e-mail since the code was sent (an invite, another sign-up).
        if (await emailInUse(trx, email)) throw ApiError.of('email_taken');
        return createFreemiumAccount(trx, email, payload);
      });
      const token = await startSession(c, deps, user);
      return c.json({ status: 'ok', data: { token } } satisfies OkEnvelope<SigninData>);
    });
}
