import {
  type AlertGroup,
  type AlertItem,
  type AlertStatus,
  alertStatusRank,
  alertTypeById,
  alertTypeTitle,
  type UserLocale,
} from '@flightdeck/schemas';

/**
 * How the console shows alerts (spec 3 and 4): colours of the status letters, the order of groups
 * and alerts, what counts as still open for the chip, and the alert-type titles in the reader's
 * language. Pure functions, tested without a browser.
 */

/** Mantine colour of each status letter: G green, Y yellow, R red, P purple, B blue, N none. */
export const STATUS_COLORS: Readonly<Record<AlertStatus, string>> = {
  R: 'red',
  Y: 'yellow',
  B: 'blue',
  P: 'grape',
  G: 'teal',
  N: 'gray',
};

/** An alert and the alerts nested under it (other series of the same type and service), flattened. */
export function flattenAlerts(items: readonly AlertItem[]): AlertItem[] {
  return items.flatMap((item) => [item, ...flattenAlerts(item.alerts)]);
}

/** Open alerts not acknowledged now: what the chip and the master-caution light count. */
export function unacknowledged(groups: readonly AlertGroup[]): AlertItem[] {
  return groups.flatMap((g) => flattenAlerts(g.alerts).filter((a) => !a.acknowledged));
}

/**
 * Groups most severe first (by their roll-up, which leaves acknowledged alerts out), then by server
 * name. Inside a group, alerts still waiting for someone come before acknowledged ones, each part
 * most severe first and then oldest first.
 */
export function orderGroups(groups: readonly AlertGroup[]): AlertGroup[] {
  return [...groups]
    .sort(
      (a, b) =>
        alertStatusRank(a.status) - alertStatusRank(b.status) ||
        a.server_name.localeCompare(b.server_name) ||
        a.server_id - b.server_id,
    )
    .map((g) => ({ ...g, alerts: orderAlerts(g.alerts) }));
}

function orderAlerts(items: readonly AlertItem[]): AlertItem[] {
  return [...items]
    .sort(
      (a, b) =>
        Number(a.acknowledged) - Number(b.acknowledged) ||
        alertStatusRank(a.status) - alertStatusRank(b.status) ||
        a.date_enter - b.date_enter ||
        a.id - b.id,
    )
    .map((a) => (a.alerts.length > 0 ? { ...a, alerts: orderAlerts(a.alerts) } : a));
}

/**
 * The groups the chip's panel lists: only alerts not acknowledged (spec 4: an acknowledged alert
 * is hidden from the chip list until its time runs out), servers left without any dropped.
 */
export function chipGroups(groups: readonly AlertGroup[]): AlertGroup[] {
  const keep = (items: readonly AlertItem[]): AlertItem[] =>
    items.flatMap((item) => {
      const nested = keep(item.alerts);
      if (!item.acknowledged) return [{ ...item, alerts: nested }];
      // An acknowledged head still carries nested alerts that are not: they stand on their own.
      return nested;
    });
  return orderGroups(groups)
    .map((g) => ({ ...g, alerts: keep(g.alerts) }))
    .filter((g) => g.alerts.length > 0);
}

/** The alert type's short title in a language; an id outside the catalogue reads "#id". */
export function alertTypeLabel(typeId: number, locale: UserLocale): string {
  return alertTypeById(typeId) ? alertTypeTitle(typeId, locale) : `#${typeId}`;
}

/** Canonical series labels (`mount=/,device=sda`) as people read them: "mount /, device sda". */
export function labelsText(labels: string): string {
  if (labels === '') return '';
  return labels
    .split(/,(?=[a-z_][a-z0-9_]*=)/)
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq < 0 ? pair : `${pair.slice(0, eq)} ${pair.slice(eq + 1)}`;
    })
    .join(', ');
}
