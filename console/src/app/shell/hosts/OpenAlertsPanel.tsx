import { OpenAlertsList } from '../../../features/alerts/components/OpenAlertsList';

/** The open alerts across servers, not acknowledged, by server (the chip's list). */
export function OpenAlertsPanel() {
  return <OpenAlertsList />;
}
