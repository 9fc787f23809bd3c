import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInProcessBus } from '@flightdeck/collector/bus';
import { createSqliteStore, type MetricStore } from '@flightdeck/collector/store';
import {
  AgentKeyData,
  AvailableGraphsData,
  BlockStatusData,
  ChartData,
  DiskStatusData,
  DisksData,
  GraphsByCategoryData,
  type Heartbeat,
  IngestData,
  LinuxStatusData,
  type MetricBatch,
  NetworkStatusData,
  okEnvelope,
  ProcessStatusData,
  ServerDetail,
  ServersListData,
  ServerVariablesData,
  SigninData,
} from '@flightdeck/schemas';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../app';
import { loadApiConfig } from '../../config';
import { migrateToLatest } from '../../db/migrate';
import { createTestDatabase, type TestDatabase } from '../../db/testing';
import { type HostRegistry, startHostRegistry } from '../../hosts/registry';
import { createAccount, expectError, expectOk } from '../auth/test-app';

const PASSWORD = 'correct-horse-battery';
const logger = pino({ level: 'silent' });

let t: TestDatabase;
let dir: string;
let store: MetricStore;
let bus: ReturnType<typeof createInProcessBus>;
let registry: HostRegistry;
let app: ReturnType<typeof createApp>;
const consumed: MetricBatch[] = [];
const tokens = { a: '', b: '' };
let tenantA = '';
let tenantB = '';
let agentKeyA = '';
let serverId = 0;
/** Unix ms of the samples written, a minute ago so a range ending now holds them. */
const T0 = (Math.floor(Date.now() / 60_000) - 5) * 60_000;

function post(path: string, body: unknown = {}, token = tokens.a, headers: Record<string, string> = {}) {
  return app.request(`/api${path}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

function ingest(body: unknown, key = agentKeyA) {
  return post('/ingest', body, key);
}

function batch(tenant: string, ts: number, samples: MetricBatch['samples']): MetricBatch {
  return { v: 1, tenant, host: 'web-1', source: 'agent', ts, samples };
}

function heartbeat(tenant: string, extra: Partial<Heartbeat> = {}): Heartbeat {
  return {
    v: 1,
    tenant,
    host: 'web-1',
    agent_version: '1.2.3',
    interval_s: 10,
    spool_depth: 0,
    spool_dropped: 0,
    ts: Date.now(),
    ...extra,
  };
}

async function waitFor(check: () => boolean | Promise<boolean>, what: string) {
  const deadline = Date.now() + 5_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function signin(email: string) {
  const res = await post('/signin', { email, password: PASSWORD }, '');
  return okEnvelope(SigninData).parse(await res.json()).data.token;
}

beforeAll(async () => {
  t = await createTestDatabase('sqlite');
  await migrateToLatest(t.db);
  dir = mkdtempSync(join(tmpdir(), 'fd-hosts-'));
  store = createSqliteStore({ path: join(dir, 'metrics.db') });
  bus = createInProcessBus({ logger });
  await bus.consumeMetrics(async (b) => {
    await store.write([b]);
    consumed.push(b);
  });
  registry = await startHostRegistry({ db: t.db, bus, logger });
  app = createApp({
    db: t.db,
    store,
    bus,
    config: loadApiConfig({ DATA_DIR: dir }),
    logger,
    version: '0.0.0-test',
  });
  const a = await createAccount(t.db, 'a@example.com', PASSWORD);
  const b = await createAccount(t.db, 'b@example.com', PASSWORD);
  tenantA = String(a.customer_id);
  tenantB = String(b.customer_id);
  tokens.a = await signin('a@example.com');
  tokens.b = await signin('b@example.com');
});

afterAll(async () => {
  await registry.stop();
  await bus.close();
  await store.close();
  await t.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe('agent access keys', () => {
  it('shows the full key only when it is made, and rotates on request', async () => {
    const first = await expectOk(await post('/workers/get_agent_key', {}), AgentKeyData);
    expect(first.data.key).toMatch(/^fdk_[A-Za-z0-9_-]{43}$/);
    expect(first.data.key_prefix).toBe(first.data.key!.slice(0, 8));
    const again = await expectOk(await post('/workers/get_agent_key', {}), AgentKeyData);
    expect(again.data).toMatchObject({ key: null, key_prefix: first.data.key_prefix });
    const stored = await t.db.selectFrom('agent_keys').select('key_hash').execute();
    expect(stored.map((r) => r.key_hash)).not.toContain(first.data.key);

    const rotated = await expectOk(await post('/workers/get_agent_key', { rotate: true }), AgentKeyData);
    expect(rotated.data.key).not.toBe(first.data.key);
    agentKeyA = rotated.data.key!;
    await expectError(await ingest({ batches: [] }, first.data.key!), 401, 'unauthorized');
    // Customer B gets its own key, never A's.
    const keyB = await expectOk(await post('/workers/get_agent_key', { name: 'b' }, tokens.b), AgentKeyData);
    expect(keyB.data.key_prefix).not.toBe(first.data.key_prefix);
  });

  it('needs a session', async () => {
    await expectError(await post('/workers/get_agent_key', {}, ''), 401, 'unauthorized');
  });
});

describe('POST /api/ingest', () => {
  it('publishes the batches of a good key; they reach the consumer and the store', async () => {
    const batches = [
      batch(tenantA, T0, [
        { m: 'cpu.user', v: 12.5 },
        { m: 'cpu.system', v: 3 },
        { m: 'cpu.total', v: 20 },
        { m: 'load.1m', v: 0.5 },
        { m: 'load.5m', v: 0.4 },
        { m: 'load.15m', v: 0.3 },
        { m: 'mem.total_bytes', v: 8e9 },
        { m: 'mem.used_bytes', v: 2e9 },
        { m: 'mem.used_pct', v: 25 },
        { m: 'swap.total_bytes', v: 1e9 },
        { m: 'swap.used_bytes', v: 0 },
        { m: 'system.uptime', v: 3600 },
        { m: 'proc.count', v: 180 },
        { m: 'disk.size_bytes', v: 100e9, l: { mount: '/' } },
        { m: 'disk.used_bytes', v: 40e9, l: { mount: '/' } },
        { m: 'disk.used_pct', v: 40, l: { mount: '/' } },
        { m: 'disk.inodes_total', v: 1000, l: { mount: '/' } },
        { m: 'disk.used_pct', v: 10, l: { mount: '/boot' } },
        { m: 'net.rx_bytes_rate', v: 1000, l: { interface: 'eth0' } },
        { m: 'net.tx_bytes_rate', v: 500, l: { interface: 'eth0' } },
        { m: 'net.rx_errors_rate', v: 0, l: { interface: 'eth0' } },
        { m: 'tcp.connections', v: 7, l: { state: 'established' } },
        { m: 'tcp.connections', v: 2, l: { state: 'listen' } },
        { m: 'disk_io.read_ops_rate', v: 30, l: { device: 'sda' } },
        { m: 'disk_io.busy_pct', v: 4, l: { device: 'sda' } },
      ]),
      batch(tenantA, T0 + 60_000, [
        { m: 'cpu.user', v: 14.5 },
        { m: 'cpu.total', v: 22 },
      ]),
    ];
    const inventory = {
      hostname: 'web-1.example.com',
      os: 'Debian GNU/Linux 12',
      kernel: '6.1.0',
      platform: 'linux' as const,
      architecture: 'x64',
      cores: 4,
      memory_bytes: 8e9,
      swap_bytes: 1e9,
      ips: ['10.0.0.5'],
    };
    const top = { pid: 1, user: 'root', command: 'init', cpu_pct: 1, mem_bytes: 1000 };
    const res = await ingest({
      batches,
      heartbeat: heartbeat(tenantA, { inventory, top_processes: { by_cpu: [top], by_memory: [top] } }),
    });
    expect(res.status).toBe(202);
    expect(okEnvelope(IngestData).parse(await res.json()).data).toEqual({ accepted: 2 });
    await waitFor(() => consumed.length === 2, 'the consumer');
    expect(consumed.map((b) => b.ts)).toEqual([T0, T0 + 60_000]);
    const latest = await store.latest({ tenant: tenantA, host: 'web-1', metric: 'cpu.user' });
    expect(latest.map((s) => s.value)).toEqual([14.5]);

    await registry.idle();
    const row = await t.db
      .selectFrom('servers')
      .selectAll()
      .where('host_key', '=', 'web-1')
      .executeTakeFirst();
    expect(row).toMatchObject({
      customer_id: Number(tenantA),
      hostname: 'web-1.example.com',
      platform: 'linux',
      cores: 4,
      agent_version: '1.2.3',
      interval_s: 10,
    });
    serverId = row!.id;
  });

  it('answers 401 to a wrong or missing key', async () => {
    await expectError(await ingest({ batches: [] }, 'fdk_wrong'), 401, 'unauthorized');
    await expectError(await ingest({ batches: [] }, tokens.a), 401, 'unauthorized');
    await expectError(await ingest({ batches: [] }, ''), 401, 'unauthorized');
  });

  it("answers 403 to another tenant's batch or heartbeat and publishes nothing", async () => {
    const before = consumed.length;
    const ok = batch(tenantA, T0, [{ m: 'cpu.user', v: 1 }]);
    await expectError(
      await ingest({ batches: [ok, batch(tenantB, T0, [{ m: 'cpu.user', v: 1 }])] }),
      403,
      'forbidden',
    );
    await expectError(await ingest({ batches: [], heartbeat: heartbeat(tenantB) }), 403, 'forbidden');
    await new Promise((r) => setTimeout(r, 20));
    expect(consumed.length).toBe(before);
  });

  it('answers 400 naming the field of a malformed batch', async () => {
    const bad = batch(tenantA, T0, [{ m: 'cpu.user', v: 1 }]);
    (bad.samples as unknown[]).push({ m: 'cpu.user', v: 'x' });
    const body = await expectError(
      await ingest({ batches: [batch(tenantA, T0, [{ m: 'cpu.user', v: 1 }]), bad] }),
      400,
      'invalid_batch',
    );
    expect(body.message).toContain('batches[1].samples[1].v');
    expect(body.path).toEqual(['batches', 1, 'samples', 1, 'v']);
    const tooMany = Array.from({ length: 101 }, () => batch(tenantA, T0, [{ m: 'cpu.user', v: 1 }]));
    await expectError(await ingest({ batches: tooMany }), 400, 'validation_failed');
  });
});

describe('server calls', () => {
  it('lists the registered server with its service, and only to its customer', async () => {
    const list = await expectOk(await post('/bot/servers/list'), ServersListData);
    expect(list.data).toEqual([
      expect.objectContaining({
        id: serverId,
        hostname: 'web-1.example.com',
        host_key: 'web-1',
        platform: 'linux',
        status: 'up',
        services: [expect.objectContaining({ service_code: 'linux', name: 'web-1.example.com' })],
      }),
    ]);
    const other = await expectOk(await post('/bot/servers/list', {}, tokens.b), ServersListData);
    expect(other.data).toEqual([]);
  });

  it('gets one server with its inventory; 404 for another customer', async () => {
    const got = await expectOk(await post('/bot/servers/get', { id: serverId }), ServerDetail);
    expect(got.data).toMatchObject({ kernel: '6.1.0', ips: ['10.0.0.5'], memory_bytes: 8e9, interval_s: 10 });
    await expectError(await post('/bot/servers/get', { id: serverId }, tokens.b), 404, 'not_found');
  });

  it('lists the graphs the host has data for, flat and by category', async () => {
    const graphs = await expectOk(
      await post('/bot/get_available_server_graphic', { server_id: serverId }),
      AvailableGraphsData,
    );
    const ids = graphs.data.map((g) => g.graph_id);
    expect(ids).toEqual(
      expect.arrayContaining([
        'cpu',
        'load',
        'memory',
        'filesystem',
        'network',
        'tcp',
        'disk_io',
        'processes',
        'uptime',
      ]),
    );
    expect(ids).not.toContain('mysql_threads');
    expect(graphs.data.find((g) => g.graph_id === 'cpu')).toEqual({
      graph_id: 'cpu',
      title: 'CPU usage',
      category: 'cpu',
      unit: 'percent',
    });
    const byCat = await expectOk(
      await post('/bot/get_available_server_graphic_by_category', { server_id: serverId }),
      GraphsByCategoryData,
    );
    expect(byCat.data.disk?.map((g) => g.graph_id)).toEqual([
      'filesystem',
      'filesystem_space',
      'filesystem_inodes',
      'disk_io',
      'disk_busy',
    ]);
    await expectError(
      await post('/bot/get_available_server_graphic', { server_id: serverId }, tokens.b),
      404,
      'not_found',
    );
  });

  it('answers the chart contract for cpu over a range with the written values', async () => {
    const start = T0 / 1000 - 60;
    const end = T0 / 1000 + 180;
    const res = await post('/bot/get_server_service_graphic_data', {
      graph_id: 'cpu',
      server_id: serverId,
      start,
      end,
    });
    const chart = await expectOk(res, ChartData);
    expect(chart.data.y_axis).toEqual(expect.arrayContaining(['cpu.user', 'cpu.system', 'cpu.total']));
    const user = chart.data.y_values['cpu.user']!.filter((v) => v !== null);
    expect(user).toEqual([12.5, 14.5]);
    expect(chart.data.x_values.length).toBe(chart.data.y_values['cpu.user']!.length);
    expect(chart.data.configs).toMatchObject({ suffix: '%', timer_task: 60, min: 0, max: 100 });

    const mem = await expectOk(
      await post('/bot/get_server_service_graphic_data', {
        graph_id: 'memory',
        server_id: serverId,
        start,
        end,
      }),
      ChartData,
    );
    expect(mem.data.configs.converted_value).toBe('bytes');
    // start >= end: a one-minute range from start.
    const empty = await expectOk(
      await post('/bot/get_server_service_graphic_data', {
        graph_id: 'cpu',
        server_id: serverId,
        start: end,
        end: end,
      }),
      ChartData,
    );
    expect(empty.data.y_values['cpu.user']?.every((v) => v === null) ?? true).toBe(true);

    const unknown = await expectError(
      await post('/bot/get_server_service_graphic_data', {
        graph_id: 'nope',
        server_id: serverId,
        start,
        end,
      }),
      404,
      'not_found',
    );
    expect(unknown.message).toContain('Unknown graph "nope"');
    await expectError(
      await post(
        '/bot/get_server_service_graphic_data',
        { graph_id: 'cpu', server_id: serverId, start, end },
        tokens.b,
      ),
      404,
      'not_found',
    );
  });
});

describe('linux status calls', () => {
  it('answers the latest tiles', async () => {
    const status = await expectOk(
      await post('/services_monitored/linux/get_status', { id: serverId }),
      LinuxStatusData,
    );
    expect(status.data).toMatchObject({
      status: 'up',
      cpu: { total_pct: 22, user_pct: 14.5, system_pct: 3, idle_pct: null },
      load: { m1: 0.5, m5: 0.4, m15: 0.3 },
      memory: { used_bytes: 2e9, total_bytes: 8e9, used_pct: 25 },
      swap: { used_bytes: 0, total_bytes: 1e9 },
      uptime_s: 3600,
      sampled_at: T0 / 1000 + 60,
    });
  });

  it('answers disks, processes, network, block devices and variables', async () => {
    const disks = await expectOk(
      await post('/services_monitored/linux/get_disk_status', { id: serverId }),
      DiskStatusData,
    );
    expect(disks.data).toEqual([
      expect.objectContaining({
        mount: '/',
        size_bytes: 100e9,
        used_bytes: 40e9,
        used_pct: 40,
        inodes_total: 1000,
      }),
      expect.objectContaining({ mount: '/boot', used_pct: 10, size_bytes: null }),
    ]);
    const mounts = await expectOk(
      await post('/services_monitored/linux/get_disks', { id: serverId }),
      DisksData,
    );
    expect(mounts.data.map((m) => m.mount)).toEqual(['/', '/boot']);

    const proc = await expectOk(
      await post('/services_monitored/linux/get_process_status', { id: serverId }),
      ProcessStatusData,
    );
    expect(proc.data).toMatchObject({ count: 180, by_cpu: [{ pid: 1, command: 'init' }] });

    const net = await expectOk(
      await post('/services_monitored/linux/get_network_status', { id: serverId }),
      NetworkStatusData,
    );
    expect(net.data.interfaces).toEqual([
      expect.objectContaining({
        interface: 'eth0',
        rx_bytes_rate: 1000,
        tx_bytes_rate: 500,
        rx_errors_rate: 0,
        rx_drops_rate: null,
      }),
    ]);
    expect(net.data.tcp).toEqual({ established: 7, listen: 2 });

    const block = await expectOk(
      await post('/services_monitored/linux/get_system_block_status', { id: serverId }),
      BlockStatusData,
    );
    expect(block.data).toEqual([expect.objectContaining({ device: 'sda', read_ops_rate: 30, busy_pct: 4 })]);

    const vars = await expectOk(
      await post('/services_monitored/linux/get_variables', { id: serverId }),
      ServerVariablesData,
    );
    expect(vars.data).toEqual(
      expect.arrayContaining([
        { name: 'hostname', value: 'web-1.example.com' },
        { name: 'kernel', value: '6.1.0' },
        { name: 'ips', value: '10.0.0.5' },
      ]),
    );
  });

  it('answers 404 to another customer on every call', async () => {
    for (const call of [
      'get_status',
      'get_disk_status',
      'get_process_status',
      'get_network_status',
      'get_system_block_status',
      'get_variables',
      'get_disks',
    ]) {
      await expectError(
        await post(`/services_monitored/linux/${call}`, { id: serverId }, tokens.b),
        404,
        'not_found',
      );
    }
  });
});
