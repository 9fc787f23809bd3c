import { type ComponentHealth, type ComponentState, HealthData } from '@flightdeck/schemas';
import { api } from '../../lib/api-client';

/** The components of `GET /api/health`, in the order the page lists them. */
export const COMPONENT_NAMES = ['bus', 'metadata_db', 'metric_store', 'collector'] as const;
export type ComponentName = (typeof COMPONENT_NAMES)[number];

export const STATE_COLORS: Readonly<Record<ComponentState, string>> = {
  ok: 'teal',
  degraded: 'yellow',
  down: 'red',
};

/** Fields of a component that are not counters. */
const NOT_COUNTERS = new Set(['state', 'detail', 'last_write_at']);

/** A component's counters (the collector's batches_written, samples_written...), in answer order. */
export function componentCounters(component: ComponentHealth): [string, number][] {
  return Object.entries(component as Record<string, unknown>).filter(
    (entry): entry is [string, number] =>
      !NOT_COUNTERS.has(entry[0]) && typeof entry[1] === 'number' && Number.isFinite(entry[1]),
  );
}

/** Unix milliseconds of the collector's last store write, when the component reports one. */
export function lastWriteAt(component: ComponentHealth): number | undefined {
  const value = (component as { last_write_at?: unknown }).last_write_at;
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Open call. It answers HTTP 503 with the same envelope when a component is down; the data still reads. */
export function fetchHealth(signal?: AbortSignal) {
  return api.get('/health', HealthData, signal ? { signal } : {});
}
