import { HealthData } from '@flightdeck/schemas/api/health';
import { ConfigError } from '@flightdeck/schemas/config';
import { okEnvelope } from '@flightdeck/schemas/envelope';
import { PRODUCT_VERSION } from '@flightdeck/schemas/version';
import { type AgentConfig, agentPaths, configFilePath, loadAgentConfig } from '../config';
import { type AgentConfigFile, readConfigFile } from '../config-file';
import { isAgentProcess, readPidFile } from '../lock';
import { readStatusFile } from '../status-file';
import { type CliContext, fetchFailure, parseCommandArgs } from './context';

const HEALTH_TIMEOUT_MS = 3_000;

/** What `status --json` prints. Times are unix milliseconds. */
export interface AgentStatusReport {
  version: string;
  config_file: string;
  /** A file exists at `config_file` (valid or not). */
  config_file_found: boolean;
  /** A config file written by `register` was found and is valid. */
  registered: boolean;
  /** Where the running configuration comes from; null when there is none that works. */
  configured_by: 'file' | 'environment' | null;
  /** Why the configuration does not work (a broken file, a missing variable). */
  config_problems: string[];
  api_url: string | null;
  tenant: string | null;
  host_key: string | null;
  install_id: number | null;
  nats_url: string | null;
  state_dir: string;
  running: boolean;
  pid: number | null;
  last_run_at: number | null;
  last_run_age_s: number | null;
  /** Batches since the agent started that a transport took or the spool kept. */
  published: number | null;
  failed: number | null;
  spool_depth: number | null;
  spool_dropped: number | null;
  status_problem: string | null;
  api: { reachable: boolean; status?: string; version?: string; error?: string } | null;
}

async function checkApi(apiUrl: string): Promise<NonNullable<AgentStatusReport['api']>> {
  try {
    const res = await fetch(`${apiUrl}/api/health`, { signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS) });
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    // 503 carries the same body when a component is down.
    const parsed = okEnvelope(HealthData).safeParse(json);
    if (!parsed.success) {
      return { reachable: true, error: `answered ${res.status} but not as a Flightdeck api` };
    }
    return { reachable: true, status: parsed.data.data.status, version: parsed.data.data.version };
  } catch (err) {
    return { reachable: false, error: fetchFailure(err, HEALTH_TIMEOUT_MS) };
  }
}

function age(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  return `${Math.round(s / 3600)} h`;
}

function describe(r: AgentStatusReport): string {
  const lines = [`Flightdeck agent ${r.version}`];
  const row = (name: string, value: string) => lines.push(`${`${name}:`.padEnd(13)}${value}`);
  if (r.registered) row('Registered', `yes (${r.config_file}, install ${r.install_id})`);
  else if (r.config_file_found) row('Registered', `no: ${r.config_file} is broken`);
  else if (r.configured_by === 'environment')
    row('Registered', 'no config file; configured by environment variables');
  else {
    row('Registered', `no: ${r.config_file} not found`);
    row('Register', 'flightdeck-agent register --url <api address> --key <access key>');
  }
  for (const p of r.config_problems) row('Problem', p);
  if (r.tenant) row('Host', `${r.host_key} (tenant ${r.tenant})`);
  row('API', r.api_url ?? 'none');
  if (r.api) {
    row(
      'API answers',
      r.api.status
        ? `yes (${r.api.status}, version ${r.api.version})`
        : `${r.api.reachable ? 'yes, but' : 'no:'} ${r.api.error}`,
    );
  }
  row('NATS', r.nats_url ?? (r.configured_by ? "not used (the api's HTTP ingest)" : 'none'));
  row('Agent', r.running ? `running (pid ${r.pid})` : 'not running');
  if (r.last_run_at !== null && r.last_run_age_s !== null) {
    row(
      'Last run',
      `${age(r.last_run_age_s * 1000)} ago; since start ${r.published} batches sent or spooled, ${r.failed} failed`,
    );
  } else if (r.running) {
    row('Last run', 'none yet');
  }
  if (r.spool_depth !== null) row('Spool', `${r.spool_depth} batches waiting, ${r.spool_dropped} dropped`);
  if (r.status_problem) row('Problem', r.status_problem);
  row('State dir', r.state_dir);
  return `${lines.join('\n')}\n`;
}

/**
 * `status [--config] [--json]`: whether this host is registered, whether the agent runs, its last
 * run and spool, and whether the api answers. Exit 0 only when configured and running.
 */
export async function statusCommand(args: readonly string[], ctx: CliContext): Promise<number> {
  const values = parseCommandArgs('status', args, {
    config: { type: 'string' },
    json: { type: 'boolean' },
  });
  const { file } = configFilePath(values.config, ctx.env, ctx.host);
  const problems: string[] = [];
  let fileValue: AgentConfigFile | undefined;
  let fileFound = false;
  try {
    fileValue = readConfigFile(file);
    fileFound = fileValue !== undefined;
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    fileFound = true;
    problems.push(...err.problems);
  }
  let config: AgentConfig | undefined;
  if (problems.length === 0) {
    try {
      config = loadAgentConfig(ctx.env, ctx.hostname, fileValue, ctx.host);
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      // Without a file and without variables there is nothing to report but "not registered".
      if (fileValue) problems.push(...err.problems);
    }
  }
  const stateDir = config?.stateDir ?? agentPaths(ctx.env, fileValue, ctx.host).stateDir;
  const pid = readPidFile(stateDir);
  const running = pid !== undefined && (pid === process.pid || isAgentProcess(pid));
  const status = readStatusFile(stateDir);
  const last = status && !('problem' in status) ? status : undefined;
  const apiUrl = config?.ingest?.url ?? fileValue?.api_url ?? null;
  const now = ctx.now();

  const report: AgentStatusReport = {
    version: PRODUCT_VERSION,
    config_file: file,
    config_file_found: fileFound,
    registered: fileValue !== undefined && problems.length === 0,
    configured_by: config ? (fileValue ? 'file' : 'environment') : null,
    config_problems: problems,
    api_url: apiUrl,
    tenant: config?.tenant ?? fileValue?.tenant ?? null,
    host_key: config?.hostKey ?? fileValue?.host_key ?? null,
    install_id: fileValue?.install_id ?? null,
    nats_url: config?.natsUrl ?? fileValue?.nats_url ?? null,
    state_dir: stateDir,
    running,
    pid: running ? (pid ?? null) : null,
    last_run_at: last?.last_run_at ?? null,
    last_run_age_s: last?.last_run_at != null ? Math.round((now - last.last_run_at) / 1000) : null,
    published: last?.published ?? null,
    failed: last?.failed ?? null,
    spool_depth: last?.spool_depth ?? null,
    spool_dropped: last?.spool_dropped ?? null,
    status_problem: status && 'problem' in status ? status.problem : null,
    api: apiUrl ? await checkApi(apiUrl) : null,
  };
  ctx.out(values.json ? `${JSON.stringify(report, null, 2)}\n` : describe(report));
  return report.configured_by !== null && report.running ? 0 : 1;
}
