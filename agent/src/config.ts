import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, env, parseEnv, SubjectToken } from '@flightdeck/schemas';
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
  /** Base URL of the api; batches go to `<url>/api/ingest` (alone, or as the fallback of NATS). */
  AGENT_INGEST_URL: env.url(['http', 'https']).optional(),
  /** The agent access key the api gave for this customer (`Authorization: Bearer`). */
  AGENT_ACCESS_KEY: z.string().min(8, 'expected the agent access key').max(512).optional(),
  AGENT_SPOOL_DIR: z.string().startsWith('/', 'expected an absolute path').optional(),
  AGENT_SPOOL_MAX_MB: env.int(100, 1),
  LOG_LEVEL: env.logLevel(),
});

/**
 * Where the spool lives when AGENT_SPOOL_DIR is not set: `/var/lib/flightdeck-agent/spool` for an
 * agent run as root (a service), else under the temporary directory of the user.
 */
export function defaultSpoolDir(isRoot = process.getuid?.() === 0): string {
  return isRoot ? '/var/lib/flightdeck-agent/spool' : join(tmpdir(), 'flightdeck-agent', 'spool');
}

export interface AgentConfig {
  readonly tenant: string;
  readonly hostKey: string;
  readonly intervalSeconds: number;
  readonly procRoot: string;
  /** Absent: no NATS; the transport is chosen by the caller. */
  readonly natsUrl: string | undefined;
  /** HTTP ingest: with `natsUrl` it is the fallback, alone it is the transport. */
  readonly ingest: { readonly url: string; readonly accessKey: string } | undefined;
  readonly spool: { readonly dir: string; readonly maxBytes: number };
  readonly logLevel: z.infer<typeof AgentEnv>['LOG_LEVEL'];
}

/**
 * Parses the agent's configuration once at start-up. Every problem is listed in one `ConfigError`
 * naming the variable; the result is frozen. The agent needs somewhere to publish: NATS_URL, or
 * AGENT_INGEST_URL with AGENT_ACCESS_KEY, or both (NATS first, HTTP as the fallback).
 */
export function loadAgentConfig(
  source: Record<string, string | undefined> = process.env,
  host: string = hostname(),
): AgentConfig {
  const e = parseEnv(AgentEnv, source);
  const problems: string[] = [];
  if (!e.NATS_URL && !e.AGENT_INGEST_URL) {
    problems.push(
      'NATS_URL or AGENT_INGEST_URL: the agent needs somewhere to publish: nats://host:4222 and/or the api URL (got nothing)',
    );
  }
  if (e.AGENT_INGEST_URL && !e.AGENT_ACCESS_KEY) {
    problems.push('AGENT_ACCESS_KEY: AGENT_INGEST_URL needs the agent access key (got nothing)');
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze({
    tenant: e.AGENT_TENANT,
    hostKey: e.AGENT_HOST_KEY ?? hostKeyFromHostname(host),
    intervalSeconds: e.AGENT_INTERVAL_S,
    procRoot: e.AGENT_PROC_ROOT,
    natsUrl: e.NATS_URL,
    ingest:
      e.AGENT_INGEST_URL && e.AGENT_ACCESS_KEY
        ? Object.freeze({ url: e.AGENT_INGEST_URL, accessKey: e.AGENT_ACCESS_KEY })
        : undefined,
    spool: Object.freeze({
      dir: e.AGENT_SPOOL_DIR ?? defaultSpoolDir(),
      maxBytes: e.AGENT_SPOOL_MAX_MB * 1024 * 1024,
    }),
    logLevel: e.LOG_LEVEL,
  });
}
