import {
  AuthUser,
  DEFAULT_LOGIN_TYPE,
  type DestroyCodeRequest,
  type EmailVerificationRequest,
  type PasswordRecoveryRequest,
  type PasswordVerifyCodeRequest,
  type RecoveryPasswordRequest,
  SigninData,
  type SigninRequest,
  type SignupRequest,
} from '@flightdeck/schemas';
import { z } from 'zod';
import { api } from '../../lib/api-client';

/** The login type kept in the `login_type` cookie (spec 9), the product's own by default. */
export function loginType(
  cookieHeader: string = typeof document === 'undefined' ? '' : document.cookie,
): string {
  const match = /(?:^|;\s*)login_type=([a-z][a-z0-9_]{0,31})(?:;|$)/.exec(cookieHeader);
  return match?.[1] ?? DEFAULT_LOGIN_TYPE;
}

/** The server answers with the token and also sets it as the HttpOnly session cookie the console relies on. */
export function signIn(credentials: SigninRequest) {
  return api.post('/signin', credentials, SigninData);
}

/** Who is signed in; a 401 means nobody. */
export function checkSession() {
  return api.get(`/auth/${loginType()}/check`, AuthUser);
}

export function signOut() {
  return api.post('/logout', undefined, z.null());
}

/** Freemium sign-up with the product's own credentials: e-mails a 6-digit code. */
export function signUp(body: SignupRequest) {
  return api.post(`/signup/${DEFAULT_LOGIN_TYPE}/register`, body, z.unknown());
}

/** Confirms the e-mailed code; the server creates the account and signs it in (cookie set). */
export function verifyEmail(body: EmailVerificationRequest) {
  return api.post('/signup/email_verification', body, SigninData);
}

export function requestPasswordRecovery(body: PasswordRecoveryRequest) {
  return api.post(`/auth/${DEFAULT_LOGIN_TYPE}/password_recovery`, body, z.unknown());
}

export function verifyRecoveryCode(body: PasswordVerifyCodeRequest) {
  return api.post(`/auth/${DEFAULT_LOGIN_TYPE}/password_verify_code`, body, z.unknown());
}

export function destroyRecoveryCode(body: DestroyCodeRequest) {
  return api.post(`/auth/${DEFAULT_LOGIN_TYPE}/destroy_code`, body, z.unknown());
}

export function recoverPassword(body: RecoveryPasswordRequest) {
  return api.post(`/auth/${DEFAULT_LOGIN_TYPE}/recovery_password`, body, z.unknown());
}
