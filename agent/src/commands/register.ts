import { dirname, join } from 'node:path';
import { AgentRegisterData, type AgentRegisterRequest } from '@flightdeck/schemas/api/agent';
import type { ServerPlatform } from '@flightdeck/schemas/api/servers';
import { ErrorEnvelope, okEnvelope } from '@flightdeck/schemas/envelope';
import { agentPaths, configFilePath } from '../config';
import { AgentConfigFile, readConfigFile, writeConfigFile } from '../config-file';
import { isAgentProcess, readPidFile } from '../lock';
import { machineIdFiles, readMachineId } from '../machine-id';
import { type CliContext, CliError, fetchFailure, parseCommandArgs, UsageError } from './context';

const REGISTER_TIMEOUT_MS = 15_000;

/** The api's base URL as the user typed it, checked and without a trailing slash, query or fragment. */
export function apiBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(
      `--url: expected the api address, such as https://flightdeck.example.com (got "${value}")`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`--url: expected an http:// or https:// address (got "${value}")`);
  }
  url.search = '';
  url.hash = '';
  return url.toString().replace(/\/+$/, '');
}

function serverPlatform(platform: NodeJS.Platform): ServerPlatform {
  if (platform === 'win32') return 'windows';
  return platform === 'linux' || platform === 'darwin' ? platform : 'other';
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat === '' ? 'an empty body' : `"${flat.slice(0, 120)}${flat.length > 120 ? '...' : ''}"`;
}

/** Calls `POST /api/agent/register`; every way it can fail becomes a {@link CliError} saying what to check. */
async function callRegister(
  apiUrl: string,
  key: string,
  body: AgentRegisterRequest,
): Promise<AgentRegisterData> {
  const endpoint = `${apiUrl}/api/agent/register`;
  let res: Response;
  try {
    res = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(REGISTER_TIMEOUT_MS),
    });
  } catch (err) {
    throw new CliError(
      `Could not reach ${apiUrl}: ${fetchFailure(err, REGISTER_TIMEOUT_MS)}. Check the address and that this host can reach it.`,
    );
  }
  const text = await res.text().catch(() => '');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const notFlightdeck = () =>
    new CliError(
      `${apiUrl} does not look like a Flightdeck api: POST /api/agent/register answered ${res.status} ${res.statusText} with ${snippet(text)}. Check the address (the one the console is served from).`,
    );
  if (res.ok) {
    const parsed = okEnvelope(AgentRegisterData).safeParse(json);
    if (!parsed.success) throw notFlightdeck();
    return parsed.data.data;
  }
  const error = ErrorEnvelope.safeParse(json);
  if (!error.success) throw notFlightdeck();
  if (res.status === 401 || res.status === 403) {
    throw new CliError(
      `The access key was refused by ${apiUrl}: check the key on the Deploy page (${error.data.message})`,
    );
  }
  if (res.status === 404) {
    throw new CliError(
      `The Flightdeck api at ${apiUrl} does not know agent registration (404): update it, or check the address.`,
    );
  }
  throw new CliError(
    `The api at ${apiUrl} did not register this host (${res.status} ${error.data.code}): ${error.data.message}`,
  );
}

/**
 * `register --url --key [--nats] [--interval] [--config]`: registers this system with the api and
 * writes the config file, replacing an earlier one (a re-install keeps its host key: the api knows
 * the machine).
 */
export async function registerCommand(args: readonly string[], ctx: CliContext): Promise<number> {
  const values = parseCommandArgs('register', args, {
    url: { type: 'string' },
    key: { type: 'string' },
    nats: { type: 'string' },
    interval: { type: 'string' },
    config: { type: 'string' },
  });
  if (!values.url) throw new UsageError('register: --url <api address> is required');
  if (!values.key) throw new UsageError('register: --key <access key> is required');
  const apiUrl = apiBaseUrl(values.url);
  let interval: number | undefined;
  if (values.interval !== undefined) {
    interval = Number(values.interval);
    if (!Number.isInteger(interval) || interval < 1) {
      throw new UsageError(`--interval: expected whole seconds, at least 1 (got "${values.interval}")`);
    }
  }
  if (values.nats !== undefined && !AgentConfigFile.shape.nats_url.safeParse(values.nats).success) {
    throw new UsageError(`--nats: expected a nats:// or tls:// address (got "${values.nats}")`);
  }

  const { file } = configFilePath(values.config, ctx.env, ctx.host);
  let replaced = false;
  try {
    replaced = readConfigFile(file) !== undefined;
  } catch {
    replaced = true; // a broken file is replaced too
  }
  const paths = agentPaths(ctx.env, undefined, ctx.host);
  const machine = readMachineId({
    files: ctx.machineIdFiles ?? (ctx.host.platform === 'win32' ? [] : machineIdFiles(paths.hostRoot)),
    platform: ctx.host.platform,
    ...(ctx.windowsMachineGuid ? { windowsMachineGuid: ctx.windowsMachineGuid } : {}),
    fallbackFile: join(dirname(file), 'machine-id'),
    hostname: ctx.hostname,
  });

  const data = await callRegister(apiUrl, values.key, {
    machine_id: machine.id,
    hostname: ctx.hostname.slice(0, 255) || 'unknown-host',
    platform: serverPlatform(ctx.host.platform),
  });
  const natsUrl = values.nats ?? data.nats_url;
  const parsed = AgentConfigFile.safeParse({
    v: 1,
    api_url: apiUrl,
    access_key: values.key,
    tenant: data.tenant,
    host_key: data.host_key,
    install_id: data.install_id,
    interval_s: interval ?? data.interval_s,
    ...(natsUrl ? { nats_url: natsUrl } : {}),
    registered_at: new Date(ctx.now()).toISOString(),
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CliError(
      `The api at ${apiUrl} answered a registration this agent cannot use (${issue?.path.join('.')}: ${issue?.message}).`,
    );
  }
  try {
    writeConfigFile(file, parsed.data);
  } catch (err) {
    throw new CliError(
      `Registered, but the config file could not be written: ${file}: ${(err as Error).message}. Run as root (sudo), or choose another file with --config.`,
    );
  }

  const config = parsed.data;
  ctx.out(
    [
      `Registered this host with ${apiUrl} as "${config.host_key}" (tenant ${config.tenant}, install ${config.install_id}).`,
      `Config ${replaced ? 'replaced' : 'written'}: ${file}`,
      `Publishes to: ${config.nats_url ? `NATS ${config.nats_url}, then the api's HTTP ingest` : "the api's HTTP ingest"}, every ${config.interval_s} s.`,
      '',
    ].join('\n'),
  );
  const pid = readPidFile(agentPaths(ctx.env, config, ctx.host).stateDir);
  if (pid !== undefined && pid !== process.pid && isAgentProcess(pid)) {
    ctx.out(`The agent running as pid ${pid} still uses the previous config: restart it.\n`);
  } else {
    ctx.out('Start the agent with: flightdeck-agent run\n');
  }
  return 0;
}
