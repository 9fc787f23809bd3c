import { AgentKeyData, AgentPackagesData } from '@flightdeck/schemas';
import { api } from '../../lib/api-client';

/** The customer's agent access key (prefix only), or null when none was made yet. */
export function fetchAgentKey(signal?: AbortSignal) {
  return api.get('/workers/agent_key', AgentKeyData.nullable(), signal ? { signal } : {});
}

/**
 * Makes the customer's first key, or a new one that revokes the old (`rotate`). The answer is the
 * only one that carries the full key.
 */
export function createAgentKey(rotate: boolean) {
  return api.post('/workers/get_agent_key', rotate ? { rotate: true } : {}, AgentKeyData);
}

/** The agent packages this server has built, and the address agents register with. */
export function fetchAgentPackages(signal?: AbortSignal) {
  return api.get('/downloads/agent', AgentPackagesData, signal ? { signal } : {});
}

/** Where the console downloads a package (same origin, with the session cookie). */
export function packageDownloadUrl(path: 'linux-x64' | 'windows-x64' | 'windows-x64/install.ps1'): string {
  return `/api/downloads/agent/${path}`;
}
