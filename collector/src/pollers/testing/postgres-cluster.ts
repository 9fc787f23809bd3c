import { execFile } from 'node:child_process';
import { chmod, chown, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './net';

const run = promisify(execFile);

/**
 * A PostgreSQL cluster of one test alone, on a free port, with password (SCRAM) authentication for
 * its superuser `postgres`: the shared server at :5432 trusts every local connection, so it cannot
 * show a refused password. Run as root, the cluster belongs to the `postgres` user.
 */
export interface OwnPostgres {
  readonly port: number;
  stop(): Promise<void>;
}

async function binDir(): Promise<string> {
  const versions = (await readdir('/usr/lib/postgresql'))
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => +b - +a);
  if (!versions[0]) throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql');
  return join('/usr/lib/postgresql', versions[0], 'bin');
}

export async function startOwnPostgres(password: string): Promise<OwnPostgres> {
  const bin = await binDir();
  const dir = await mkdtemp(join(tmpdir(), 'fd-pg-'));
  const asRoot = process.getuid?.() === 0;
  const as = async (cmd: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', cmd, ...args]) : run(cmd, args);
  const pwfile = join(dir, 'pw');
  await writeFile(pwfile, `${password}\n`, { mode: 0o600 });
  if (asRoot) {
    const uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim());
    const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
    await chown(dir, uid, gid);
    await chown(pwfile, uid, gid);
  }
  await chmod(dir, 0o700);
  const data = join(dir, 'data');
  const port = await freePort();
  try {
    await as(join(bin, 'initdb'), [
      '-D',
      data,
      '-U',
      'postgres',
      '--auth=scram-sha-256',
      `--pwfile=${pwfile}`,
      '-N',
    ]);
    const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c shared_buffers=8MB -c max_connections=10`;
    await as(join(bin, 'pg_ctl'), [
      '-D',
      data,
      '-o',
      options,
      '-l',
      join(dir, 'log'),
      '-w',
      '-t',
      '30',
      'start',
    ]);
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    port,
    async stop() {
      try {
        await as(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
