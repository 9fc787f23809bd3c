import { z } from 'zod';

/**
 * Fields every agentless config is built from. Each engine's config lives in its own module
 * (pollers-<engine>.ts) and is listed in pollers.ts.
 */

export const Host = z
  .string()
  .trim()
  .min(1)
  .max(255)
  .regex(/^[^\s/?#@]+$/, 'a host name or an IP address, without scheme, path or user');
export const Port = z.coerce.number().int().min(1).max(65_535);
export const TimeoutMs = z.coerce.number().int().min(100).max(120_000);
/** Seconds between two polls of a target. */
export const IntervalS = z.coerce.number().int().min(10).max(86_400).default(60);

/**
 * TLS towards a target. `enabled` asks for TLS (databases) or https (status pages);
 * `reject_unauthorized: false` accepts a certificate no trusted authority signed; `ca` is PEM text
 * of the authority (or the self-signed certificate) to trust besides the system's.
 */
export const PollerTls = z
  .object({
    enabled: z.boolean().default(false),
    reject_unauthorized: z.boolean().default(true),
    ca: z.string().max(65_536).optional(),
  })
  .strict();
/** TLS towards a target. */
export type PollerTls = z.infer<typeof PollerTls>;
export const TLS_OFF: PollerTls = { enabled: false, reject_unauthorized: true };

export const databaseFields = {
  host: Host,
  user: z.string().min(1).max(128),
  password: z.string().max(1024).default(''),
  tls: PollerTls.default(TLS_OFF),
  /** Time to open a connection, TCP and authentication together. */
  connect_timeout_ms: TimeoutMs.default(5_000),
  /** Time each query of a poll may take, enforced by the server where it can and by the driver. */
  query_timeout_ms: TimeoutMs.default(10_000),
  interval_s: IntervalS,
  /** A statement running this long is listed as a long-running query. */
  long_query_s: z.coerce.number().min(1).max(86_400).default(60),
  /** Database and table sizes are read at most this often: they change slowly and cost more. */
  size_interval_s: z.coerce.number().int().min(10).max(86_400).default(300),
  /** How many of the largest tables to list. */
  top_tables: z.coerce.number().int().min(0).max(100).default(10),
};
