/**
 * Search params of the alert pages, read by the router (this file stays out of the pages' chunks).
 */

/** Which servers the thresholds page shows: one server by id, or every server (its all-servers thresholds). */
export type ThresholdsServerParam = number | 'all';

/** `/flightdeck/management/thresholds?server=<id|all>`. */
export function validateThresholdsSearch(search: Record<string, unknown>): {
  server?: ThresholdsServerParam;
} {
  const v = search.server;
  if (v === 'all') return { server: 'all' };
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : Number.NaN;
  return Number.isInteger(n) && n > 0 ? { server: n } : {};
}

/** `/managements/profile/{id}?section=integrations`: the profile's sections the console has. */
export const PROFILE_SECTIONS = ['integrations'] as const;
export type ProfileSection = (typeof PROFILE_SECTIONS)[number];

export function validateProfileSearch(search: Record<string, unknown>): { section?: ProfileSection } {
  const v = search.section;
  return typeof v === 'string' && (PROFILE_SECTIONS as readonly string[]).includes(v)
    ? { section: v as ProfileSection }
    : {};
}
