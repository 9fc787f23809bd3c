import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { chown, mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { accepts, freePort, waitFor } from '../../pollers/testing/net';

const run = promisify(execFile);

/**
 * A MariaDB server of one test alone, on a free port, with root reachable without a password:
 * for what the shared server at :3306 cannot show without a restart (performance_schema is off
 * there). Run as root, the server switches to the `mysql` user itself.
 */
export interface OwnMariadb {
  readonly port: number;
  stop(): Promise<void>;
}

export async function startOwnMariadb(options: { performanceSchema: boolean }): Promise<OwnMariadb> {
  const dir = await mkdtemp(join(tmpdir(), 'fd-mariadb-'));
  const asRoot = process.getuid?.() === 0;
  const user = asRoot ? ['--user=mysql'] : [];
  if (asRoot) {
    const uid = Number((await run('id', ['-u', 'mysql'])).stdout.trim());
    const gid = Number((await run('id', ['-g', 'mysql'])).stdout.trim());
    await chown(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const port = await freePort();
  let child: ChildProcess | undefined;
  try {
    await run('mariadb-install-db', [
      '--no-defaults',
      `--datadir=${data}`,
      ...user,
      '--auth-root-authentication-method=normal',
      '--skip-test-db',
    ]);
    const log = await open(join(dir, 'log'), 'w');
    child = spawn(
      '/usr/sbin/mariadbd',
      [
        '--no-defaults',
        `--datadir=${data}`,
        ...user,
        `--port=${port}`,
        '--bind-address=127.0.0.1',
        `--socket=${join(dir, 'sock')}`,
        `--pid-file=${join(dir, 'pid')}`,
        `--performance-schema=${options.performanceSchema ? 'ON' : 'OFF'}`,
        '--skip-log-bin',
        '--innodb-buffer-pool-size=16M',
      ],
      { stdio: ['ignore', log.fd, log.fd] },
    );
    await log.close();
    const exited = new Promise<void>((resolve) => child?.once('exit', () => resolve()));
    await waitFor(
      async () => {
        if (child?.exitCode !== null) throw new Error('mariadbd exited');
        return accepts(port);
      },
      30_000,
      'the own MariaDB server to accept connections',
      100,
    );
    return {
      port,
      async stop() {
        child?.kill('SIGTERM');
        await exited;
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    child?.kill('SIGKILL');
    const log = await readFile(join(dir, 'log'), 'utf8').catch(() => '');
    await rm(dir, { recursive: true, force: true });
    throw new Error(`the own MariaDB server did not start: ${(err as Error).message}\n${log.slice(-2000)}`);
  }
}
