import { spawn } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Heartbeat, MetricBatch } from '@flightdeck/schemas/wire';
import pino, { type Logger } from 'pino';
import type { CollectContext, SampleLike } from '../collectors/contract';
import type { StatFsLike } from '../collectors/linux/filesystem';
import type { Transport } from '../transport/contract';

/** Test helpers shared by the agent's suites; not part of the package's API. */

export const FIXTURES = join(import.meta.dirname, '../collectors/linux/__fixtures__');

export interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

/** A pino logger that keeps every line, so tests can check what was warned about. */
export function recordingLogger(): { logger: Logger; lines: LogLine[]; warnings: () => LogLine[] } {
  const lines: LogLine[] = [];
  const logger = pino(
    { level: 'debug' },
    {
      write(line: string) {
        lines.push(JSON.parse(line) as LogLine);
      },
    },
  );
  return { logger, lines, warnings: () => lines.filter((l) => l.level === 40) };
}

export function fixtureContext(
  snapshot: 'vm-1' | 'vm-2' | 'missing',
  now: number,
  logger: Logger,
): CollectContext {
  return { procRoot: join(FIXTURES, snapshot), now, logger };
}

/** A copy of a fixture snapshot in a temporary folder, so a test can swap or break its files. */
export async function tempProcRoot(snapshot: 'vm-1' | 'vm-2'): Promise<{
  root: string;
  load(next: 'vm-1' | 'vm-2'): Promise<void>;
  remove(): Promise<void>;
}> {
  const root = await mkdtemp(join(tmpdir(), 'fd-agent-proc-'));
  const load = (next: 'vm-1' | 'vm-2') => cp(join(FIXTURES, next), root, { recursive: true, force: true });
  await load(snapshot);
  return { root, load, remove: () => rm(root, { recursive: true, force: true }) };
}

/** statfs as a 4 KiB-block file system with 1000 blocks (400 free, 300 for users) and 100 inodes (25 free). */
export const FAKE_STATFS: StatFsLike = {
  bsize: 4096,
  blocks: 1000,
  bfree: 400,
  bavail: 300,
  files: 100,
  ffree: 25,
};

export const fakeStatfs = async (_path: string): Promise<StatFsLike> => FAKE_STATFS;

/** The value of metric `m` whose labels include `labels` (none: the unlabelled series). */
export function sampleValue(
  samples: readonly SampleLike[],
  m: string,
  labels?: Record<string, string>,
): number | undefined {
  return samples.find(
    (s) =>
      s.m === m && (labels ? Object.entries(labels).every(([k, v]) => s.l?.[k] === v) : s.l === undefined),
  )?.v;
}

/** A transport double that records what the agent hands it; `fail` makes the next publishes reject. */
export function recordingTransport() {
  const batches: MetricBatch[] = [];
  const heartbeats: Heartbeat[] = [];
  const state = { closed: false, fail: undefined as Error | undefined, delayMs: 0 };
  const transport: Transport = {
    async publishMetrics(batch) {
      if (state.delayMs) await new Promise((r) => setTimeout(r, state.delayMs));
      if (state.fail) throw state.fail;
      batches.push(batch);
    },
    async publishHeartbeat(hb) {
      if (state.fail) throw state.fail;
      heartbeats.push(hb);
    },
    backlog: () => ({ depth: 0, dropped: 0 }),
    async close() {
      state.closed = true;
    },
  };
  return { transport, batches, heartbeats, state };
}

/**
 * A live process whose command line ends in `args` (`['flightdeck-agent', 'run']` stands in for
 * another running agent); `kill()` ends it.
 */
export async function idleProcess(args: string[]): Promise<{ pid: number; kill(): Promise<void> }> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000); console.log("up")', ...args], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.stdout?.once('data', () => resolve());
  });
  return {
    pid: child.pid!,
    kill: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill();
      }),
  };
}
