import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type OwnNatsServer, startOwnNatsServer } from '@flightdeck/collector/testing';
import type { ServerSummary } from '@flightdeck/schemas';
import { freePort, repoRoot } from './product-process';

/**
 * The at-scale shape of the product on one machine, each part its own process as in production: a
 * private NATS server with JetStream, the stand-alone collector, the stand-alone api and a host
 * agent publishing over NATS. The collector writes the SQLite metric store the api reads. Used by
 * the pipeline integration test and the sample-to-chart benchmark.
 */
export interface Pipeline {
  readonly apiUrl: string;
  readonly nats: OwnNatsServer;
  /** Bearer token of the administrator's session. */
  readonly token: string;
  /** The host key the agent publishes under, and the id of its server. */
  readonly hostKey: string;
  readonly serverId: number;
  readonly processes: Record<PipelinePart, PartProcess>;
  /** `POST /api/<path>` with the session; resolves with the envelope's data, throws otherwise. */
  call<T>(path: string, body: unknown): Promise<T>;
  /** Stops every part (agent first, NATS last) and removes the data directory. */
  stop(): Promise<void>;
}

export type PipelinePart = 'collector' | 'api' | 'agent';

export interface PartProcess {
  readonly child: ChildProcess;
  /** The last lines the process wrote, for failure messages. */
  output(): string;
  /** SIGTERM, SIGKILL after 15 s; resolves with the exit code. */
  stop(): Promise<number | null>;
  /** Starts the part again with the same environment (after `stop`). */
  restart(): Promise<void>;
}

export interface PipelineOptions {
  /** Agent sampling interval in seconds (default 1). */
  agentIntervalS?: number;
  /** Extra environment for every part. */
  env?: Record<string, string>;
}

const ADMIN = { email: 'pipeline@flightdeck.test', password: 'pipeline-password-1' };

/** Entry points of the stand-alone processes, run from the sources. */
const ENTRIES: Record<PipelinePart, string[]> = {
  collector: ['collector/src/main.ts'],
  api: ['api/src/main.ts'],
  agent: ['agent/src/cli.ts', 'run'],
};

function startPart(name: PipelinePart, env: NodeJS.ProcessEnv): PartProcess {
  let tail = '';
  let child: ChildProcess;
  let exited: Promise<number | null>;
  const spawnIt = () => {
    child = spawn(process.execPath, ['--import', 'tsx', ...ENTRIES[name]], {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (chunk: Buffer) => {
      tail = (tail + chunk.toString()).slice(-6000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  };
  spawnIt();
  const part: PartProcess = {
    get child() {
      return child;
    },
    output: () => `--- ${name} ---\n${tail}`,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
    async restart() {
      if (child.exitCode === null && child.signalCode === null) await part.stop();
      spawnIt();
    },
  };
  return part;
}

async function waitFor<T>(
  what: string,
  fn: () => Promise<T | undefined>,
  timeoutMs: number,
  parts: PartProcess[],
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const dead = parts.find((p) => p.child.exitCode !== null);
    if (dead) throw new Error(`a part exited while waiting for ${what}:\n${dead.output()}`);
    try {
      const value = await fn();
      if (value !== undefined) return value;
    } catch {
      // not there yet
    }
    if (Date.now() > deadline) {
      throw new Error(
        `${what} did not happen within ${timeoutMs} ms\n${parts.map((p) => p.output()).join('\n')}`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Starts NATS, collector, api and agent, signs in, and waits until the agent's host is registered. */
export async function startPipeline(options: PipelineOptions = {}): Promise<Pipeline> {
  const dir = mkdtempSync(join(tmpdir(), 'fd-pipeline-'));
  const nats = await startOwnNatsServer();
  const apiPort = await freePort();
  const hostKey = `pipeline-${process.pid}`;
  const common: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    LOG_LEVEL: 'warn',
    NATS_URL: nats.url,
    METRICS_STORE: join(dir, 'metrics.db'),
    ...options.env,
  };
  const parts: PartProcess[] = [];
  try {
    const collector = startPart('collector', common);
    parts.push(collector);
    const api = startPart('api', {
      ...common,
      PORT: String(apiPort),
      DATA_DIR: dir,
      FLIGHTDECK_ADMIN_EMAIL: ADMIN.email,
      FLIGHTDECK_ADMIN_PASSWORD: ADMIN.password,
    });
    parts.push(api);
    const apiUrl = `http://127.0.0.1:${apiPort}`;
    const token = await waitFor(
      'the api to sign the administrator in',
      async () => {
        const res = await fetch(`${apiUrl}/api/signin`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(ADMIN),
        });
        if (res.status !== 200) return undefined;
        return ((await res.json()) as { data: { token: string } }).data.token;
      },
      60_000,
      parts,
    );
    const call = async <T>(path: string, body: unknown): Promise<T> => {
      const res = await fetch(`${apiUrl}/api/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
      const json = (await res.json()) as { status: string; data?: T; message?: string };
      if (res.status !== 200 || json.status !== 'ok') {
        throw new Error(`${path} answered ${res.status}: ${json.message ?? JSON.stringify(json)}`);
      }
      return json.data as T;
    };
    // The administrator's customer is the tenant the agent publishes for (the first customer).
    const agent = startPart('agent', {
      ...common,
      AGENT_TENANT: '1',
      AGENT_HOST_KEY: hostKey,
      AGENT_INTERVAL_S: String(options.agentIntervalS ?? 1),
      AGENT_SPOOL_DIR: join(dir, 'spool'),
      AGENT_STATE_DIR: join(dir, 'agent-state'),
    });
    parts.push(agent);
    const server = await waitFor(
      'the agent host in /bot/servers/list',
      async () => {
        const list = await call<ServerSummary[]>('bot/servers/list', {});
        return list.find((s) => s.host_key === hostKey);
      },
      60_000,
      parts,
    );
    return {
      apiUrl,
      nats,
      serverId: server.id,
      token,
      hostKey,
      processes: { collector, api, agent },
      call,
      async stop() {
        await agent.stop();
        await api.stop();
        await collector.stop();
        await nats.dispose();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    for (const p of parts.reverse()) await p.stop();
    await nats.dispose();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

export interface ChartAnswer {
  x_values: number[];
  y_values: Record<string, (number | null)[]>;
  y_axis: string[];
}

/** The newest x (unix seconds) of a chart answer that has a value in any field, or undefined. */
export function newestPoint(chart: ChartAnswer): number | undefined {
  for (let i = chart.x_values.length - 1; i >= 0; i--) {
    for (const field of chart.y_axis) {
      const v = chart.y_values[field]?.[i];
      if (v !== null && v !== undefined) return chart.x_values[i];
    }
  }
  return undefined;
}
