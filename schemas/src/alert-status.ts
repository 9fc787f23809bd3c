import { z } from 'zod';
import { ALERT_STATUSES } from './enums';

/** Alert status letter: G green/OK, Y yellow, R red/ERROR, P purple, B blue, N none. */
export const AlertStatus = z.enum(ALERT_STATUSES);
/** Alert status letter: G green/OK, Y yellow, R red/ERROR, P purple, B blue, N none. */
export type AlertStatus = z.infer<typeof AlertStatus>;

/** Statuses from the most to the least severe, the order used when combining (spec section 4). */
export const ALERT_STATUS_PRECEDENCE = [
  'R',
  'Y',
  'B',
  'P',
  'G',
  'N',
] as const satisfies readonly AlertStatus[];

/** Statuses a list-level roll-up can give, most severe first; a list is never "none". */
export const LIST_ROLL_UP_STATUSES = ['R', 'Y', 'B', 'P', 'G'] as const satisfies readonly AlertStatus[];
/** A list-level roll-up status. */
export type ListStatus = (typeof LIST_ROLL_UP_STATUSES)[number];

const RANK: Readonly<Record<AlertStatus, number>> = { R: 0, Y: 1, B: 2, P: 3, G: 4, N: 5 };

/** Severity rank of a status: 0 for R (most severe) up to 5 for N. Sorts ascending by severity. */
export function alertStatusRank(status: AlertStatus): number {
  return RANK[status];
}

/** The more severe of two statuses. */
export function moreSevere(a: AlertStatus, b: AlertStatus): AlertStatus {
  return RANK[b] < RANK[a] ? b : a;
}

/** Combines statuses, e.g. a server's alerts into one: the most severe present wins; none gives N. */
export function combineStatus(statuses: Iterable<AlertStatus>): AlertStatus {
  let out: AlertStatus = 'N';
  for (const s of statuses) {
    out = moreSevere(out, s);
    if (out === 'R') break;
  }
  return out;
}

/**
 * Rolls a list's statuses up into one for the list (R, Y, B, P, G). N entries carry no state and
 * are skipped; a list with nothing else is G, all clear.
 */
export function rollUpList(statuses: Iterable<AlertStatus>): ListStatus {
  const combined = combineStatus(statuses);
  return combined === 'N' ? 'G' : combined;
}
