import { EscalationConfigData, type SaveEscalationConfigRequest } from '@flightdeck/schemas';
import { api } from '../../lib/api-client';

/**
 * Calls of spec 7, "Integrations" (escalation chains): every answer is checked against the shared
 * schemas (schemas/src/api/escalation.ts).
 */

export function fetchEscalationConfig(signal?: AbortSignal) {
  return api.post(
    '/integrations/integration/escalation_config',
    {},
    EscalationConfigData,
    signal ? { signal } : {},
  );
}

export function saveEscalationConfig(request: SaveEscalationConfigRequest) {
  return api.post('/integrations/integration/save_escalation_config', request, EscalationConfigData);
}
