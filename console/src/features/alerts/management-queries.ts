import { MAX_MTTX_RANGE_S, resolveTimeRange } from '@flightdeck/schemas';
import { queryOptions } from '@tanstack/react-query';
import type { RangeKey } from '../servers/queries';
import { fetchAlertTypes, fetchHistoricUnavailable, fetchMttxHistoric, fetchMutes } from './management-api';

/**
 * Queries of the alert management page. Everything under `['alertManagement']` is what a mute, an
 * unavailable mark or the shell's refresh can change; the type catalogue only changes with the
 * user's language.
 */
export const managementKeys = {
  all: ['alertManagement'] as const,
  types: (locale: string) => ['alertTypes', locale] as const,
  mutes: ['alertManagement', 'mutes'] as const,
  mttx: (range: RangeKey, serverId: number | null) => ['alertManagement', 'mttx', range, serverId] as const,
  unavailable: (range: RangeKey, serverId: number | null) =>
    ['alertManagement', 'unavailable', range, serverId] as const,
};

/** The period picker's range in unix seconds, resolved when the query runs. */
function period(range: RangeKey) {
  return resolveTimeRange(
    { type: range.type, start: range.from, end: range.to },
    Math.floor(Date.now() / 1000),
    range.offset,
  );
}

export const alertTypesQuery = (locale: string) =>
  queryOptions({
    queryKey: managementKeys.types(locale),
    queryFn: ({ signal }) => fetchAlertTypes(signal),
    staleTime: Number.POSITIVE_INFINITY,
  });

/** MTTA / MTTR over the range; a range wider than the api answers keeps its last year. */
export const mttxQuery = (range: RangeKey, serverId: number | null) =>
  queryOptions({
    queryKey: managementKeys.mttx(range, serverId),
    queryFn: ({ signal }) => {
      const p = period(range);
      const start = Math.max(p.start, p.end - MAX_MTTX_RANGE_S);
      return fetchMttxHistoric(
        { start, end: p.end, ...(serverId !== null ? { server_id: serverId } : {}) },
        signal,
      );
    },
  });

export const unavailableQuery = (range: RangeKey, serverId: number | null) =>
  queryOptions({
    queryKey: managementKeys.unavailable(range, serverId),
    queryFn: async ({ signal }) => {
      const p = period(range);
      const data = await fetchHistoricUnavailable(
        { start: p.start, end: p.end, ...(serverId !== null ? { server_id: serverId } : {}) },
        signal,
      );
      return { ...data, period: p };
    },
  });

/** The alert types turned off, for every server or for one. */
export const mutesQuery = () =>
  queryOptions({ queryKey: managementKeys.mutes, queryFn: ({ signal }) => fetchMutes(signal) });
