import type { AgentKeyData } from '@flightdeck/schemas';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createAgentKey, fetchAgentKey, fetchAgentPackages } from './api';

export const deployKeys = {
  agentKey: ['deploy', 'agent-key'] as const,
  packages: ['deploy', 'packages'] as const,
};

/**
 * The access key. Never stale: after a create or rotate the cache holds the answer with the full
 * key, so it stays on screen across the Linux, Docker and Windows tabs; a reload asks again and
 * gets the prefix only (the key is shown once).
 */
export const agentKeyQuery = queryOptions({
  queryKey: deployKeys.agentKey,
  queryFn: ({ signal }) => fetchAgentKey(signal),
  staleTime: Number.POSITIVE_INFINITY,
});

export const agentPackagesQuery = queryOptions({
  queryKey: deployKeys.packages,
  queryFn: ({ signal }) => fetchAgentPackages(signal),
  staleTime: 60_000,
});

/** The key query and the create/rotate call that puts the full key in it. */
export function useAgentKey() {
  const queryClient = useQueryClient();
  const key = useQuery(agentKeyQuery);
  const create = useMutation({
    mutationFn: (rotate: boolean) => createAgentKey(rotate),
    onSuccess: (data: AgentKeyData) => queryClient.setQueryData(deployKeys.agentKey, data),
  });
  return { key, create };
}
