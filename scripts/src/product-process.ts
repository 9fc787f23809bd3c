import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** A free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** `npm run build` at the repository root, with the production console build. */
export function buildProduct(): void {
  execFileSync('npm', ['run', 'build'], {
    cwd: repoRoot,
    stdio: 'inherit',
    timeout: 300_000,
    env: { ...process.env, NODE_ENV: 'production' },
  });
}

export interface ProductProcess {
  baseURL: string;
  child: ChildProcess;
  /** SIGTERM, then SIGKILL after 15 s; removes the data directory. Resolves with the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts the built product (`node dist/start.js`) on a free port with a new data directory, the
 * embedded stores and bus, and waits until `GET /api/health` answers 200.
 */
export async function startProduct(extraEnv: Record<string, string> = {}): Promise<ProductProcess> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'flightdeck-run-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    ...extraEnv,
  };
  for (const name of ['DATABASE_URL', 'METRICS_STORE', 'NATS_URL', 'PUBLIC_URL']) {
    if (!(name in extraEnv)) delete env[name];
  }
  const child = spawn(process.execPath, ['dist/start.js'], { cwd: repoRoot, env, stdio: 'pipe' });
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const baseURL = `http://127.0.0.1:${port}`;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    const code = await exited;
    clearTimeout(timer);
    rmSync(dataDir, { recursive: true, force: true });
    return code;
  };

  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`the product exited with code ${child.exitCode} before it was ready:\n${tail}`);
    }
    try {
      const res = await fetch(`${baseURL}/api/health`, { signal: AbortSignal.timeout(2_000) });
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the product did not answer /api/health within 90 s:\n${tail}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { baseURL, child, stop };
}
