import { z } from 'zod';

/**
 * Chart contract of the spec (section 3, "Chart data"): what every chart call answers and every
 * chart card draws. `x_values` are unix seconds; each `y_values[field]` is aligned with `x_values`,
 * `null` where no sample fell in the bucket.
 */
export const ChartConfigs = z.object({
  is_dynamic: z.boolean().default(false),
  /** Refresh interval of the chart in seconds. */
  timer_task: z.number().int().positive().default(60),
  precision: z.number().int().min(0).max(10).default(2),
  suffix: z.string().optional(),
  min: z.number().optional(),
  max: z.number().optional(),
  max_field: z.string().optional(),
  max_step: z.number().optional(),
  max_step_perc: z.number().optional(),
  /** Stack groups: group name to the y fields stacked together. */
  stack: z.record(z.string(), z.array(z.string())).optional(),
  converted_value: z.enum(['bytes']).optional(),
  /** Bucket width in seconds the values were aggregated to. */
  step: z.number().int().positive().optional(),
});
export type ChartConfigs = z.infer<typeof ChartConfigs>;

export const ChartData = z.object({
  configs: ChartConfigs,
  x_values: z.array(z.number()),
  y_axis: z.array(z.string()),
  y_values: z.record(z.string(), z.array(z.number().nullable())),
});
export type ChartData = z.infer<typeof ChartData>;

/** Chart data get payload: `{graph_id, server_id, start, end}` with unix seconds. */
export const ChartDataRequest = z
  .object({
    graph_id: z.union([z.string(), z.number()]),
    server_id: z.union([z.string(), z.number()]),
    start: z.number().int().nonnegative(),
    end: z.number().int().nonnegative(),
  })
  .strict();
export type ChartDataRequest = z.infer<typeof ChartDataRequest>;
