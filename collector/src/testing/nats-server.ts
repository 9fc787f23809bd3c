import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A nats-server with JetStream of one test alone (never the shared one at :4222), on a free port
 * with a temporary store, that the test can stop and start again on the same port and store.
 * Test support, not part of the package.
 */
export interface OwnNatsServer {
  readonly url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Stops the server and deletes its store. */
  dispose(): Promise<void>;
}

export const NATS_SERVER_BIN = process.env.NATS_SERVER_BIN ?? '/usr/sbin/nats-server';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

async function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export async function startOwnNatsServer(): Promise<OwnNatsServer> {
  const port = await freePort();
  const storeDir = mkdtempSync(join(tmpdir(), 'fd-nats-test-'));
  let child: ChildProcess | undefined;

  const server: OwnNatsServer = {
    url: `nats://127.0.0.1:${port}`,
    async start() {
      if (child) return;
      const proc = spawn(NATS_SERVER_BIN, ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', storeDir], {
        stdio: 'ignore',
      });
      child = proc;
      const until = Date.now() + 10_000;
      while (!(await accepts(port))) {
        if (proc.exitCode !== null) throw new Error(`nats-server exited with ${proc.exitCode}`);
        if (Date.now() > until) throw new Error(`nats-server did not listen on ${port}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async stop() {
      const proc = child;
      child = undefined;
      if (!proc || proc.exitCode !== null) return;
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
    async dispose() {
      await server.stop();
      rmSync(storeDir, { recursive: true, force: true });
    },
  };
  await server.start();
  return server;
}
