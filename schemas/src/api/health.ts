import { z } from 'zod';

/** State of one part of a process, as a health check reports it. */
export const COMPONENT_STATES = ['ok', 'degraded', 'down'] as const;
export type ComponentState = (typeof COMPONENT_STATES)[number];

/** One component's health: its state and, when not `ok` or worth saying, a short reason. */
export const ComponentHealth = z.object({
  state: z.enum(COMPONENT_STATES),
  detail: z.string().optional(),
});
export type ComponentHealth = z.infer<typeof ComponentHealth>;

/**
 * The collector's health as `/api/health` shows it: a component health plus the ingest counters
 * when the collector runs in the api's process.
 */
export const CollectorComponentHealth = ComponentHealth.extend({
  batches_written: z.number().int().nonnegative().optional(),
  samples_written: z.number().int().nonnegative().optional(),
  batches_rejected: z.number().int().nonnegative().optional(),
  write_errors: z.number().int().nonnegative().optional(),
  /** Refused batches kept in the metric store's dead-letter table. */
  dead_letters: z.number().int().nonnegative().optional(),
  /** Unix milliseconds of the last successful store write; null before the first. */
  last_write_at: z.number().int().nullable().optional(),
});
export type CollectorComponentHealth = z.infer<typeof CollectorComponentHealth>;

/**
 * `GET /api/health` data. `status` is the worst component state; the call answers HTTP 503 with
 * this same body when it is `down`. `uptime_s` counts whole seconds since the api process started.
 */
export const HealthData = z.object({
  status: z.enum(COMPONENT_STATES),
  version: z.string(),
  uptime_s: z.number().int().nonnegative(),
  components: z.object({
    bus: ComponentHealth,
    metadata_db: ComponentHealth,
    metric_store: ComponentHealth,
    collector: CollectorComponentHealth,
  }),
});
export type HealthData = z.infer<typeof HealthData>;

/** The whole `GET /api/health` answer (the envelope's status is `ok` even when a component is down). */
export const HealthResponse = z.object({ status: z.literal('ok'), data: HealthData });
export type HealthResponse = z.infer<typeof HealthResponse>;
