/** Where `/` and a sign-in without a redirect land (spec 2, access rules). */
export const HOME_PATH = '/flightdeck/cockpit/master_warning';

const PROBE_ORIGIN = 'http://flightdeck.invalid';

/** Pages a signed-out visitor may open: the sign-in and sign-up flows and the legal pages. */
const OPEN_PATHS = ['/signin', '/signup', '/terms', '/privacy'];

/** Whether `pathname` is one of the open pages or below one (`/signup/verify`, `/signin/recovery/...`). */
export function isOpenPath(pathname: string): boolean {
  return OPEN_PATHS.some((open) => pathname === open || pathname.startsWith(`${open}/`));
}

/**
 * Turns a `redirect` query into a path of this site, or HOME_PATH. Only same-origin paths are
 * accepted, so a crafted link cannot send a user elsewhere after signing in (`//evil.example`,
 * `/\evil.example`, `https://...`, `javascript:` all fall back). Pages of the sign-in flow itself
 * fall back too, so signing in never loops.
 */
export function safeRedirect(value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//')) return HOME_PATH;
  // Browsers treat backslashes and control characters in a URL leniently; refuse them outright.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to reject them
  if (/[\\\u0000-\u001f\u007f]/.test(value)) return HOME_PATH;
  let url: URL;
  try {
    url = new URL(value, PROBE_ORIGIN);
  } catch {
    return HOME_PATH;
  }
  if (url.origin !== PROBE_ORIGIN) return HOME_PATH;
  if (url.pathname === '/signin' || url.pathname.startsWith('/signin/')) return HOME_PATH;
  return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * Where to go after signing in (spec 2): the home page, carrying a requested page in `do_redirect`
 * (the home page then moves on to it). A redirect that is not a usable page of this site is dropped.
 */
export function afterSignInPath(redirect: unknown): string {
  const target = safeRedirect(redirect);
  if (target === HOME_PATH) return HOME_PATH;
  return `${HOME_PATH}?do_redirect=${encodeURIComponent(target).replace(/%2F/gi, '/')}`;
}

/** Any path holding `/tms/` is served under `/ground_control/` instead (spec 2). */
export function rewriteTmsPath(pathname: string): string | undefined {
  return pathname.includes('/tms/') ? pathname.replaceAll('/tms/', '/ground_control/') : undefined;
}
