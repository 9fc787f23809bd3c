import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../lib/api-client';

/** Retries only what may pass on a second try: no answer, or a 5xx. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= 2) return false;
  if (error instanceof ApiError) return error.status === 0 || error.status >= 500;
  return false;
}

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: shouldRetry, staleTime: 10_000, refetchOnWindowFocus: true },
    mutations: { retry: false },
  },
});
