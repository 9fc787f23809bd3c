import { queryOptions } from '@tanstack/react-query';
import { fetchPreferences } from './api';

export const preferencesQuery = queryOptions({
  queryKey: ['preferences'],
  queryFn: fetchPreferences,
  staleTime: Number.POSITIVE_INFINITY,
});
