import { homedir, hostname, tmpdir } from 'node:os';
import { dirname, isAbsolute, join, resolve, win32 } from 'node:path';
import { hostKeyFromHostname } from '@flightdeck/schemas/api/agent';
import { ConfigError, env, parseEnv } from '@flightdeck/schemas/config';
import { SubjectToken } from '@flightdeck/schemas/wire';
import { z } from 'zod';
import { type AgentConfigFile, configFileAsEnv } from './config-file';

export { hostKeyFromHostname };

const absolutePath = z.string().refine((p) => isAbsolute(p), 'expected an absolute path');

/** The agent's environment variables (README). Only this module reads `process.env`. */
export const AgentEnv = z.object({
  AGENT_TENANT: SubjectToken,
  AGENT_HOST_KEY: SubjectToken.optional(),
  AGENT_INTERVAL_S: env.int(10, 1),
  AGENT_PROC_ROOT: z.string().startsWith('/', 'expected an absolute path').default('/proc'),
  /**
   * The host's root file system (`etc/os-release`, `etc/passwd`, the mounts' statfs): `/rootfs` in
   * the agent container. Default the parent of AGENT_PROC_ROOT.
   */
  AGENT_HOST_ROOT: z.string().startsWith('/', 'expected an absolute path').optional(),
  NATS_URL: env.url(['nats', 'tls', 'ws', 'wss']).optional(),
  /** Base URL of the api; batches go to `<url>/api/ingest` (alone, or as the fallback of NATS). */
  AGENT_INGEST_URL: env.url(['http', 'https']).optional(),
  /** The agent access key the api gave for this customer (`Authorization: Bearer`). */
  AGENT_ACCESS_KEY: z.string().min(8, 'expected the agent access key').max(512).optional(),
  /** Pid file, status file and (by default) the spool. */
  AGENT_STATE_DIR: absolutePath.optional(),
  AGENT_SPOOL_DIR: absolutePath.optional(),
  AGENT_SPOOL_MAX_MB: env.int(100, 1),
  LOG_LEVEL: env.logLevel(),
});

/** Where the config file is when neither `--config` nor AGENT_CONFIG names one. */
const AgentConfigPathEnv = z.object({ AGENT_CONFIG: z.string().min(1).optional() });

/** What decides the default paths: the platform, and whether the agent runs as root (a service). */
export interface HostKind {
  platform: NodeJS.Platform;
  isRoot: boolean;
}

export function currentHostKind(): HostKind {
  return { platform: process.platform, isRoot: process.getuid?.() === 0 };
}

function programData(source: Record<string, string | undefined>): string {
  return source.ProgramData || source.PROGRAMDATA || 'C:\\ProgramData';
}

/**
 * The config file's default place: `%ProgramData%\Flightdeck\agent.json` on Windows,
 * `/etc/flightdeck-agent/agent.json` for root, else `~/.config/flightdeck-agent/agent.json`.
 */
export function defaultConfigFile(
  source: Record<string, string | undefined> = process.env,
  host: HostKind = currentHostKind(),
): string {
  if (host.platform === 'win32') return win32.join(programData(source), 'Flightdeck', 'agent.json');
  if (host.isRoot) return '/etc/flightdeck-agent/agent.json';
  const configHome = source.XDG_CONFIG_HOME || join(source.HOME || homedir(), '.config');
  return join(configHome, 'flightdeck-agent', 'agent.json');
}

/**
 * The config file to use: `--config`, else AGENT_CONFIG, else the default. `explicit` when the
 * `--config` flag named it: then a missing file is an error; otherwise the agent may be configured
 * by environment variables alone (AGENT_CONFIG only says where a registration is kept, as in the
 * container image).
 */
export function configFilePath(
  flag: string | undefined,
  source: Record<string, string | undefined> = process.env,
  host: HostKind = currentHostKind(),
): { file: string; explicit: boolean } {
  if (flag) return { file: resolve(flag), explicit: true };
  const named = parseEnv(AgentConfigPathEnv, source).AGENT_CONFIG;
  return { file: named ? resolve(named) : defaultConfigFile(source, host), explicit: false };
}

/**
 * Where the pid file, the status file and the spool live when AGENT_STATE_DIR is not set:
 * `/var/lib/flightdeck-agent` for an agent run as root (a service), `%ProgramData%\Flightdeck\state`
 * on Windows, else under the temporary directory of the user.
 */
export function defaultStateDir(
  host: HostKind = currentHostKind(),
  source: Record<string, string | undefined> = process.env,
): string {
  if (host.platform === 'win32') return win32.join(programData(source), 'Flightdeck', 'state');
  return host.isRoot ? '/var/lib/flightdeck-agent' : join(tmpdir(), 'flightdeck-agent');
}

/** The spool's default place: `spool` in the default state directory. */
export function defaultSpoolDir(isRoot = process.getuid?.() === 0): string {
  return join(defaultStateDir({ platform: process.platform, isRoot }), 'spool');
}

export interface AgentConfig {
  readonly tenant: string;
  readonly hostKey: string;
  readonly intervalSeconds: number;
  readonly procRoot: string;
  /** The host's root file system as this process sees it (`/`, or `/rootfs` in a container). */
  readonly hostRoot: string;
  /** Absent: no NATS; the transport is chosen by the caller. */
  readonly natsUrl: string | undefined;
  /** HTTP ingest: with `natsUrl` it is the fallback, alone it is the transport. */
  readonly ingest: { readonly url: string; readonly accessKey: string } | undefined;
  /** Pid file and status file. */
  readonly stateDir: string;
  readonly spool: { readonly dir: string; readonly maxBytes: number };
  readonly logLevel: z.infer<typeof AgentEnv>['LOG_LEVEL'];
}

/** Variables that are set to something: an empty variable does not hide the file's value. */
function setVariables(source: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(source).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== ''),
  );
}

/**
 * Parses the agent's configuration once at start-up: the config file's values (when there is one)
 * with the environment variables over them. Every problem is listed in one `ConfigError` naming the
 * variable; the result is frozen. The agent needs somewhere to publish: NATS_URL, or
 * AGENT_INGEST_URL with AGENT_ACCESS_KEY, or both (NATS first, HTTP as the fallback).
 */
export function loadAgentConfig(
  source: Record<string, string | undefined> = process.env,
  host: string = hostname(),
  file?: AgentConfigFile,
  kind: HostKind = currentHostKind(),
): AgentConfig {
  const e = parseEnv(AgentEnv, { ...(file ? configFileAsEnv(file) : {}), ...setVariables(source) });
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
  const stateDir = e.AGENT_STATE_DIR ?? defaultStateDir(kind, source);
  return Object.freeze({
    tenant: e.AGENT_TENANT,
    hostKey: e.AGENT_HOST_KEY ?? hostKeyFromHostname(host),
    intervalSeconds: e.AGENT_INTERVAL_S,
    procRoot: e.AGENT_PROC_ROOT,
    hostRoot: e.AGENT_HOST_ROOT ?? dirname(e.AGENT_PROC_ROOT),
    natsUrl: e.NATS_URL,
    ingest:
      e.AGENT_INGEST_URL && e.AGENT_ACCESS_KEY
        ? Object.freeze({ url: e.AGENT_INGEST_URL, accessKey: e.AGENT_ACCESS_KEY })
        : undefined,
    stateDir,
    spool: Object.freeze({
      dir: e.AGENT_SPOOL_DIR ?? join(stateDir, 'spool'),
      maxBytes: e.AGENT_SPOOL_MAX_MB * 1024 * 1024,
    }),
    logLevel: e.LOG_LEVEL,
  });
}

/**
 * The state directory and host root as far as they can be known without a complete configuration
 * (`status` of a host not registered yet, `register` before there is a file): the environment over
 * the file over the defaults. Values that do not parse fall back to the defaults here; `run`
 * reports them.
 */
export function agentPaths(
  source: Record<string, string | undefined> = process.env,
  file?: AgentConfigFile,
  kind: HostKind = currentHostKind(),
): { stateDir: string; procRoot: string; hostRoot: string } {
  const pick = <T>(schema: z.ZodType<T>, value: unknown): T | undefined => {
    const parsed = schema.safeParse(value);
    return parsed.success ? parsed.data : undefined;
  };
  const vars = { ...(file ? configFileAsEnv(file) : {}), ...setVariables(source) };
  const procRoot = pick(AgentEnv.shape.AGENT_PROC_ROOT, vars.AGENT_PROC_ROOT) ?? '/proc';
  return {
    stateDir: pick(absolutePath, vars.AGENT_STATE_DIR) ?? defaultStateDir(kind, source),
    procRoot,
    hostRoot: pick(AgentEnv.shape.AGENT_HOST_ROOT, vars.AGENT_HOST_ROOT) ?? dirname(procRoot),
  };
}
