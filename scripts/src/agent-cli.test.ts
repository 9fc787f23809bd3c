import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentStatusReport, type CliContext, readConfigFile, runCli } from '@flightdeck/agent';
import {
  createApp,
  createDb,
  type Db,
  ensureSystemAdmin,
  type HostRegistry,
  loadApiConfig,
  migrateToLatest,
  type RunningServer,
  startHostRegistry,
  startServer,
} from '@flightdeck/api';
import { createInProcessBus, type InProcessBus } from '@flightdeck/collector/bus';
import { createSqliteStore, type MetricStore } from '@flightdeck/collector/store';
import { PRODUCT_VERSION } from '@flightdeck/schemas';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const logger = pino({ level: 'silent' });
const dir = mkdtempSync(join(tmpdir(), 'fd-agent-register-'));
let db: Db;
let bus: InProcessBus;
let store: MetricStore;
let registry: HostRegistry;
let server: RunningServer;
let apiUrl = '';
let accessKey = '';

/** `flightdeck-agent <argv>` in this process, as host `web-01` with the machine id in `machine`. */
async function agent(argv: string[], machine = 'machine-a', extra: Partial<CliContext> = {}) {
  const idFile = join(dir, `${machine}-id`);
  writeFileSync(idFile, `${Buffer.from(machine).toString('hex').padEnd(32, '0')}\n`);
  let out = '';
  let err = '';
  const code = await runCli(argv, {
    out: (t) => {
      out += t;
    },
    err: (t) => {
      err += t;
    },
    env: { LOG_LEVEL: 'silent', AGENT_STATE_DIR: join(dir, `${machine}-state`) },
    host: { platform: 'linux', isRoot: false },
    hostname: 'Web-01.example.com',
    machineIdFiles: [idFile],
    ...extra,
  });
  return { code, out, err };
}

async function call<T>(path: string, body: unknown, token?: string): Promise<T> {
  const res = await fetch(`${apiUrl}/api${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { data: T };
  expect(res.status, JSON.stringify(json)).toBe(200);
  return json.data;
}

beforeAll(async () => {
  db = createDb(join(dir, 'flightdeck.db'));
  await migrateToLatest(db);
  await ensureSystemAdmin(db, { email: 'ops@example.com', password: 'correct horse battery' });
  bus = createInProcessBus({ logger });
  store = createSqliteStore({ path: join(dir, 'metrics.db') });
  await bus.consumeMetrics(async (batch) => {
    await store.write([batch]);
  });
  registry = await startHostRegistry({ db, bus, logger });
  const app = createApp({
    db,
    store,
    bus,
    config: loadApiConfig({ DATA_DIR: dir }),
    logger,
    version: PRODUCT_VERSION,
  });
  server = await startServer(app, 0, '127.0.0.1');
  apiUrl = `http://127.0.0.1:${server.port}`;
  // The access key the Deploy page shows, fetched as the console does.
  const { token } = await call<{ token: string }>('/signin', {
    email: 'ops@example.com',
    password: 'correct horse battery',
  });
  accessKey = (await call<{ key: string }>('/workers/get_agent_key', {}, token)).key;
});

afterAll(async () => {
  await server?.close();
  await registry?.stop();
  await bus?.close();
  await store?.close();
  await db?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe('flightdeck-agent against the api', () => {
  it('registers, and registers the same machine again as the same host', async () => {
    const file = join(dir, 'a.json');
    const first = await agent(['register', '--url', `${apiUrl}/`, '--key', accessKey, '--config', file]);
    expect(first.err).toBe('');
    expect(first.code).toBe(0);
    expect(first.out).toContain(`Registered this host with ${apiUrl} as "web-01-example-com"`);
    expect(first.out).toContain(`Config written: ${file}`);
    const config = readConfigFile(file)!;
    expect(config).toMatchObject({
      api_url: apiUrl,
      access_key: accessKey,
      tenant: '1',
      host_key: 'web-01-example-com',
      interval_s: 10,
    });
    expect(config.nats_url).toBeUndefined();
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const again = await agent([
      'register',
      '--url',
      apiUrl,
      '--key',
      accessKey,
      '--config',
      file,
      '--interval',
      '1',
    ]);
    expect(again.code).toBe(0);
    expect(again.out).toContain(`Config replaced: ${file}`);
    expect(readConfigFile(file)).toMatchObject({
      host_key: 'web-01-example-com',
      install_id: config.install_id,
      interval_s: 1,
    });
  });

  it('gives another machine with the same key an install of its own', async () => {
    const file = join(dir, 'b.json');
    const r = await agent(['register', '--url', apiUrl, '--key', accessKey, '--config', file], 'machine-b');
    expect(r.code).toBe(0);
    const a = readConfigFile(join(dir, 'a.json'))!;
    const b = readConfigFile(file)!;
    expect(b.host_key).toBe('web-01-example-com-2');
    expect(b.install_id).not.toBe(a.install_id);
  });

  it('says which key was refused, and writes nothing', async () => {
    const file = join(dir, 'refused.json');
    const r = await agent([
      'register',
      '--url',
      apiUrl,
      '--key',
      'fdk_not-the-right-key-000000',
      '--config',
      file,
    ]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`The access key was refused by ${apiUrl}: check the key on the Deploy page`);
    expect(() => readFileSync(file)).toThrow();
  });

  it('runs as the registered host: its heartbeats make the server, and status sees the api', async () => {
    const file = join(dir, 'a.json');
    const stop = new AbortController();
    const running = agent(['run', '--config', file], 'machine-a', { stop: stop.signal });
    try {
      const deadline = Date.now() + 15_000;
      let row: { host_key: string; platform: string | null } | undefined;
      while (!row?.platform) {
        if (Date.now() > deadline) throw new Error('the registered host never showed up as a server');
        await new Promise((r) => setTimeout(r, 100));
        row = await db
          .selectFrom('servers')
          .select(['host_key', 'platform'])
          .where('host_key', '=', 'web-01-example-com')
          .executeTakeFirst();
      }
      expect(row).toEqual({ host_key: 'web-01-example-com', platform: 'linux' });

      const status = await agent(['status', '--config', file, '--json']);
      expect(status.code).toBe(0);
      const report = JSON.parse(status.out) as AgentStatusReport;
      expect(report).toMatchObject({
        registered: true,
        running: true,
        api_url: apiUrl,
        host_key: 'web-01-example-com',
        api: { reachable: true, version: PRODUCT_VERSION },
      });
    } finally {
      stop.abort();
    }
    expect((await running).code).toBe(0);
  });
});
