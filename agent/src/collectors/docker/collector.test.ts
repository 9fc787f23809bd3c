import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { metricByName } from '@flightdeck/schemas';
import { afterEach, describe, expect, it } from 'vitest';
import { recordingLogger, sampleValue } from '../../testing/support';
import type { SampleLike } from '../contract';
import { detectDockerCollector, dockerCollector } from './collector';

const FIXTURES = join(import.meta.dirname, 'fixtures');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');

/** Short ids of the containers of the recorded engine (see fixtures/README.md). */
const NAMES: Record<string, string> = {
  f7ad67ec0319: 'web',
  '9b2ac6784530': 'api',
  '56601a3620fb': 'flaky',
  c34b30921d67: 'migrate',
};

type Reply = { status?: number; body: string } | 'hang';
interface Call {
  kind: 'list' | 'stats' | 'inspect' | 'other';
  name?: string;
  path: string;
}

/** A real HTTP server on a unix socket in a temporary folder, answering like the Docker Engine. */
async function engine(route: (call: Call) => Reply) {
  const dir = await mkdtemp(join(tmpdir(), 'fd-docker-'));
  const socketPath = join(dir, 'docker.sock');
  const calls: Call[] = [];
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '';
    const m = /^\/v1\.41\/containers\/([0-9a-f]{12})[0-9a-f]*\/(stats|json)/.exec(path);
    const call: Call = m
      ? { kind: m[2] === 'stats' ? 'stats' : 'inspect', name: NAMES[m[1] as string] ?? m[1], path }
      : path === '/v1.41/containers/json?all=1'
        ? { kind: 'list', path }
        : { kind: 'other', path };
    calls.push(call);
    const reply = route(call);
    if (reply === 'hang') return; // never answers
    res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', 'api-version': '1.41' });
    res.end(reply.body);
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  const close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await rm(dir, { recursive: true, force: true });
  };
  cleanups.push(close);
  return { socketPath, calls, dir };
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/** The recorded engine: `run` 1 or 2 picks the list and the stats of the first or the second reading. */
function recorded(state: { run: 1 | 2; statsVariant?: 'v1' | 'v2' }) {
  return (call: Call): Reply => {
    if (call.kind === 'list') return { body: fixture(`containers-${state.run}.jsonl`) };
    if (call.kind === 'inspect') return { body: fixture(`inspect-${call.name}.jsonl`) };
    if (call.kind === 'stats') {
      const variant = call.name === 'api' ? (state.statsVariant ?? 'v1') : 'v1';
      return { body: fixture(`stats-${variant}-${call.name}-${state.run}.jsonl`) };
    }
    return { status: 404, body: fixture('not-found.jsonl') };
  };
}

const T0 = 1_795_277_851_000;
const web = { container: 'web', image: 'busybox:1.35' };
const api = { container: 'api', image: 'registry.example.com/shop/api:2.3.1' };

function ctx(now: number, logger = recordingLogger().logger) {
  return { procRoot: '/proc', now, logger };
}

function expectCatalogued(samples: readonly SampleLike[]) {
  for (const s of samples) {
    const def = metricByName(s.m);
    expect(def, s.m).toBeDefined();
    for (const key of Object.keys(s.l ?? {})) expect(def?.labels ?? [], `${s.m}{${key}}`).toContain(key);
  }
}

describe('dockerCollector', () => {
  it('reports states, memory and restarts on the first run and CPU and network rates from the second', async () => {
    const state: { run: 1 | 2 } = { run: 1 };
    const { socketPath, calls } = await engine(recorded(state));
    const { logger, warnings } = recordingLogger();
    const docker = dockerCollector({ socketPath });

    const first = await docker.collect(ctx(T0, logger));
    expect(sampleValue(first, 'docker.containers', { state: 'running' })).toBe(2);
    expect(sampleValue(first, 'docker.containers', { state: 'restarting' })).toBe(1);
    expect(sampleValue(first, 'docker.containers', { state: 'exited' })).toBe(1);
    expect(sampleValue(first, 'docker.containers', { state: 'dead' })).toBe(0);
    expect(sampleValue(first, 'container.running', web)).toBe(1);
    expect(sampleValue(first, 'container.running', { container: 'flaky' })).toBe(0);
    expect(sampleValue(first, 'container.running', { container: 'migrate' })).toBe(0);
    expect(sampleValue(first, 'container.restarts', { container: 'flaky' })).toBe(8);
    expect(sampleValue(first, 'container.restarts', web)).toBe(0);
    // cgroup v1: usage minus total_inactive_file, as docker stats shows it.
    expect(sampleValue(first, 'container.mem_bytes', api)).toBe(46_026_752 - 41_943_040);
    expect(sampleValue(first, 'container.mem_bytes', web)).toBe(671_744);
    // Only web has a memory limit; api's "limit" is the host's memory and is not reported.
    expect(sampleValue(first, 'container.mem_limit_bytes', web)).toBe(268_435_456);
    expect(sampleValue(first, 'container.mem_limit_bytes', api)).toBeUndefined();
    // One-shot answers carry no earlier reading: no CPU and no rates yet.
    expect(first.filter((s) => s.m === 'container.cpu_pct' || s.m.endsWith('_rate'))).toEqual([]);

    state.run = 2;
    const second = await docker.collect(ctx(T0 + 11_000, logger));
    // (Δ total_usage / Δ system_cpu_usage) × online CPUs × 100 between the two recorded readings.
    expect(sampleValue(second, 'container.cpu_pct', web)).toBeCloseTo(20.48, 2);
    expect(sampleValue(second, 'container.cpu_pct', api)).toBeCloseTo(50.21, 2);
    // Bytes over the time between the engine's two `read` stamps, taken to the millisecond.
    expect(sampleValue(second, 'container.net_rx_bytes_rate', web)).toBeCloseTo(2_658_728 / 11.052, 2);
    expect(sampleValue(second, 'container.net_tx_bytes_rate', web)).toBeCloseTo(3_264_738 / 11.052, 2);
    expect(sampleValue(second, 'container.net_rx_bytes_rate', api)).toBeCloseTo(3_179_235 / 11.051, 2);
    expect(second.filter((s) => s.l?.container === 'flaky').map((s) => s.m)).toEqual([
      'container.running',
      'container.restarts',
    ]);

    // Stopped containers get no stats call; every call went to the version the agent speaks.
    expect(calls.filter((c) => c.kind === 'stats').map((c) => c.name)).toEqual(['api', 'web', 'api', 'web']);
    expect(calls.every((c) => c.path.startsWith('/v1.41/'))).toBe(true);
    expect(calls.find((c) => c.kind === 'stats')?.path).toMatch(/\?stream=false&one-shot=true$/);
    expectCatalogued([...first, ...second]);
    expect(warnings()).toEqual([]);
  });

  it('inspects a container again only when its listed status changed', async () => {
    const state: { run: 1 | 2 } = { run: 1 };
    const { socketPath, calls } = await engine(recorded(state));
    const docker = dockerCollector({ socketPath });
    await docker.collect(ctx(T0));
    await docker.collect(ctx(T0 + 10_000));
    expect(calls.filter((c) => c.kind === 'inspect')).toHaveLength(4);
    state.run = 2; // every status moved on ("Up 33 seconds" → "Up 44 seconds")
    await docker.collect(ctx(T0 + 20_000));
    expect(calls.filter((c) => c.kind === 'inspect')).toHaveLength(8);
  });

  it('reads cgroup v2 memory (usage minus inactive_file) and CPU against its own previous reading', async () => {
    const state: { run: 1 | 2; statsVariant: 'v2' } = { run: 1, statsVariant: 'v2' };
    const { socketPath } = await engine(recorded(state));
    const docker = dockerCollector({ socketPath });
    const first = await docker.collect(ctx(T0));
    expect(sampleValue(first, 'container.mem_bytes', api)).toBe(47_368_880 - 41_943_040);
    state.run = 2;
    const second = await docker.collect(ctx(T0 + 11_000));
    expect(sampleValue(second, 'container.mem_bytes', api)).toBe(47_434_416 - 41_943_040);
    expect(sampleValue(second, 'container.cpu_pct', api)).toBeCloseTo(50.21, 2);
    expect(sampleValue(second, 'container.net_tx_bytes_rate', api)).toBeCloseTo(2_582_736 / 11.051, 2);
  });

  it('uses the earlier reading an answer without one-shot carries', async () => {
    const { socketPath } = await engine((call) => {
      if (call.kind === 'list') return { body: fixture('containers-1.jsonl') };
      if (call.kind === 'stats' && call.name === 'web') return { body: fixture('stats-v1-web-stream.jsonl') };
      if (call.kind === 'inspect') return { body: fixture(`inspect-${call.name}.jsonl`) };
      return { status: 404, body: fixture('not-found.jsonl') };
    });
    const samples = await dockerCollector({ socketPath }).collect(ctx(T0));
    expect(sampleValue(samples, 'container.cpu_pct', web)).toBeCloseTo(20.58, 2);
  });

  it('leaves out a container removed between the list and its stats (404), without a warning', async () => {
    const { socketPath } = await engine((call) => {
      if (call.name === 'web') return { status: 404, body: fixture('not-found.jsonl') };
      return recorded({ run: 1 })(call);
    });
    const { logger, warnings, lines } = recordingLogger();
    const samples = await dockerCollector({ socketPath }).collect(ctx(T0, logger));
    expect(sampleValue(samples, 'container.running', web)).toBe(1);
    expect(sampleValue(samples, 'container.mem_bytes', web)).toBeUndefined();
    expect(sampleValue(samples, 'container.mem_bytes', api)).toBeGreaterThan(0);
    expect(warnings()).toEqual([]);
    expect(lines.some((l) => /container web is gone/.test(l.msg))).toBe(true);
  });

  it('warns naming the socket and returns nothing when the engine never answers', async () => {
    const { socketPath } = await engine(() => 'hang');
    const { logger, warnings } = recordingLogger();
    const started = Date.now();
    const samples = await dockerCollector({ socketPath, requestTimeoutMs: 200 }).collect(ctx(T0, logger));
    expect(samples).toEqual([]);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]).toMatchObject({ socket: socketPath });
    expect(String(warnings()[0]?.err)).toMatch(/no answer within 200 ms/);
  });

  it('keeps the other containers when one stats call hangs, and warns naming that container', async () => {
    const { socketPath } = await engine((call) =>
      call.kind === 'stats' && call.name === 'api' ? 'hang' : recorded({ run: 1 })(call),
    );
    const { logger, warnings } = recordingLogger();
    const samples = await dockerCollector({ socketPath, requestTimeoutMs: 200 }).collect(ctx(T0, logger));
    expect(sampleValue(samples, 'container.mem_bytes', web)).toBe(671_744);
    expect(sampleValue(samples, 'container.mem_bytes', api)).toBeUndefined();
    expect(warnings().map((w) => w.container)).toEqual(['api']);
  });

  it('warns and returns nothing when the engine answers garbage, and names a container whose stats are garbage', async () => {
    const { socketPath } = await engine((call) =>
      call.kind === 'list' ? { body: '[{"Id":"f7ad67ec0319' } : recorded({ run: 1 })(call),
    );
    const { logger, warnings } = recordingLogger();
    expect(await dockerCollector({ socketPath }).collect(ctx(T0, logger))).toEqual([]);
    expect(String(warnings()[0]?.err)).toMatch(/not JSON/);

    const other = await engine((call) =>
      call.kind === 'stats' && call.name === 'web' ? { body: '{"read":' } : recorded({ run: 1 })(call),
    );
    const second = recordingLogger();
    const samples = await dockerCollector({ socketPath: other.socketPath }).collect(ctx(T0, second.logger));
    expect(sampleValue(samples, 'container.mem_bytes', api)).toBeGreaterThan(0);
    expect(second.warnings().map((w) => w.container)).toEqual(['web']);
  });

  it('counts a paused container and asks no stats of it', async () => {
    const { socketPath, calls } = await engine((call) =>
      call.kind === 'list' ? { body: fixture('containers-paused.jsonl') } : recorded({ run: 1 })(call),
    );
    const samples = await dockerCollector({ socketPath }).collect(ctx(T0));
    expect(sampleValue(samples, 'docker.containers', { state: 'paused' })).toBe(1);
    expect(sampleValue(samples, 'container.running', web)).toBe(0);
    expect(calls.filter((c) => c.kind === 'stats').map((c) => c.name)).toEqual(['api']);
  });

  it('computes a Windows container CPU over its processors and reports its private working set', async () => {
    const state = { run: 1 };
    const list = JSON.stringify([
      {
        Id: '3f0c8e1d5b7a4c2e9f6d1a8b3c5e7f9a0b2c4d6e8f1a3b5c7d9e0f2a4b6c8d0e',
        Names: ['/iis'],
        Image: 'mcr.microsoft.com/windows/servercore/iis',
        State: 'running',
        Status: 'Up 2 hours',
      },
    ]);
    const { socketPath } = await engine((call) => {
      if (call.kind === 'list') return { body: list };
      if (call.kind === 'stats') return { body: fixture(`stats-windows-iis-${state.run}.jsonl`) };
      return { body: '{"RestartCount":0,"HostConfig":{"Memory":0}}' };
    });
    const docker = dockerCollector({ socketPath });
    await docker.collect(ctx(T0));
    state.run = 2;
    const samples = await docker.collect(ctx(T0 + 10_000));
    const iis = { container: 'iis' };
    // 20,000,000 × 100 ns of CPU over 10 s × 4 processors.
    expect(sampleValue(samples, 'container.cpu_pct', iis)).toBe(5);
    expect(sampleValue(samples, 'container.mem_bytes', iis)).toBe(90_177_536);
    expect(sampleValue(samples, 'container.net_rx_bytes_rate', iis)).toBe(100_000);
  });
});

describe('detectDockerCollector', () => {
  it('registers nothing and says so at info when there is no socket', () => {
    const { logger, lines, warnings } = recordingLogger();
    const missing = join(tmpdir(), 'fd-no-such-dir', 'docker.sock');
    expect(detectDockerCollector({ socketPath: missing, logger, platform: 'linux' })).toBeUndefined();
    expect(warnings()).toEqual([]);
    expect(lines.find((l) => l.level === 30)?.socket).toBe(missing);
  });

  it('registers nothing for a path that is not a socket, and nothing when turned off', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fd-docker-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const file = join(dir, 'docker.sock');
    await writeFile(file, '');
    const { logger, warnings } = recordingLogger();
    expect(detectDockerCollector({ socketPath: file, logger, platform: 'linux' })).toBeUndefined();
    expect(warnings()).toHaveLength(1);
    expect(detectDockerCollector({ socketPath: false })).toBeUndefined();
  });

  it('registers the collector for a socket that is there', async () => {
    const { socketPath } = await engine(recorded({ run: 1 }));
    const collector = detectDockerCollector({ socketPath, platform: 'linux' });
    expect(collector?.name).toBe('docker');
    expect(sampleValue((await collector?.collect(ctx(T0))) ?? [], 'container.running', web)).toBe(1);
  });
});
