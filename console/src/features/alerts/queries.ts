import { type AlertTypeId, MAX_HISTORY_ROWS, resolveTimeRange } from '@flightdeck/schemas';
import { queryOptions } from '@tanstack/react-query';
import type { RangeKey } from '../servers/queries';
import {
  fetchAlertCount,
  fetchAlertHistory,
  fetchAlertList,
  fetchEmailIntegration,
  fetchServerThresholds,
} from './api';

/** Spec 9: the alert chip refreshes every 60 s (an `alert` event refreshes it at once). */
export const ALERT_CHIP_REFRESH_MS = 60_000;

/**
 * Keys: everything under `['alerts']` is what an `alert` event can change (count, open list,
 * history); thresholds and integrations change only through their own pages.
 */
export const alertsKeys = {
  all: ['alerts'] as const,
  count: ['alerts', 'count'] as const,
  list: ['alerts', 'list'] as const,
  histories: ['alerts', 'history'] as const,
  history: (range: RangeKey, filters: HistoryFilters) => ['alerts', 'history', range, filters] as const,
};

export const thresholdsKeys = {
  all: ['thresholds'] as const,
  server: (serverId: number) => ['thresholds', serverId] as const,
};

export const integrationKeys = {
  email: ['integrations', 'email'] as const,
};

export const alertCountQuery = queryOptions({
  queryKey: alertsKeys.count,
  queryFn: ({ signal }) => fetchAlertCount(signal),
  refetchInterval: ALERT_CHIP_REFRESH_MS,
});

export const alertListQuery = queryOptions({
  queryKey: alertsKeys.list,
  queryFn: ({ signal }) => fetchAlertList(signal),
  refetchInterval: ALERT_CHIP_REFRESH_MS,
});

/** Filters of the alert history the api applies. */
export interface HistoryFilters {
  serverId?: number;
  typeId?: AlertTypeId;
}

/**
 * Alert occurrences over the period picker's range, newest first (at most MAX_HISTORY_ROWS). A
 * relative period ("last hour") resolves at fetch time, so a refresh moves it forward.
 */
export const alertHistoryQuery = (range: RangeKey, filters: HistoryFilters) =>
  queryOptions({
    queryKey: alertsKeys.history(range, filters),
    queryFn: async ({ signal }) => {
      const period = resolveTimeRange(
        { type: range.type, start: range.from, end: range.to },
        Math.floor(Date.now() / 1000),
        range.offset,
      );
      const rows = await fetchAlertHistory(
        {
          start: period.start,
          end: period.end,
          limit: MAX_HISTORY_ROWS,
          ...(filters.serverId !== undefined ? { server_id: filters.serverId } : {}),
          ...(filters.typeId !== undefined ? { type_id: filters.typeId } : {}),
        },
        signal,
      );
      return { rows, period };
    },
  });

export const serverThresholdsQuery = (serverId: number) =>
  queryOptions({
    queryKey: thresholdsKeys.server(serverId),
    queryFn: ({ signal }) => fetchServerThresholds(serverId, signal),
  });

export const emailIntegrationQuery = queryOptions({
  queryKey: integrationKeys.email,
  queryFn: ({ signal }) => fetchEmailIntegration(signal),
});
