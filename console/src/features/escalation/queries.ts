import { queryOptions } from '@tanstack/react-query';
import { fetchEscalationConfig } from './api';

/** Keys: `['escalation']` changes when a chain is saved. */
export const escalationKeys = {
  config: ['escalation', 'config'] as const,
};

/** The customer's chains and who can be named in them. */
export const escalationConfigQuery = queryOptions({
  queryKey: escalationKeys.config,
  queryFn: ({ signal }) => fetchEscalationConfig(signal),
});
