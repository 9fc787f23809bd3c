/** Above this many open alerts the chip reads "99+" (spec 9). */
export const ALERT_CHIP_MAX = 99;

/** The chip's text: "Status Ok" with none, the count up to 99, "99+" above (spec 9). */
export function alertChipText(count: number, statusOk: string): string {
  if (count <= 0) return statusOk;
  return count > ALERT_CHIP_MAX ? `${ALERT_CHIP_MAX}+` : String(count);
}

/**
 * Open alerts across the customer's servers. The alerts issue feeds this from
 * `GET /services_monitored/alerts/list`, refreshed every 60 s (spec 7 and 9); no alert can be open
 * before the alert engine exists, so the shell reads zero and the chip shows "Status Ok".
 */
export function useOpenAlertCount(): number {
  return 0;
}
