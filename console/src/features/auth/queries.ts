import { queryOptions } from '@tanstack/react-query';
import { checkSession } from './api';

/** The session check; cached briefly so moving between pages does not ask again each time. */
export const sessionQuery = queryOptions({
  queryKey: ['session'],
  queryFn: checkSession,
  staleTime: 60_000,
  retry: false,
});
