import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute } from 'node:path';
import { ConfigError, env } from '@flightdeck/schemas/config';
import { SubjectToken } from '@flightdeck/schemas/wire';
import { z } from 'zod';

const absolutePath = z.string().refine((p) => isAbsolute(p), 'expected an absolute path');
const procPath = z.string().startsWith('/', 'expected an absolute path');

/**
 * The agent's config file (JSON), written by `flightdeck-agent register` from the api's answer and
 * read by `run` and `status`. Environment variables override each value (README). The optional
 * fields are local settings an operator may add by hand; registering again overwrites the file.
 */
export const AgentConfigFile = z
  .object({
    v: z.literal(1),
    /** Base URL of the api: registration, HTTP ingest (alone or after NATS) and `status`. */
    api_url: env.url(['http', 'https']),
    /** The agent access key (`Authorization: Bearer`); the file is readable by its owner only. */
    access_key: z.string().min(8, 'expected the agent access key').max(512),
    tenant: SubjectToken,
    host_key: SubjectToken,
    install_id: z.number().int().positive(),
    interval_s: z.number().int().min(1, 'expected at least 1'),
    nats_url: env.url(['nats', 'tls', 'ws', 'wss']).optional(),
    registered_at: z.iso.datetime({ offset: true }),
    proc_root: procPath.optional(),
    host_root: procPath.optional(),
    state_dir: absolutePath.optional(),
    spool_dir: absolutePath.optional(),
    spool_max_mb: z.number().int().min(1, 'expected at least 1').optional(),
    log_level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  })
  .strict();
export type AgentConfigFile = z.infer<typeof AgentConfigFile>;

function problemsOf(file: string, error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return `${file}: unknown field ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
    }
    const field = issue.path.map(String).join('.');
    return `${file}: ${field ? `${field}: ` : ''}${issue.message}`;
  });
}

/**
 * Reads and checks the config file. Undefined when there is none; a file that cannot be read, is
 * not JSON or does not fit throws `ConfigError` naming the file and each field.
 */
export function readConfigFile(file: string): AgentConfigFile | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigError([`${file}: cannot be read: ${(err as Error).message}`]);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new ConfigError([`${file}: not valid JSON: ${(err as Error).message}`]);
  }
  const parsed = AgentConfigFile.safeParse(value);
  if (!parsed.success) throw new ConfigError(problemsOf(file, parsed.error));
  return parsed.data;
}

/**
 * Writes the config file readable by its owner only (0600; it holds the access key), replacing any
 * earlier one in one rename, so a reader never sees half a file. Creates the folder when missing.
 */
export function writeConfigFile(file: string, value: AgentConfigFile): void {
  const checked = AgentConfigFile.parse(value);
  mkdirSync(dirname(file), { recursive: true, mode: 0o755 });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(checked, null, 2)}\n`, { mode: 0o600 });
  // The mode given on creation is reduced by the umask; the rename keeps what chmod sets here.
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
}

/** The file's values under the names of the environment variables they stand for. */
export function configFileAsEnv(file: AgentConfigFile): Record<string, string> {
  const out: Record<string, string | undefined> = {
    AGENT_TENANT: file.tenant,
    AGENT_HOST_KEY: file.host_key,
    AGENT_INTERVAL_S: String(file.interval_s),
    AGENT_INGEST_URL: file.api_url,
    AGENT_ACCESS_KEY: file.access_key,
    NATS_URL: file.nats_url,
    AGENT_PROC_ROOT: file.proc_root,
    AGENT_HOST_ROOT: file.host_root,
    AGENT_STATE_DIR: file.state_dir,
    AGENT_SPOOL_DIR: file.spool_dir,
    AGENT_SPOOL_MAX_MB: file.spool_max_mb === undefined ? undefined : String(file.spool_max_mb),
    LOG_LEVEL: file.log_level,
  };
  return Object.fromEntries(Object.entries(out).filter((e): e is [string, string] => e[1] !== undefined));
}
