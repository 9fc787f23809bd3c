import { AuthUser, DEFAULT_LOGIN_TYPE, SigninData, type SigninRequest } from '@flightdeck/schemas';
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
