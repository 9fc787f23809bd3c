import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createApp,
  createDb,
  type Db,
  ensureSystemAdmin,
  loadApiConfig,
  migrateToLatest,
} from '@flightdeck/api';
import { createInProcessBus } from '@flightdeck/collector/bus';
import { createMetricStore, type MetricStore } from '@flightdeck/collector/store';
import { ChartData, okEnvelope, ServersListData, SigninData } from '@flightdeck/schemas';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DemoDataResult, fillDemoData } from './fill';

const ADMIN = { email: 'demo@example.com', password: 'demo-password-1' };
const DAY_S = 86_400;
const logger = pino({ level: 'silent' });

let dir: string;
let db: Db;
let store: MetricStore;
let tenant: string;
let result: DemoDataResult;
let app: ReturnType<typeof createApp>;
let token: string;

async function post(path: string, body: unknown): Promise<unknown> {
  const res = await app.request(`/api${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  expect(res.status, path).toBe(200);
  return res.json();
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fd-demo-data-'));
  // The same configuration `npm start` reads: the metadata DB and metric store under DATA_DIR.
  const config = loadApiConfig({
    DATA_DIR: dir,
    FLIGHTDECK_ADMIN_EMAIL: ADMIN.email,
    FLIGHTDECK_ADMIN_PASSWORD: ADMIN.password,
  });
  db = createDb(config.DATABASE_URL);
  await migrateToLatest(db);
  await ensureSystemAdmin(db, { email: ADMIN.email, password: ADMIN.password });
  const customer = await db.selectFrom('customers').select('id').executeTakeFirstOrThrow();
  tenant = String(customer.id);
  store = await createMetricStore(config.METRICS_STORE);
  // Five-minute samples keep the week small; the chart reads the same tables as at one minute.
  result = await fillDemoData({
    store,
    db,
    logger,
    hosts: 3,
    days: 7,
    intervalSeconds: 300,
    seed: 5,
    tenant,
  });
  app = createApp({ db, store, bus: createInProcessBus(), config, logger, version: 'test' });
  const signin = await app.request('/api/signin', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  token = okEnvelope(SigninData).parse(await signin.json()).data.token;
});

afterAll(async () => {
  await store?.close();
  await db?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe('fillDemoData', () => {
  it('writes a week for every host and counts what it wrote', () => {
    const { plan } = result;
    expect(plan.hosts.map((h) => h.key)).toEqual(['web-01', 'db-01', 'batch-01']);
    expect(plan.ticks).toBe((7 * DAY_S) / 300);
    expect(result.batches).toBeGreaterThan(3 * plan.ticks - 5);
    // web-01: 30 CPU, 3 load, 10 memory, 16 file system, 5 disk I/O, 8 network, 11 TCP, 4 process series.
    expect(result.series).toBeGreaterThan(3 * 80);
    expect(result.samples).toBeGreaterThan(result.series * (plan.ticks - 5));
  });

  it('registers the hosts as the customer servers the console lists, with their inventory', async () => {
    expect(result.registered).toEqual(['web-01', 'db-01', 'batch-01']);
    const list = okEnvelope(ServersListData).parse(await post('/bot/servers/list', {})).data;
    const web = list.find((s) => s.host_key === 'web-01');
    expect(web).toMatchObject({
      hostname: 'web-01.demo.internal',
      platform: 'linux',
      os: 'Debian GNU/Linux 12 (bookworm)',
      status: 'up',
    });
    expect(web?.services.map((s) => s.service_code)).toEqual(['linux']);
    expect(list.map((s) => s.host_key).sort()).toEqual(['batch-01', 'db-01', 'web-01']);
  });

  it('answers the server chart over the whole week', async () => {
    const list = okEnvelope(ServersListData).parse(await post('/bot/servers/list', {})).data;
    const db1 = list.find((s) => s.host_key === 'db-01')!;
    const end = Math.floor(result.plan.end / 1000);
    const chart = okEnvelope(ChartData).parse(
      await post('/bot/get_server_service_graphic_data', {
        server_id: db1.id,
        graph_id: 'cpu',
        start: end - 7 * DAY_S,
        end,
      }),
    ).data;
    const total = chart.y_values['cpu.total']!;
    expect(chart.y_axis).toContain('cpu.iowait{core=3}');
    expect(total.length).toBeGreaterThan(100);
    const filled = total.filter((v) => v !== null).length;
    // Only the reboot leaves a gap.
    expect(filled / total.length).toBeGreaterThan(0.97);
    expect(total[1]).not.toBeNull();
    expect(total.at(-2)).not.toBeNull();

    const disks = await store.query({
      series: [{ tenant, host: 'db-01', metric: 'disk.used_pct' }],
      start: end - 7 * DAY_S,
      end,
    });
    expect(disks.y_axis.sort()).toEqual([
      'disk.used_pct{mount=/backup}',
      'disk.used_pct{mount=/var/lib/postgresql}',
      'disk.used_pct{mount=/}',
    ]);
  });

  it('refuses a tenant that is no customer before it writes anything', async () => {
    await expect(
      fillDemoData({ store, db, logger, hosts: 1, days: 1, intervalSeconds: 600, tenant: '999' }),
    ).rejects.toThrow(/tenant 999: no customer/);
    expect(await store.latest({ tenant: '999', host: 'web-01', metric: 'cpu.total' })).toEqual([]);
  });
});
