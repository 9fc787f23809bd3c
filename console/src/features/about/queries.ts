import { queryOptions } from '@tanstack/react-query';
import { fetchHealth } from './api';

export const HEALTH_REFRESH_MS = 10_000;

/** Live system status, refreshed every 10 s while the page is open. */
export const healthQuery = queryOptions({
  queryKey: ['health'],
  queryFn: ({ signal }) => fetchHealth(signal),
  refetchInterval: HEALTH_REFRESH_MS,
  staleTime: 5_000,
});
