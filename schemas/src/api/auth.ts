import { z } from 'zod';

/**
 * Role codes of the spec (section 6): 1 system admin, 3 internal, 5 and 9 default, 7 admin,
 * 11 e-mail only.
 */
export const ROLE_CODES = [1, 3, 5, 7, 9, 11] as const;
export const RoleCode = z.literal(ROLE_CODES);
export type RoleCode = z.infer<typeof RoleCode>;

/** Label of each role code. */
export const ROLE_LABELS: Readonly<Record<RoleCode, string>> = {
  1: 'system admin',
  3: 'internal',
  5: 'default',
  7: 'admin',
  9: 'default',
  11: 'email',
};

/** The role of the first user of an installation, who manages customers and plans. */
export const SYSTEM_ADMIN_ROLE = 1 satisfies RoleCode;

/** User statuses; disabling (REMOVED, BLOCKED) cannot be undone. */
export const USER_STATUSES = ['ACTIVE', 'REMOVED', 'BLOCKED'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

/** Preferences a user keeps: `first_access_banner` is `'1'` until the welcome banner is closed. */
export const PREFERENCE_NAMES = [
  'dark_mode',
  'utc_offset',
  'timezone',
  'locale',
  'first_access_banner',
] as const;
export type PreferenceName = (typeof PREFERENCE_NAMES)[number];

/**
 * The way a user signs in (`/auth/{login_type}/check`): the product's own credentials unless a
 * provider (google, linkedin) is named.
 */
export const LoginType = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,31}$/, 'expected a login type such as flightdeck');
export type LoginType = z.infer<typeof LoginType>;
/** The product's own login type, the default of the login-type cookie. */
export const DEFAULT_LOGIN_TYPE = 'flightdeck';

/** Name of the session cookie (HttpOnly, SameSite=Lax, Path=/). */
export const SESSION_COOKIE = 'fd_session';

/** `POST /api/signin` body. The e-mail is compared without regard to case. */
export const SigninRequest = z
  .object({
    email: z.email('expected an e-mail address').max(254).trim().toLowerCase(),
    password: z.string().min(1, 'expected the password').max(1024),
  })
  .strict();
export type SigninRequest = z.infer<typeof SigninRequest>;

/** `POST /api/signin` data: the session token, also set as the `fd_session` cookie. */
export const SigninData = z.object({ token: z.string().min(1) });
export type SigninData = z.infer<typeof SigninData>;

/** One preference/value pair of a user. */
export const UserPreference = z.object({ preference: z.string(), value: z.string() });
export type UserPreference = z.infer<typeof UserPreference>;

/** `GET /api/auth/{login_type}/check` data: the signed-in user. `is_admin` is `'1'` for an admin. */
export const AuthUser = z.object({
  user_id: z.number().int().positive(),
  user_login_email: z.string(),
  user_name: z.string(),
  timezone_code: z.string(),
  picture: z.string().nullable(),
  is_admin: z.enum(['1', '0']),
  locale: z.string(),
  preferences: z.array(UserPreference),
  customer_id: z.number().int().positive(),
  role_code: RoleCode,
});
export type AuthUser = z.infer<typeof AuthUser>;
