import { DEFAULT_TIME_RANGE_TYPE, resolveTimeRange, type TimeRangeType } from '@flightdeck/schemas';
import { queryOptions } from '@tanstack/react-query';
import {
  fetchChartData,
  fetchDiskStatus,
  fetchGraphsByCategory,
  fetchHostStatus,
  fetchNetworkStatus,
  fetchProcessStatus,
  fetchServer,
  fetchServers,
  fetchVariables,
} from './api';

/**
 * The period of the shell's picker as it sits in a query key: the type and, for `custom`, both
 * ends. A relative period ("last hour") resolves at fetch time, so a refresh moves it forward.
 */
export interface RangeKey {
  type: TimeRangeType;
  from?: number;
  to?: number;
  /** The user's UTC offset in minutes ("today" starts at the user's midnight). */
  offset: number;
}

export function rangeKey(
  search: { range?: TimeRangeType; from?: number; to?: number },
  offset: number,
): RangeKey {
  return {
    type: search.range ?? DEFAULT_TIME_RANGE_TYPE,
    ...(search.from !== undefined ? { from: search.from } : {}),
    ...(search.to !== undefined ? { to: search.to } : {}),
    offset,
  };
}

export const serversKeys = {
  all: ['servers'] as const,
  list: ['servers', 'list'] as const,
  server: (id: number) => ['servers', id] as const,
};

export const serversListQuery = queryOptions({
  queryKey: serversKeys.list,
  queryFn: ({ signal }) => fetchServers(signal),
});

export const serverQuery = (id: number) =>
  queryOptions({ queryKey: ['servers', id, 'detail'], queryFn: ({ signal }) => fetchServer(id, signal) });

export const graphsQuery = (id: number) =>
  queryOptions({
    queryKey: ['servers', id, 'graphs'],
    queryFn: ({ signal }) => fetchGraphsByCategory(id, signal),
  });

export const hostStatusQuery = (id: number) =>
  queryOptions({ queryKey: ['servers', id, 'status'], queryFn: ({ signal }) => fetchHostStatus(id, signal) });

export const diskStatusQuery = (id: number) =>
  queryOptions({ queryKey: ['servers', id, 'disks'], queryFn: ({ signal }) => fetchDiskStatus(id, signal) });

export const processStatusQuery = (id: number) =>
  queryOptions({
    queryKey: ['servers', id, 'processes'],
    queryFn: ({ signal }) => fetchProcessStatus(id, signal),
  });

export const networkStatusQuery = (id: number) =>
  queryOptions({
    queryKey: ['servers', id, 'network'],
    queryFn: ({ signal }) => fetchNetworkStatus(id, signal),
  });

export const variablesQuery = (id: number) =>
  queryOptions({
    queryKey: ['servers', id, 'variables'],
    queryFn: ({ signal }) => fetchVariables(id, signal),
  });

/** One chart's points over the period, with the period it was asked for (the x scale spans it). */
export const chartQuery = (id: number, graphId: string, range: RangeKey) =>
  queryOptions({
    queryKey: ['servers', id, 'chart', graphId, range],
    queryFn: async ({ signal }) => {
      const period = resolveTimeRange(
        { type: range.type, start: range.from, end: range.to },
        Math.floor(Date.now() / 1000),
        range.offset,
      );
      const chart = await fetchChartData(
        { graphId, serverId: id, start: period.start, end: period.end },
        signal,
      );
      return { chart, period };
    },
  });
