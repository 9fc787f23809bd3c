import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PRODUCT_VERSION } from '@flightdeck/schemas';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AgentConfigFile, writeConfigFile } from '../config-file';
import { PID_FILE, readPidFile } from '../lock';
import { readStatusFile } from '../status-file';
import { idleProcess } from '../testing/support';
import { type AgentStatusReport, type CliContext, runCli } from '.';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'fd-agent-cli-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the command line in this process and keeps what it printed. */
async function cli(argv: string[], extra: Partial<CliContext> = {}) {
  let out = '';
  let err = '';
  const code = await runCli(argv, {
    out: (t) => {
      out += t;
    },
    err: (t) => {
      err += t;
    },
    env: { LOG_LEVEL: 'silent' },
    host: { platform: 'linux', isRoot: false },
    hostname: 'test-box',
    ...extra,
  });
  return { code, out, err };
}

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as AddressInfo;
  await new Promise((resolve) => srv.close(resolve));
  return port;
}

function configFile(extra: Partial<AgentConfigFile> = {}, apiUrl = 'http://127.0.0.1:9'): string {
  const file = join(dir, 'agent.json');
  writeConfigFile(file, {
    v: 1,
    api_url: apiUrl,
    access_key: 'fdk_0123456789',
    tenant: '42',
    host_key: 'test-box',
    install_id: 3,
    interval_s: 1,
    registered_at: '2026-01-01T00:00:00.000Z',
    state_dir: join(dir, 'state'),
    ...extra,
  });
  return file;
}

describe('the command line', () => {
  it('prints the version and the usage, and refuses unknown commands and options with exit code 2', async () => {
    const version = await cli(['--version']);
    expect(version).toMatchObject({ code: 0, err: '' });
    expect(version.out).toMatch(new RegExp(`^flightdeck-agent ${PRODUCT_VERSION.replace(/\./g, '\\.')} `));
    const help = await cli(['help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('register --url <api address> --key <access key>');

    for (const argv of [[], ['frobnicate'], ['status', '--bogus'], ['register', '--key', 'fdk_x']]) {
      const r = await cli(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err, argv.join(' ')).toContain('Usage: flightdeck-agent <command>');
      expect(r.out).toBe('');
    }
    expect((await cli(['frobnicate'])).err).toContain('unknown command "frobnicate"');
    expect((await cli(['register', '--url', 'ftp://x', '--key', 'fdk_0123456789'])).err).toContain(
      '--url: expected an http:// or https:// address',
    );
    expect((await cli(['register', '--url', 'http://x', '--key', 'k', '--interval', '0'])).code).toBe(2);
  });

  it('says how to register when there is no config file, and exits 1', async () => {
    const file = join(dir, 'none.json');
    const r = await cli(['status', '--config', file]);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`Registered:  no: ${file} not found`);
    expect(r.out).toContain('flightdeck-agent register --url');
    const json = await cli(['status', '--config', file, '--json']);
    expect(JSON.parse(json.out)).toMatchObject({ registered: false, configured_by: null, running: false });

    const run = await cli(['run', '--config', file]);
    expect(run.code).toBe(1);
    expect(run.err).toContain(`no config file at ${file}`);
    const envOnly = await cli(['run'], { env: { LOG_LEVEL: 'silent', XDG_CONFIG_HOME: dir } });
    expect(envOnly.code).toBe(1);
    expect(envOnly.err).toContain('AGENT_TENANT');
    expect(envOnly.err).toContain('register this host first');
  });

  it('names the file and the field of a broken config file', async () => {
    const file = join(dir, 'agent.json');
    writeFileSync(file, JSON.stringify({ v: 1, api_url: 'https://fd.example.com', interval_s: 'often' }));
    const run = await cli(['run', '--config', file]);
    expect(run.code).toBe(1);
    expect(run.err).toContain(`${file}: interval_s: `);
    expect(run.err).toContain(`${file}: tenant: `);
    const status = await cli(['status', '--config', file]);
    expect(status.code).toBe(1);
    expect(status.out).toContain(`Registered:  no: ${file} is broken`);
    expect(status.out).toContain(`${file}: interval_s: `);
  });

  it('runs one agent per state directory', async () => {
    const file = configFile();
    const other = await idleProcess(['flightdeck-agent', 'run']);
    try {
      mkdirSync(join(dir, 'state'));
      writeFileSync(join(dir, 'state', PID_FILE), `${other.pid}\n`);
      const r = await cli(['run', '--config', file]);
      expect(r.code).toBe(1);
      expect(r.err).toContain(`another Flightdeck agent is already running (pid ${other.pid}`);
      const status = await cli(['status', '--config', file]);
      expect(status.out).toContain(`running (pid ${other.pid})`);
    } finally {
      await other.kill();
    }
  });

  it('says so when this platform has no collectors, and leaves no pid file behind', async () => {
    const file = configFile();
    const r = await cli(['run', '--config', file], { host: { platform: 'aix', isRoot: false } });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(
      /^flightdeck-agent: the agent could not start: the agent has no collectors for aix/,
    );
    expect(readPidFile(join(dir, 'state'))).toBeUndefined();
  });

  it('runs until stopped, reporting each run in the status file, and status shows it', async () => {
    // The api does not answer: batches go to the spool, which status reports.
    const file = configFile({}, `http://127.0.0.1:${await closedPort()}`);
    const state = join(dir, 'state');
    const stop = new AbortController();
    const running = cli(['run', '--config', file], { stop: stop.signal });
    const deadline = Date.now() + 10_000;
    for (;;) {
      const st = readStatusFile(state);
      if (st && !('problem' in st) && st.runs >= 2) break;
      if (Date.now() > deadline) throw new Error(`no second run reported: ${JSON.stringify(st)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(readPidFile(state)).toBe(process.pid);

    const status = await cli(['status', '--config', file, '--json']);
    expect(status.code).toBe(0);
    const report = JSON.parse(status.out) as AgentStatusReport;
    expect(report).toMatchObject({
      registered: true,
      configured_by: 'file',
      tenant: '42',
      host_key: 'test-box',
      install_id: 3,
      running: true,
      pid: process.pid,
      failed: 0,
      state_dir: state,
      api: { reachable: false },
    });
    expect(report.spool_depth).toBeGreaterThanOrEqual(1);
    expect(report.last_run_age_s).toBeLessThan(5);
    const text = await cli(['status', '--config', file]);
    expect(text.out).toMatch(/Agent:\s+running \(pid \d+\)/);
    expect(text.out).toMatch(/Spool:\s+\d+ batches waiting, 0 dropped/);
    expect(text.out).toMatch(/API answers:\s+no: /);

    stop.abort();
    expect((await running).code).toBe(0);
    expect(readPidFile(state)).toBeUndefined();
    const after = await cli(['status', '--config', file]);
    expect(after.code).toBe(1);
    expect(after.out).toMatch(/Agent:\s+not running/);
    // The spool survives the stop for the next run to replay.
    expect(readFileSync(join(state, 'spool', 'cursor.json'), 'utf8')).toContain('seq');
  });

  it('explains an api that cannot be reached or is not a Flightdeck api', async () => {
    const port = await closedPort();
    const files = [join(dir, 'machine-id')];
    writeFileSync(files[0]!, '0123456789abcdef0123456789abcdef\n');
    const down = await cli(
      [
        'register',
        '--url',
        `http://127.0.0.1:${port}`,
        '--key',
        'fdk_0123456789',
        '--config',
        join(dir, 'a.json'),
      ],
      { machineIdFiles: files },
    );
    expect(down.code).toBe(1);
    expect(down.err).toContain(`Could not reach http://127.0.0.1:${port}`);
    expect(down.err).toContain('ECONNREFUSED');

    const other: Server = createServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>It works!</body></html>');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
      const wrong = await cli(
        ['register', '--url', url, '--key', 'fdk_0123456789', '--config', join(dir, 'a.json')],
        {
          machineIdFiles: files,
        },
      );
      expect(wrong.code).toBe(1);
      expect(wrong.err).toContain(`${url} does not look like a Flightdeck api`);
      expect(wrong.err).toContain('It works!');
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });
});
