import { env, parseEnv } from '@flightdeck/schemas';
import { z } from 'zod';
import { metricsStoreProblem } from './store/index';

/** Environment of a stand-alone collector process (the at-scale deployment). */
export const CollectorConfigSchema = z.object({
  /** Metric store: a SQLite file path, or a QuestDB config string (see collector/src/store/index.ts). */
  METRICS_STORE: z.string().superRefine((v, ctx) => {
    const problem = metricsStoreProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
  /** NATS server URL; the stand-alone collector needs the bus. */
  NATS_URL: env.url(['nats', 'tls']),
  /** Batches written at once from the bus. */
  COLLECTOR_CONCURRENCY: env.int(64, 1),
  LOG_LEVEL: env.logLevel(),
});
export type CollectorConfig = z.infer<typeof CollectorConfigSchema>;

export function loadCollectorConfig(
  source: Record<string, string | undefined> = process.env,
): Readonly<CollectorConfig> {
  return parseEnv(CollectorConfigSchema, source);
}
