import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { assertChromium } from './support/chromium';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    adminEmail: string;
    adminPassword: string;
  }
}

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const screenshotDir = fileURLToPath(new URL('./screenshots/', import.meta.url));
const READY_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 15_000;

/**
 * Builds the real product, starts it on a free port with an empty data directory and a known
 * admin, and waits until `GET /api/health` answers 200. The teardown stops it with SIGTERM.
 */
export default async function setup(project: TestProject) {
  assertChromium();
  rmSync(screenshotDir, { recursive: true, force: true });
  mkdirSync(screenshotDir, { recursive: true });

  if (!process.env.E2E_SKIP_BUILD) {
    // vitest sets NODE_ENV=test, which would give the console React's development build.
    execFileSync('npm', ['run', 'build'], {
      cwd: repoRoot,
      stdio: 'inherit',
      timeout: 300_000,
      env: { ...process.env, NODE_ENV: 'production' },
    });
  }
  for (const artefact of ['dist/start.js', 'console/dist/index.html']) {
    if (!existsSync(join(repoRoot, artefact))) {
      throw new Error(`\`npm run build\` did not produce ${artefact}`);
    }
  }

  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'flightdeck-e2e-'));
  const adminEmail = 'e2e-admin@flightdeck.test';
  const adminPassword = `E2e-${randomBytes(9).toString('base64url')}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    FLIGHTDECK_ADMIN_EMAIL: adminEmail,
    FLIGHTDECK_ADMIN_PASSWORD: adminPassword,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
  };
  // The embedded all-in-one product, whatever the developer's shell points at.
  for (const name of ['DATABASE_URL', 'METRICS_STORE', 'NATS_URL', 'PUBLIC_URL']) delete env[name];

  const server = spawn(process.execPath, ['dist/start.js'], { cwd: repoRoot, env, stdio: 'pipe' });
  const output = keepTail(server);
  const baseURL = `http://127.0.0.1:${port}`;

  try {
    await waitForHealth(baseURL, server, output);
  } catch (error) {
    await stop(server);
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }

  project.provide('baseURL', baseURL);
  project.provide('adminEmail', adminEmail);
  project.provide('adminPassword', adminPassword);

  return async () => {
    await stop(server);
    rmSync(dataDir, { recursive: true, force: true });
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** The last few kB the product printed, to explain a failed start. */
function keepTail(child: ChildProcess): () => string {
  let tail = '';
  const append = (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-8_000);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  return () => tail;
}

async function waitForHealth(baseURL: string, server: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    if (server.exitCode !== null || server.signalCode !== null) {
      throw new Error(
        `dist/start.js exited (${server.exitCode ?? server.signalCode}) before it was ready:\n${output()}`,
      );
    }
    try {
      const response = await fetch(`${baseURL}/api/health`, { signal: AbortSignal.timeout(2_000) });
      if (response.status === 200) return;
      last = `HTTP ${response.status}: ${(await response.text()).slice(0, 500)}`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(
    `GET /api/health did not answer 200 within ${READY_TIMEOUT_MS / 1000} s (${last}):\n${output()}`,
  );
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}
