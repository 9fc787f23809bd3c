import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import pino, { type Logger } from 'pino';

/** Test support of the poller suites: ports, servers that misbehave on purpose, a recording logger. */

/** A TCP port free on 127.0.0.1 right now. */
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

/** Whether something accepts connections on 127.0.0.1:`port`. */
export function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Waits until `check` holds, polling every 50 ms, or throws `what` after `ms`. */
export async function waitFor(
  check: () => Promise<boolean> | boolean,
  ms: number,
  what: string,
  everyMs = 50,
): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** A server that accepts connections and never says a word: a hung service. */
export async function silentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * A port where connection attempts hang like those to an unroutable host: a listener in a
 * stopped child process whose accept queue is full, so the kernel drops further SYNs. (A real
 * unroutable address is no use on machines whose egress proxy answers every address.)
 */
export async function unansweredPort(): Promise<{ port: number; close(): Promise<void> }> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '-e',
      `const s=require('net').createServer(()=>{});s.listen({port:0,host:'127.0.0.1',backlog:1},()=>console.log(s.address().port))`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout?.once('data', (d: Buffer) => resolve(Number(String(d).trim())));
    child.once('error', reject);
  });
  child.kill('SIGSTOP');
  const fillers: Socket[] = [];
  // Fill the accept queue (backlog 1 holds 2 on Linux); the attempts after that get no answer.
  for (let i = 0; i < 3; i++) {
    const s = createConnection({ host: '127.0.0.1', port });
    s.on('error', () => {});
    fillers.push(s);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    port,
    async close() {
      for (const s of fillers) s.destroy();
      child.kill('SIGKILL');
      await new Promise((r) =>
        child.exitCode !== null || child.signalCode !== null ? r(undefined) : child.once('exit', r),
      );
    },
  };
}

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

/** TCP connections this process holds open to `port` on any host: its socket fds matched in /proc/net/tcp. */
export function ownConnectionsTo(port: number): number {
  const inodes = new Set<string>();
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/self/fd/${fd}`));
      if (m) inodes.add(m[1]!);
    } catch {
      // the fd closed while listing
    }
  }
  const hex = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  let n = 0;
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      // remote address, state 01 (established), inode
      if (cols[2]?.endsWith(hex) && cols[3] === '01' && inodes.has(cols[9] ?? '')) n++;
    }
  }
  return n;
}
