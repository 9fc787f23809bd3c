import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PRODUCT_VERSION } from '@flightdeck/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from './product-process';

const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
const packages = join(repoRoot, 'dist/packages');
const dir = mkdtempSync(join(tmpdir(), 'fd-agent-package-'));
/** An empty folder as the whole PATH: no `node` (nor anything else) can be found through it. */
const emptyPath = join(dir, 'empty-path');
let binary = '';

/** The packaged agent with nothing but an empty PATH and a HOME. */
function packaged(args: string[]) {
  return spawnSync(binary, args, { env: { PATH: emptyPath, HOME: dir }, encoding: 'utf8', timeout: 30_000 });
}

function writeConfig(file: string, extra: Record<string, unknown> = {}) {
  writeFileSync(
    file,
    JSON.stringify({
      v: 1,
      // A port nothing listens on: the api does not answer, batches go to the spool.
      api_url: 'http://127.0.0.1:1',
      access_key: 'fdk_0123456789',
      tenant: '42',
      host_key: 'packaged-host',
      install_id: 1,
      interval_s: 1,
      registered_at: '2026-01-01T00:00:00.000Z',
      state_dir: join(dir, 'state'),
      ...extra,
    }),
  );
}

beforeAll(() => {
  mkdirSync(emptyPath);
  execFileSync(process.execPath, ['scripts/package-agent.mjs'], {
    cwd: repoRoot,
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: 900_000,
  });
  execFileSync('tar', ['-xzf', join(packages, 'flightdeck-agent-linux-x64.tar.gz'), '-C', dir]);
  binary = join(dir, 'flightdeck-agent-linux-x64', 'flightdeck-agent');
}, 900_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the agent packages', () => {
  it('bundles the agent alone, without the collector stores or native addons', () => {
    const bundle = readFileSync(join(packages, 'flightdeck-agent.cjs'), 'utf8');
    expect(bundle.startsWith('#!/usr/bin/env node')).toBe(true);
    for (const name of ['better-sqlite3', '@questdb/nodejs-client', 'require("pg")', 'mysql2']) {
      expect(bundle, name).not.toContain(name);
    }
  });

  it('ships the linux binary with its systemd unit and install script', () => {
    const folder = join(dir, 'flightdeck-agent-linux-x64');
    expect(statSync(binary).mode & 0o111).not.toBe(0);
    expect(statSync(join(folder, 'install.sh')).mode & 0o111).not.toBe(0);
    expect(readFileSync(join(folder, 'flightdeck-agent.service'), 'utf8')).toContain(
      'ExecStart=/usr/local/bin/flightdeck-agent run',
    );
    expect(readFileSync(join(folder, 'install.sh'), 'utf8')).toContain('register "$@"');
  });

  it('runs the linux binary where no node can be found', () => {
    const noNode = spawnSync('/bin/sh', ['-c', 'command -v node || echo none'], {
      env: { PATH: emptyPath },
      encoding: 'utf8',
    });
    expect(noNode.stdout.trim()).toBe('none');

    const version = packaged(['--version']);
    expect(version.error).toBeUndefined();
    expect(version.status).toBe(0);
    expect(version.stdout).toBe(
      `flightdeck-agent ${PRODUCT_VERSION} (single executable, Node.js ${process.version})\n`,
    );

    const config = join(dir, 'agent.json');
    writeConfig(config);
    const status = packaged(['status', '--config', config]);
    expect(status.status).toBe(1);
    expect(status.stdout).toContain(`Registered:  yes (${config}, install 1)`);
    expect(status.stdout).toMatch(/Agent:\s+not running/);
    expect(packaged(['frobnicate']).status).toBe(2);
  });

  it('samples the host from the linux binary and stops cleanly on SIGTERM', async () => {
    const config = join(dir, 'run.json');
    writeConfig(config, { state_dir: join(dir, 'run-state') });
    const child = spawn(binary, ['run', '--config', config], {
      env: { PATH: emptyPath, HOME: dir, LOG_LEVEL: 'warn' },
      stdio: 'ignore',
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const statusFile = join(dir, 'run-state', 'status.json');
    const deadline = Date.now() + 20_000;
    let runs = 0;
    while (runs < 2) {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error('the packaged agent reported no second run');
      }
      await new Promise((r) => setTimeout(r, 100));
      if (existsSync(statusFile))
        runs = (JSON.parse(readFileSync(statusFile, 'utf8')) as { runs: number }).runs;
    }
    const report = JSON.parse(packaged(['status', '--config', config, '--json']).stdout) as {
      running: boolean;
      pid: number;
      spool_depth: number;
    };
    expect(report).toMatchObject({ running: true, pid: child.pid });
    expect(report.spool_depth).toBeGreaterThanOrEqual(1);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(existsSync(join(dir, 'run-state', 'agent.pid'))).toBe(false);
  });

  it('injects the same agent into node.exe for Windows', () => {
    const folder = join(packages, 'flightdeck-agent-windows-x64');
    expect(readFileSync(join(folder, 'install.ps1'), 'utf8')).toContain("'register', '--url', $Url");
    const exe = readFileSync(join(folder, 'flightdeck-agent.exe'));
    expect(exe.subarray(0, 2).toString('latin1')).toBe('MZ');
    expect(exe.includes(`${FUSE}:1`)).toBe(true);
    expect(exe.includes(`${FUSE}:0`)).toBe(false);
    // The resource postject adds is named in UTF-16, as PE resource names are.
    expect(exe.includes(Buffer.from('NODE_SEA_BLOB', 'utf16le'))).toBe(true);
    // Without a code cache the blob carries the bundle's source as is.
    expect(exe.includes(readFileSync(join(packages, 'flightdeck-agent.cjs')))).toBe(true);
  });
});
