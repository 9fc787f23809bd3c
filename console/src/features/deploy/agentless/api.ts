import {
  AvailableServicesData,
  CommandEnqueueData,
  CommandStatusData,
  MaskedConfigData,
  type PollerService,
  RegisterServiceData,
} from '@flightdeck/schemas';
import { api } from '../../../lib/api-client';

/** Calls of spec 7, "Service onboarding": every answer is checked against the shared schemas. */

const opts = (signal?: AbortSignal) => (signal ? { signal } : {});

/** The services this server can poll without an agent. */
export function fetchAvailableServices(signal?: AbortSignal) {
  return api.get('/services_monitored/services/available', AvailableServicesData, opts(signal));
}

/** A service's config with every default filled in (secrets masked). */
export function fetchDefaultConfig(service: PollerService, signal?: AbortSignal) {
  return api.get(`/${service}/default_config`, MaskedConfigData, opts(signal));
}

/** Sends a connection test of `config` to the collectors; the answer comes through the status call. */
export function enqueueConnectionTest(service: PollerService, config: Record<string, unknown>) {
  return api.post(
    '/v2/worker/command/enqueue',
    { command: 'connection_test', service, config },
    CommandEnqueueData,
  );
}

export function fetchCommandStatus(commandId: string, signal?: AbortSignal) {
  return api.post('/v2/worker/command/status', { command_id: commandId }, CommandStatusData, opts(signal));
}

/** A new server with this service, from a config whose test passed. */
export function registerService(service: PollerService, name: string, config: Record<string, unknown>) {
  return api.post(`/${service}/register`, { name, config }, RegisterServiceData);
}

/** This service on a server the customer has, from a config whose test passed. */
export function addService(
  service: PollerService,
  serverId: number,
  name: string,
  config: Record<string, unknown>,
) {
  return api.post(
    `/${service}/add`,
    { server_id: serverId, config, ...(name.trim() ? { name } : {}) },
    RegisterServiceData,
  );
}
