import {
  ChangeAlertDynamicThresholdsRequest,
  type DynamicThresholdDirection,
  GetDynamicBandData,
  MAX_DYNAMIC_SENSITIVITY,
  MAX_THRESHOLD_FOR_S,
  MIN_DYNAMIC_SENSITIVITY,
  resolveTimeRange,
  Threshold,
} from '@flightdeck/schemas';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api-client';
import type { RangeKey } from '../servers/queries';
import { thresholdsKeys } from './queries';

/**
 * A dynamic threshold on the thresholds page: its band over the period picker's range
 * (`get_dynamic_band`) and the changes of its settings (`change_alert_dynamic_tresholds`).
 */

const ALERTS = '/services_monitored/alerts';

export function fetchDynamicBand(
  request: { threshold_id: number; server_id: number; start: number; end: number },
  signal?: AbortSignal,
) {
  return api.post(`${ALERTS}/get_dynamic_band`, request, GetDynamicBandData, signal ? { signal } : {});
}

export function changeDynamicThreshold(request: ChangeAlertDynamicThresholdsRequest) {
  return api.post(`${ALERTS}/change_alert_dynamic_tresholds`, request, Threshold);
}

/** The band of a dynamic threshold on a server over a range, with the period it was asked for. */
export const dynamicBandQuery = (
  thresholdId: number,
  serverId: number,
  range: RangeKey,
  sensitivity: number | null,
) =>
  queryOptions({
    queryKey: [...thresholdsKeys.all, 'band', thresholdId, serverId, sensitivity, range],
    queryFn: async ({ signal }) => {
      const period = resolveTimeRange(
        { type: range.type, start: range.from, end: range.to },
        Math.floor(Date.now() / 1000),
        range.offset,
      );
      return fetchDynamicBand(
        { threshold_id: thresholdId, server_id: serverId, start: period.start, end: period.end },
        signal,
      );
    },
  });

/** What the edit form of a dynamic threshold holds, as typed. */
export interface DynamicFormValues {
  sensitivity: string;
  direction: DynamicThresholdDirection;
  forSeconds: string;
}

/** A form error: a key under `alerts.dynamic.errors` and its values. */
export interface DynamicFieldError {
  key: 'sensitivityRange' | 'forRange';
  values: Record<string, number>;
}

export type DynamicFormResult =
  | { ok: true; request: ChangeAlertDynamicThresholdsRequest }
  | { ok: false; errors: Partial<Record<'sensitivity' | 'forSeconds', DynamicFieldError>> };

export function dynamicToForm(
  threshold: Pick<Threshold, 'sensitivity' | 'direction' | 'for_s'>,
): DynamicFormValues {
  return {
    sensitivity: String(threshold.sensitivity ?? 3),
    direction: threshold.direction ?? 'above',
    forSeconds: String(threshold.for_s),
  };
}

/** The change request of a dynamic threshold's form, or the errors to show. */
export function dynamicChangeRequest(id: number, values: DynamicFormValues): DynamicFormResult {
  const errors: Partial<Record<'sensitivity' | 'forSeconds', DynamicFieldError>> = {};
  const sensitivityText = values.sensitivity.trim().replace(',', '.');
  const sensitivity = Number(sensitivityText);
  if (
    sensitivityText === '' ||
    !Number.isFinite(sensitivity) ||
    sensitivity < MIN_DYNAMIC_SENSITIVITY ||
    sensitivity > MAX_DYNAMIC_SENSITIVITY
  ) {
    errors.sensitivity = {
      key: 'sensitivityRange',
      values: { min: MIN_DYNAMIC_SENSITIVITY, max: MAX_DYNAMIC_SENSITIVITY },
    };
  }
  const forText = values.forSeconds.trim();
  const forSeconds = forText === '' ? 0 : Number(forText);
  if (!/^\d*$/.test(forText) || forSeconds > MAX_THRESHOLD_FOR_S) {
    errors.forSeconds = { key: 'forRange', values: { max: MAX_THRESHOLD_FOR_S } };
  }
  if (errors.sensitivity || errors.forSeconds) return { ok: false, errors };
  return {
    ok: true,
    request: ChangeAlertDynamicThresholdsRequest.parse({
      id,
      sensitivity,
      direction: values.direction,
      for_s: forSeconds,
    }),
  };
}
