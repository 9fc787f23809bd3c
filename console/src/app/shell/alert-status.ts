import type { AlertStatus } from '@flightdeck/schemas';
import { useQuery } from '@tanstack/react-query';
import { alertCountQuery } from '../../features/alerts/queries';

/** Above this many open alerts the chip reads "99+" (spec 9). */
export const ALERT_CHIP_MAX = 99;

/** The chip's text: "Status Ok" with none, the count up to 99, "99+" above (spec 9). */
export function alertChipText(count: number, statusOk: string): string {
  if (count <= 0) return statusOk;
  return count > ALERT_CHIP_MAX ? `${ALERT_CHIP_MAX}+` : String(count);
}

/** What the top bar shows: open alerts not acknowledged, their roll-up, or that it is not known yet. */
export interface OpenAlertState {
  /** False while the first answer is awaited or when it failed: the light and chip show neither state. */
  known: boolean;
  count: number;
  status: AlertStatus;
}

/**
 * Open alerts across the customer's servers that are not acknowledged, from
 * `GET /services_monitored/alerts/count`: asked again every 60 s (spec 9) and at once on each live
 * `alert` event (the shell's event stream invalidates the query).
 */
export function useOpenAlerts(): OpenAlertState {
  const { data } = useQuery(alertCountQuery);
  if (!data) return { known: false, count: 0, status: 'N' };
  return { known: true, count: data.unacknowledged, status: data.unacknowledged > 0 ? data.status : 'G' };
}

/** The count the chip shows (0 until known). */
export function useOpenAlertCount(): number {
  return useOpenAlerts().count;
}
