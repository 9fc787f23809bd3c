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

/** Languages a user can choose (messages, e-mails, the console); the first is the default. */
export const USER_LOCALES = ['en', 'es', 'pt'] as const;
export const UserLocale = z.enum(USER_LOCALES, { error: 'expected one of en, es, pt' });
export type UserLocale = z.infer<typeof UserLocale>;

/** An e-mail as every auth call takes it: trimmed and lower-cased (the login is case-insensitive). */
export const AuthEmail = z.email('expected an e-mail address').max(254).trim().toLowerCase();

/** A password being chosen (sign-up, recovery): at least 8 characters. */
export const NewPassword = z.string().min(8, 'expected at least 8 characters').max(1024);

/** A code sent by e-mail (sign-up verification, password recovery): 6 digits, valid 15 minutes. */
export const EmailCode = z
  .string()
  .trim()
  .regex(/^\d{6}$/, 'expected the 6-digit code from the e-mail');

/** Minutes an e-mailed code stays valid. */
export const EMAIL_CODE_TTL_MINUTES = 15;
/** Wrong tries a code survives; after them it is invalid and a new one must be asked for. */
export const EMAIL_CODE_MAX_ATTEMPTS = 5;

/** `POST /api/auth/{login_type}/valid_login` data: the session is valid, and its user. */
export const ValidLoginData = z.object({ valid: z.literal(true), user: AuthUser });
export type ValidLoginData = z.infer<typeof ValidLoginData>;

/**
 * `POST /api/auth/{login_type}/password_recovery` body. Always answers ok (the same message whether
 * or not an account has the e-mail); the code is sent only to an ACTIVE user.
 */
export const PasswordRecoveryRequest = z.object({ email: AuthEmail }).strict();
export type PasswordRecoveryRequest = z.infer<typeof PasswordRecoveryRequest>;

/** `POST /api/auth/{login_type}/password_verify_code` body: ok, or 400 `invalid_code`. */
export const PasswordVerifyCodeRequest = z.object({ email: AuthEmail, code: EmailCode }).strict();
export type PasswordVerifyCodeRequest = z.infer<typeof PasswordVerifyCodeRequest>;

/** `POST /api/auth/{login_type}/destroy_code` body: invalidates the e-mail's live recovery code. */
export const DestroyCodeRequest = z.object({ email: AuthEmail }).strict();
export type DestroyCodeRequest = z.infer<typeof DestroyCodeRequest>;

/**
 * `POST /api/auth/{login_type}/recovery_password` body. 400 `passwords_mismatch` when the two
 * passwords differ, 400 `invalid_code` for a wrong or expired code; on success every session of
 * the user is revoked.
 */
export const RecoveryPasswordRequest = z
  .object({
    email: AuthEmail,
    code: EmailCode,
    password: NewPassword,
    password_confirmation: z.string().max(1024),
  })
  .strict();
export type RecoveryPasswordRequest = z.infer<typeof RecoveryPasswordRequest>;

/**
 * `POST /api/signup/{login_type}/register` body: a freemium sign-up. 409 `email_taken` when a user
 * has the e-mail; otherwise a code is e-mailed (in `locale`, default en) and must be confirmed with
 * `/signup/email_verification`.
 */
export const SignupRequest = z
  .object({
    name: z.string().trim().min(1, 'expected your name').max(120),
    email: AuthEmail,
    password: NewPassword,
    company: z.string().trim().min(1, 'expected the company name').max(120).optional(),
    locale: UserLocale.optional(),
  })
  .strict();
export type SignupRequest = z.infer<typeof SignupRequest>;

/**
 * `POST /api/signup/email_verification` body. Creates the customer (Freemium plan) and its admin
 * user, signs in and answers `SigninData` (the token, also set as the cookie).
 */
export const EmailVerificationRequest = z.object({ email: AuthEmail, code: EmailCode }).strict();
export type EmailVerificationRequest = z.infer<typeof EmailVerificationRequest>;
