/**
 * Enumerations of the spec (sections 3, 4 and 9). Rules that go with them live in their own
 * modules (alert-status.ts, time-range.ts).
 */

/** Alert status letters: G green/OK, Y yellow, R red/ERROR, P purple, B blue, N none. */
export const ALERT_STATUSES = ['G', 'Y', 'R', 'P', 'B', 'N'] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];

/** Alert lifecycle labels. */
export const ALERT_LIFECYCLE_EVENTS = ['new', 'updated', 'recurring', 'resolved', 'acknowledged'] as const;
export type AlertLifecycleEvent = (typeof ALERT_LIFECYCLE_EVENTS)[number];
