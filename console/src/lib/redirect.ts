/** Where a signed-in user lands when no usable redirect was asked for. */
export const HOME_PATH = '/about';

const PROBE_ORIGIN = 'http://flightdeck.invalid';

/**
 * Turns the `redirect` query of /signin into a path of this site, or HOME_PATH. Only same-origin
 * paths are accepted, so a crafted link cannot send a user elsewhere after signing in
 * (`//evil.example`, `/\evil.example`, `https://...`, `javascript:` all fall back). Pages of the
 * sign-in flow itself fall back too, so signing in never loops.
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
