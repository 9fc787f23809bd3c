import {
  AlertCountData,
  AlertHistoricData,
  type AlertHistoricRequest,
  AlertItem,
  AlertListData,
  AlterThresholdData,
  type AlterThresholdRequest,
  type DefinedThresholdRequest,
  EmailIntegration,
  EmailIntegrationData,
  type EmailRegisterRequest,
  GetThresholdsServerData,
  type SetAcknowledgeRequest,
  Threshold,
} from '@flightdeck/schemas';
import { z } from 'zod';
import { api } from '../../lib/api-client';

/**
 * Calls of spec 7, "Alerts and thresholds" and "Integrations" (e-mail): every answer is checked
 * against the shared schemas (schemas/src/api/alerts.ts).
 */

const opts = (signal?: AbortSignal) => (signal ? { signal } : {});
const ALERTS = '/services_monitored/alerts';
const EMAIL = '/integrations/integration/email';

export function fetchAlertCount(signal?: AbortSignal) {
  return api.get(`${ALERTS}/count`, AlertCountData, opts(signal));
}

export function fetchAlertList(signal?: AbortSignal) {
  return api.get(`${ALERTS}/list`, AlertListData, opts(signal));
}

export function setAcknowledge(request: SetAcknowledgeRequest) {
  return api.post(`${ALERTS}/set_acknowledge`, request, AlertItem);
}

export function fetchAlertHistory(request: AlertHistoricRequest, signal?: AbortSignal) {
  return api.post(`${ALERTS}/get_historic`, request, AlertHistoricData, opts(signal));
}

export function fetchServerThresholds(serverId: number, signal?: AbortSignal) {
  return api.post(
    '/server/get_thresholds_server',
    { server_id: serverId },
    GetThresholdsServerData,
    opts(signal),
  );
}

export function saveDefinedThreshold(request: DefinedThresholdRequest) {
  return api.post(`${ALERTS}/defined_threshold`, request, Threshold);
}

export function alterThreshold(request: AlterThresholdRequest) {
  return api.post(`${ALERTS}/alter_threshold`, request, AlterThresholdData);
}

export function fetchEmailIntegration(signal?: AbortSignal) {
  return api.post(`${EMAIL}/get_user_info`, {}, EmailIntegrationData, opts(signal));
}

export function registerEmail(request: EmailRegisterRequest) {
  return api.post(`${EMAIL}/register`, request, EmailIntegration);
}

export function setEmailEnabled(enabled: boolean) {
  return api.post(`${EMAIL}/${enabled ? 'enable' : 'disable'}`, {}, EmailIntegration);
}

/** What `remove` answers. */
const RemovedData = z.object({ removed: z.literal(true) }).strict();

export function removeEmail() {
  return api.post(`${EMAIL}/remove`, {}, RemovedData);
}
