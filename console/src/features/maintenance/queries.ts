import { MAX_MAINTENANCE_CHART_RANGE_S, type MaintenanceState, resolveTimeRange } from '@flightdeck/schemas';
import { queryOptions } from '@tanstack/react-query';
import type { RangeKey } from '../servers/queries';
import { fetchMaintenanceChart, fetchMaintenanceList } from './api';

/** Keys: everything under `['maintenance']` changes when a window is created, finished or removed. */
export const maintenanceKeys = {
  all: ['maintenance'] as const,
  list: (status: MaintenanceState) => ['maintenance', 'list', status] as const,
  chart: (range: RangeKey) => ['maintenance', 'chart', range] as const,
};

/** The windows of one state; states move with time, so the lists refresh every minute. */
export const maintenanceListQuery = (status: MaintenanceState) =>
  queryOptions({
    queryKey: maintenanceKeys.list(status),
    queryFn: ({ signal }) => fetchMaintenanceList(status, signal),
    refetchInterval: 60_000,
  });

/**
 * Approved maintenance per UTC day over the period picker's range (resolved at fetch time), with
 * the period drawn; a range longer than the api's limit keeps its most recent part.
 */
export const maintenanceChartQuery = (range: RangeKey) =>
  queryOptions({
    queryKey: maintenanceKeys.chart(range),
    queryFn: async ({ signal }) => {
      const period = resolveTimeRange(
        { type: range.type, start: range.from, end: range.to },
        Math.floor(Date.now() / 1000),
        range.offset,
      );
      const end = Math.max(period.end, period.start + 1);
      const start = Math.max(0, period.start, end - MAX_MAINTENANCE_CHART_RANGE_S);
      const data = await fetchMaintenanceChart({ start, end }, signal);
      return { days: data.days, period: { start, end } };
    },
  });
