import { hostname } from 'node:os';
import { env, parseEnv, SubjectToken } from '@flightdeck/schemas';
import { z } from 'zod';

/**
 * A host name as a bus subject token (`fd.metrics.<tenant>.<host>`): lower-case, and every character
 * outside `[a-z0-9_-]` (dots of a fully qualified name included) becomes `-`. Cut to the 128
 * characters a token may hold.
 */
export function hostKeyFromHostname(name: string): string {
  const key = name
    .toLowerCase()
    .replace(/[^a-z0-9_-]/g, '-')
    .slice(0, 128);
  return key === '' ? 'unknown-host' : key;
}

/** The agent's environment variables (README). Only this module reads `process.env`. */
export const AgentEnv = z.object({
  AGENT_TENANT: SubjectToken,
  AGENT_HOST_KEY: SubjectToken.optional(),
  AGENT_INTERVAL_S: env.int(10, 1),
  AGENT_PROC_ROOT: z.string().startsWith('/', 'expected an absolute path').default('/proc'),
  NATS_URL: env.url(['nats', 'tls', 'ws', 'wss']).optional(),
  LOG_LEVEL: env.logLevel(),
});

export interface AgentConfig {
  readonly tenant: string;
  readonly hostKey: string;
  readonly intervalSeconds: number;
  readonly procRoot: string;
  /** Absent: no NATS; the transport is chosen by the caller. */
  readonly natsUrl: string | undefined;
  readonly logLevel: z.infer<typeof AgentEnv>['LOG_LEVEL'];
}

/**
 * Parses the agent's configuration once at start-up. Every problem is listed in one `ConfigError`
 * naming the variable; the result is frozen.
 */
export function loadAgentConfig(
  source: Record<string, string | undefined> = process.env,
  host: string = hostname(),
): AgentConfig {
  const e = parseEnv(AgentEnv, source);
  return Object.freeze({
    tenant: e.AGENT_TENANT,
    hostKey: e.AGENT_HOST_KEY ?? hostKeyFromHostname(host),
    intervalSeconds: e.AGENT_INTERVAL_S,
    procRoot: e.AGENT_PROC_ROOT,
    natsUrl: e.NATS_URL,
    logLevel: e.LOG_LEVEL,
  });
}
