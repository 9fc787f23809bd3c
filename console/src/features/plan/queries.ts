import { queryOptions } from '@tanstack/react-query';
import {
  fetchIsAvailable,
  fetchMaxFlashbackDays,
  fetchMenu,
  fetchPlanInfo,
  fetchPlansForResource,
} from './api';

const FIVE_MINUTES = 5 * 60_000;

export const planInfoQuery = queryOptions({
  queryKey: ['plan', 'info'],
  queryFn: fetchPlanInfo,
  staleTime: FIVE_MINUTES,
});

export const menuQuery = queryOptions({
  queryKey: ['plan', 'menu'],
  queryFn: fetchMenu,
  staleTime: FIVE_MINUTES,
});

export function availabilityQuery(resource: string) {
  return queryOptions({
    queryKey: ['plan', 'available', resource],
    queryFn: () => fetchIsAvailable(resource),
    staleTime: FIVE_MINUTES,
  });
}

export function plansForResourceQuery(resource: string) {
  return queryOptions({
    queryKey: ['plan', 'offers', resource],
    queryFn: () => fetchPlansForResource(resource),
    staleTime: FIVE_MINUTES,
  });
}

export const maxFlashbackQuery = queryOptions({
  queryKey: ['plan', 'max-flashback'],
  queryFn: fetchMaxFlashbackDays,
  staleTime: FIVE_MINUTES,
});
