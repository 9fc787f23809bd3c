import { SESSION_COOKIE } from '@flightdeck/schemas';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';

/** Sets the session cookie: HttpOnly, SameSite=Lax, Path=/, Secure when the console is on https. */
export function setSessionCookie(
  c: Context,
  token: string,
  opts: { maxAgeS: number; secure: boolean },
): void {
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'Lax',
    path: '/',
    secure: opts.secure,
    maxAge: opts.maxAgeS,
  });
}

export function clearSessionCookie(c: Context, opts: { secure: boolean }): void {
  deleteCookie(c, SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'Lax', secure: opts.secure });
}

/** The session token of a request: `Authorization: Bearer` first, then the `fd_session` cookie. */
export function readSessionToken(c: Context): string | undefined {
  const auth = c.req.header('Authorization');
  const bearer = auth?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  if (bearer) return bearer;
  return getCookie(c, SESSION_COOKIE) || undefined;
}
