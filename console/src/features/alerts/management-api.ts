import {
  AlertListTypesData,
  ChangeAlertStatusData,
  type ChangeAlertStatusRequest,
  HistoricUnavailableData,
  type HistoricUnavailableRequest,
  ListAlertStatusData,
  MttxHistoricData,
  type MttxHistoricParams,
  UnavailableMark,
  type UnavailableRequest,
} from '@flightdeck/schemas';
import { api } from '../../lib/api-client';

/**
 * Calls of the alert management page (spec 7: alert types, mutes, unavailable marks, MTTA/MTTR):
 * every answer is checked against the shared schemas (schemas/src/api/alerts.ts).
 */

const opts = (signal?: AbortSignal) => (signal ? { signal } : {});
const ALERTS = '/services_monitored/alerts';

export function fetchAlertTypes(signal?: AbortSignal) {
  return api.post('/alert/list_types', {}, AlertListTypesData, opts(signal));
}

/** The alert types turned off, for all servers (server_id null) or for one. */
export function fetchMutes(signal?: AbortSignal) {
  return api.post(`${ALERTS}/list_status`, {}, ListAlertStatusData, opts(signal));
}

export function changeAlertStatus(request: ChangeAlertStatusRequest) {
  return api.post(`${ALERTS}/change_alert_status`, request, ChangeAlertStatusData);
}

export function setUnavailable(request: UnavailableRequest) {
  return api.post(`${ALERTS}/set_unavailable`, request, UnavailableMark);
}

export function removeUnavailable(request: UnavailableRequest) {
  return api.post(`${ALERTS}/remove_unavailable`, request, UnavailableMark);
}

/** The query string of `GET /services_monitored/mttx/historic`. */
export function mttxQueryString(params: MttxHistoricParams): string {
  const q = new URLSearchParams({ start: String(params.start), end: String(params.end) });
  if (params.server_id !== undefined) q.set('server_id', String(params.server_id));
  return q.toString();
}

export function fetchMttxHistoric(params: MttxHistoricParams, signal?: AbortSignal) {
  return api.get(
    `/services_monitored/mttx/historic?${mttxQueryString(params)}`,
    MttxHistoricData,
    opts(signal),
  );
}

export function fetchHistoricUnavailable(request: HistoricUnavailableRequest, signal?: AbortSignal) {
  return api.post('/mttx/get_historic_unavailable', request, HistoricUnavailableData, opts(signal));
}
