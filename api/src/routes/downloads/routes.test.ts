import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { AgentKeyData, AgentPackagesData, okEnvelope, SigninData } from '@flightdeck/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgentKey } from '../../hosts/agent-keys';
import { startServer } from '../../server';
import { createAccount, createTestApp, expectError, expectOk, post, type TestApp } from '../auth/test-app';

/** Async: the server answering the script runs in this process. */
const run = promisify(execFile);
const PASSWORD = 'correct-horse-battery';
let base: TestApp;
let dir: string;
let session = '';
let gatedSession = '';
let key = '';

const LINUX = 'flightdeck-agent-linux-x64.tar.gz';

function get(path: string, token?: string) {
  return base.app.request(path, token ? { headers: { Authorization: `Bearer ${token}` } } : {});
}

async function signin(email: string): Promise<string> {
  const res = await post(base.app, '/api/signin', { email, password: PASSWORD });
  return okEnvelope(SigninData).parse(await res.json()).data.token;
}

/** A package with the layout scripts/package-agent.mjs writes; its install.sh records its arguments. */
function buildFakeLinuxPackage(recordTo: string) {
  const stage = mkdtempSync(join(tmpdir(), 'fd-pkg-stage-'));
  const folder = join(stage, 'flightdeck-agent-linux-x64');
  mkdirSync(folder);
  writeFileSync(join(folder, 'flightdeck-agent'), '#!/bin/sh\n');
  writeFileSync(join(folder, 'install.sh'), `#!/bin/sh\nprintf '%s\\n' "$@" > '${recordTo}'\n`);
  execFileSync('tar', ['-czf', join(dir, LINUX), '-C', stage, 'flightdeck-agent-linux-x64']);
  rmSync(stage, { recursive: true, force: true });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fd-packages-'));
  base = await createTestApp({ AGENT_PACKAGES_DIR: dir });
  const a = await createAccount(base.t.db, 'a@example.com', PASSWORD);
  await createAccount(base.t.db, 'gated@example.com', PASSWORD);
  // Test plans start without deploy permissions: give the first one agent deployment only.
  const customer = await base.t.db
    .selectFrom('customers')
    .select('plan_id')
    .where('id', '=', a.customer_id)
    .executeTakeFirstOrThrow();
  await base.t.db
    .updateTable('plans')
    .set({ deploy_permissions: JSON.stringify({ agent: 1, agentless: 0 }) })
    .where('id', '=', customer.plan_id)
    .execute();
  session = await signin('a@example.com');
  gatedSession = await signin('gated@example.com');
  key = (await createAgentKey(base.t.db, a.customer_id, 'default')).key;
});
afterAll(async () => {
  await base?.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe('GET /api/downloads/agent', () => {
  it('lists both packages as not built when the folder has none, with the server address', async () => {
    const res = await expectOk(await get('/api/downloads/agent', session), AgentPackagesData);
    expect(res.data.server_url).toBe('http://localhost');
    expect(res.data.packages).toEqual([
      { name: 'linux-x64', file_name: LINUX, available: false, size: null, built_at: null },
      {
        name: 'windows-x64',
        file_name: 'flightdeck-agent.exe',
        available: false,
        size: null,
        built_at: null,
      },
    ]);
  });

  it('answers 404 naming the package and the build command when it is not built', async () => {
    const body = await expectError(await get('/api/downloads/agent/linux-x64', session), 404, 'not_found');
    expect(body.message).toBe(
      'The agent package for linux-x64 has not been built on this server: run npm run package:agent',
    );
    await expectError(await get('/api/downloads/agent/windows-x64/install.ps1', session), 404, 'not_found');
  });

  it('streams a built package as an attachment and lists its size', async () => {
    const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => i % 251));
    writeFileSync(join(dir, LINUX), bytes);
    const res = await get('/api/downloads/agent/linux-x64', session);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Disposition')).toBe(`attachment; filename="${LINUX}"`);
    expect(res.headers.get('Content-Type')).toBe('application/gzip');
    expect(res.headers.get('Content-Length')).toBe(String(bytes.length));
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);

    const list = await expectOk(await get('/api/downloads/agent', session), AgentPackagesData);
    expect(list.data.packages[0]).toMatchObject({ name: 'linux-x64', available: true, size: bytes.length });
    expect(list.data.packages[0]?.built_at).toBeGreaterThan(Date.now() / 1000 - 60);
    expect(list.data.packages[1]?.available).toBe(false);
  });

  it('serves the Windows exe and its install script', async () => {
    mkdirSync(join(dir, 'flightdeck-agent-windows-x64'), { recursive: true });
    writeFileSync(join(dir, 'flightdeck-agent-windows-x64/flightdeck-agent.exe'), 'MZ-exe');
    writeFileSync(join(dir, 'flightdeck-agent-windows-x64/install.ps1'), 'param([string]$Url)');
    const exe = await get('/api/downloads/agent/windows-x64', key);
    expect(exe.headers.get('Content-Disposition')).toBe('attachment; filename="flightdeck-agent.exe"');
    expect(await exe.text()).toBe('MZ-exe');
    const ps1 = await get('/api/downloads/agent/windows-x64/install.ps1', key);
    expect(ps1.headers.get('Content-Disposition')).toBe('attachment; filename="install.ps1"');
    expect(await ps1.text()).toBe('param([string]$Url)');
  });

  it('accepts the agent access key instead of a session, and refuses a revoked one', async () => {
    writeFileSync(join(dir, LINUX), 'tarball');
    const res = await get('/api/downloads/agent/linux-x64', key);
    expect(await res.text()).toBe('tarball');
    const customer = await base.t.db
      .selectFrom('agent_keys')
      .select('customer_id')
      .where('key_prefix', '=', key.slice(0, 8))
      .executeTakeFirstOrThrow();
    const rotated = await createAgentKey(base.t.db, customer.customer_id, 'default');
    await expectError(await get('/api/downloads/agent/linux-x64', key), 401, 'unauthorized');
    key = rotated.key;
    // The key is for the packages only, not for the console's calls.
    await expectError(await get('/api/downloads/agent', key), 401, 'unauthorized');
  });

  it('refuses a session whose plan does not permit agent deployment, and anyone without a session', async () => {
    await expectError(await get('/api/downloads/agent/linux-x64', gatedSession), 403, 'plan_gated');
    await expectError(await get('/api/downloads/agent', gatedSession), 403, 'plan_gated');
    await expectError(await get('/api/downloads/agent/linux-x64'), 401, 'unauthorized');
  });

  it('answers 404 for a package name it does not know', async () => {
    const body = await expectError(await get('/api/downloads/agent/macos-arm64', session), 404, 'not_found');
    expect(body.message).toContain('linux-x64 or windows-x64');
  });
});

describe('GET /api/workers/agent_key', () => {
  it('answers null before a key exists and the prefix, never the key, afterwards', async () => {
    const none = await expectOk(await get('/api/workers/agent_key', gatedSession), AgentKeyData.nullable());
    expect(none.data).toBeNull();
    const made = await expectOk(
      await post(base.app, '/api/workers/get_agent_key', {}, gatedSession),
      z.object({ key: z.string(), key_prefix: z.string() }).loose(),
    );
    const shown = await expectOk(await get('/api/workers/agent_key', gatedSession), AgentKeyData.nullable());
    expect(shown.data).toMatchObject({ key: null, key_prefix: made.data.key_prefix });
    expect(made.data.key.startsWith(made.data.key_prefix)).toBe(true);
  });
});

describe('GET /api/downloads/agent/install.sh', () => {
  it('is open and fills in PUBLIC_URL, else the address the request came to', async () => {
    const res = await get('/api/downloads/agent/install.sh');
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("server='http://localhost'");
    const behindProxy = await createTestApp({
      AGENT_PACKAGES_DIR: dir,
      PUBLIC_URL: 'https://monitor.example.com/',
    });
    try {
      const text = await (await behindProxy.app.request('/api/downloads/agent/install.sh')).text();
      expect(text).toContain("server='https://monitor.example.com'");
      expect(text).toContain('curl -fsSL https://monitor.example.com/api/downloads/agent/install.sh');
    } finally {
      await behindProxy.drop();
    }
  });

  // The script installs as root only, as the one-liner runs it under sudo.
  it.skipIf(process.getuid?.() !== 0)(
    'runs as the one-liner: downloads the package with the key and runs its install.sh with --url and --key',
    async () => {
      const record = join(dir, 'install-args.txt');
      buildFakeLinuxPackage(record);
      const server = await startServer(base.app, 0, '127.0.0.1');
      const url = `http://127.0.0.1:${server.port}`;
      try {
        await run(
          'sh',
          ['-c', `curl -fsSL ${url}/api/downloads/agent/install.sh | sh -s -- --key "$KEY" --interval 30`],
          {
            env: { ...process.env, KEY: key },
            timeout: 30_000,
          },
        );
        expect(readFileSync(record, 'utf8').trim().split('\n')).toEqual([
          '--url',
          url,
          '--key',
          key,
          '--interval',
          '30',
        ]);
        // A wrong key: the download is refused and the script stops before installing anything.
        rmSync(record);
        await expect(
          run('sh', ['-c', `curl -fsSL ${url}/api/downloads/agent/install.sh | sh -s -- --key fdk_wrong`], {
            timeout: 30_000,
          }),
        ).rejects.toThrow(/401/);
        expect(() => readFileSync(record)).toThrow();
      } finally {
        await server.close();
      }
    },
    40_000,
  );
});
