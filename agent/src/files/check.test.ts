import { execFileSync, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  appendFileSync,
  chmodSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkFile, testPath } from './check';

const sha = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const isRoot = process.getuid?.() === 0;
const MB = 1024 * 1024;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'fd-files-check-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/**
 * `checkFile` and `testPath` of `path` run in a child process as `nobody` (the agent's own code,
 * through tsx): root reads any file whatever its mode, so a root test run checks unreadability so.
 */
function probeAsNobody(path: string): { check: unknown; test: unknown } {
  const script = join(dir, 'probe.mts');
  const checkUrl = pathToFileURL(join(import.meta.dirname, 'check.ts')).href;
  writeFileSync(
    script,
    `import { checkFile, testPath } from ${JSON.stringify(checkUrl)};\n` +
      `const p = ${JSON.stringify(path)};\n` +
      'console.log(JSON.stringify({ check: await checkFile(p, { maxBytes: 1024 }), test: await testPath(p, { maxBytes: 1024 }) }));\n',
  );
  chmodSync(script, 0o644);
  const run = spawnSync(process.execPath, ['--import', 'tsx', script], {
    uid: 65534,
    gid: 65534,
    cwd: join(import.meta.dirname, '../../..'),
    env: { ...process.env, HOME: tmpdir() },
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (run.status !== 0) throw new Error(`the probe as nobody failed (${run.status}): ${run.stderr}`);
  return JSON.parse(run.stdout) as { check: unknown; test: unknown };
}

describe('checkFile', () => {
  it('hashes a file with SHA-256 and reports its size and modification time', async () => {
    const path = join(dir, 'my.cnf');
    writeFileSync(path, '[mysqld]\nport=3306\n');
    const check = await checkFile(path, { maxBytes: MB });
    expect(check).toMatchObject({
      status: 'hashed',
      sha256: sha('[mysqld]\nport=3306\n'),
      size: 19,
      mtime: Math.floor(statSync(path).mtimeMs / 1000),
    });
    expect(check.error).toBeUndefined();
  });

  it('streams a file larger than its read buffer and hashes all of it', async () => {
    const path = join(dir, 'big.bin');
    const data = randomBytes(3 * MB + 123);
    writeFileSync(path, data);
    expect(await checkFile(path, { maxBytes: 4 * MB })).toMatchObject({
      status: 'hashed',
      sha256: sha(data),
      size: data.length,
    });
  });

  it('sees an appended line as another hash', async () => {
    const path = join(dir, 'nginx.conf');
    writeFileSync(path, 'worker_processes 1;\n');
    const before = await checkFile(path, { maxBytes: MB });
    appendFileSync(path, 'events {}\n');
    const after = await checkFile(path, {
      maxBytes: MB,
      cached: { identity: before.identity!, sha256: before.sha256! },
    });
    expect(after.sha256).toBe(sha('worker_processes 1;\nevents {}\n'));
    expect(after.sha256).not.toBe(before.sha256);
  });

  it('reuses the cached hash while the identity of the file is unchanged', async () => {
    const path = join(dir, 'same.conf');
    writeFileSync(path, 'a=1\n');
    const first = await checkFile(path, { maxBytes: MB });
    // A hash the content does not have: only a reuse can give it back.
    const fake = 'f'.repeat(64);
    expect(
      (await checkFile(path, { maxBytes: MB, cached: { identity: first.identity!, sha256: fake } })).sha256,
    ).toBe(fake);
    expect(
      (await checkFile(path, { maxBytes: MB, cached: { identity: 'other', sha256: fake } })).sha256,
    ).toBe(sha('a=1\n'));
  });

  it('reads under the host root when the agent sees the host through a mount, naming the host path', async () => {
    const hostRoot = join(dir, 'host');
    mkdirSync(join(hostRoot, 'etc'), { recursive: true });
    writeFileSync(join(hostRoot, 'etc', 'app.conf'), 'on\n');
    expect(await checkFile('/etc/app.conf', { maxBytes: MB, hostRoot })).toMatchObject({
      status: 'hashed',
      sha256: sha('on\n'),
    });
    const missing = await checkFile('/etc/other.conf', { maxBytes: MB, hostRoot });
    expect(missing).toMatchObject({
      status: 'missing',
      error: 'No file at /etc/other.conf: check the path and its folders.',
    });
    expect(await testPath('/etc/app.conf', { maxBytes: MB, hostRoot })).toMatchObject({
      status: 'ok',
      message: '/etc/app.conf is a readable file (3 B).',
    });
  });

  it('does not hash a file above the size limit', async () => {
    const path = join(dir, 'large.log');
    writeFileSync(path, Buffer.alloc(2048, 1));
    const check = await checkFile(path, { maxBytes: 1024 });
    expect(check).toMatchObject({ status: 'too_large', size: 2048 });
    expect(check.sha256).toBeUndefined();
    expect(check.error).toContain('2 KB');
    expect(check.error).toContain('1 KB');
  });

  it('reports a missing file, also under a path whose folder is a file', async () => {
    const gone = join(dir, 'gone.conf');
    expect(await checkFile(gone, { maxBytes: MB })).toMatchObject({ status: 'missing' });
    const file = join(dir, 'plain');
    writeFileSync(file, 'x');
    const check = await checkFile(join(file, 'child'), { maxBytes: MB });
    expect(check.status).toBe('missing');
    expect(check.error).toContain(join(file, 'child'));
    expect(await checkFile('relative/path.conf', { maxBytes: MB })).toMatchObject({
      status: 'missing',
      error: expect.stringContaining('not an absolute path'),
    });
  });

  it('reports a folder, a pipe and a symbolic-link loop as unreadable without blocking', async () => {
    const folder = join(dir, 'conf.d');
    mkdirSync(folder);
    expect(await checkFile(folder, { maxBytes: MB })).toMatchObject({
      status: 'unreadable',
      error: expect.stringContaining('is a folder'),
    });
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    expect(await checkFile(fifo, { maxBytes: MB })).toMatchObject({
      status: 'unreadable',
      error: expect.stringContaining('not a regular file'),
    });
    const loop = join(dir, 'loop');
    symlinkSync(loop, loop);
    expect(await checkFile(loop, { maxBytes: MB })).toMatchObject({
      status: 'unreadable',
      error: expect.stringContaining('loop'),
    });
  });

  it('reports a file the agent may not read as unreadable, naming the permission', {
    timeout: 60_000,
  }, async () => {
    const secret = join(dir, 'secret.conf');
    writeFileSync(secret, 'password=1\n');
    chmodSync(secret, 0o000);
    chmodSync(dir, 0o755);
    const { check, test } = isRoot
      ? probeAsNobody(secret)
      : { check: await checkFile(secret, { maxBytes: MB }), test: await testPath(secret, { maxBytes: MB }) };
    expect(check).toMatchObject({
      status: 'unreadable',
      error: expect.stringContaining('Permission denied'),
    });
    expect(test).toMatchObject({ status: 'error', reason: 'permission_denied' });
  });
});

describe('testPath', () => {
  it('accepts a readable regular file and says its size', async () => {
    const path = join(dir, 'hosts');
    writeFileSync(path, '127.0.0.1 localhost\n');
    expect(await testPath(path, { maxBytes: MB })).toEqual({
      status: 'ok',
      message: `${path} is a readable file (20 B).`,
      size: 20,
    });
  });

  it('names what is wrong: not found, a folder, a device, too large', async () => {
    expect(await testPath(join(dir, 'nope'), { maxBytes: MB })).toMatchObject({
      status: 'error',
      reason: 'not_found',
      message: expect.stringContaining('No file at'),
    });
    expect(await testPath(dir, { maxBytes: MB })).toMatchObject({ status: 'error', reason: 'is_directory' });
    expect(await testPath('/dev/null', { maxBytes: MB })).toMatchObject({
      status: 'error',
      reason: 'not_regular_file',
    });
    const big = join(dir, 'big.dump');
    writeFileSync(big, Buffer.alloc(5000));
    expect(await testPath(big, { maxBytes: 4096 })).toMatchObject({
      status: 'error',
      reason: 'too_large',
      size: 5000,
    });
  });
});
