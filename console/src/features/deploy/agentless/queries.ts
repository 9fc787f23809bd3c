import type { PollerService } from '@flightdeck/schemas';
import { queryOptions } from '@tanstack/react-query';
import { fetchAvailableServices, fetchDefaultConfig } from './api';

export const agentlessKeys = {
  available: ['deploy', 'agentless', 'available'] as const,
  defaults: (service: PollerService) => ['deploy', 'agentless', service, 'default-config'] as const,
};

export const availableServicesQuery = queryOptions({
  queryKey: agentlessKeys.available,
  queryFn: ({ signal }) => fetchAvailableServices(signal),
  staleTime: 5 * 60_000,
});

export const defaultConfigQuery = (service: PollerService) =>
  queryOptions({
    queryKey: agentlessKeys.defaults(service),
    queryFn: ({ signal }) => fetchDefaultConfig(service, signal),
    staleTime: Number.POSITIVE_INFINITY,
  });
