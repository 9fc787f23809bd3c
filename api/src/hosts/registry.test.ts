import { createInProcessBus } from '@flightdeck/collector/bus';
import type { Heartbeat } from '@flightdeck/schemas';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../db/migrate';
import { createCustomer } from '../db/queries/customers';
import { createPlan } from '../db/queries/plans';
import { createTestDatabase, type TestDatabase } from '../db/testing';
import { HOST_WRITE_INTERVAL_MS, type HostRegistry, startHostRegistry, TopProcessCache } from './registry';

const inventory = {
  hostname: 'db-1',
  os: 'Windows Server 2022',
  platform: 'windows' as const,
  architecture: 'x64',
  cores: 8,
  memory_bytes: 16e9,
  swap_bytes: 2e9,
  ips: ['10.0.0.9'],
};

describe('host registry', () => {
  let t: TestDatabase;
  let bus: ReturnType<typeof createInProcessBus>;
  let registry: HostRegistry;
  let nowMs = 1_700_000_000_000;
  let tenant = '';
  const logs: string[] = [];
  const processes = new TopProcessCache();

  function hb(extra: Partial<Heartbeat> = {}): Heartbeat {
    return {
      v: 1,
      tenant,
      host: 'db-1',
      agent_version: '1.0.0',
      interval_s: 30,
      spool_depth: 0,
      spool_dropped: 0,
      ts: nowMs,
      ...extra,
    };
  }
  async function send(h: Heartbeat) {
    await bus.publishHeartbeat(h);
    await new Promise((r) => setTimeout(r, 5));
    await registry.idle();
  }
  const server = () =>
    t.db.selectFrom('servers').selectAll().where('host_key', '=', 'db-1').executeTakeFirst();

  beforeEach(async () => {
    t = await createTestDatabase('sqlite');
    await migrateToLatest(t.db);
    const plan = await createPlan(t.db, {
      name: 'p',
      lifetime_days: null,
      user_limit: null,
      max_servers: null,
      max_services: null,
      data_retention_days: null,
      concurrent_sessions: null,
      instance_quantity: null,
    });
    tenant = String((await createCustomer(t.db, { name: 'c', plan_id: plan.id })).id);
    bus = createInProcessBus({ logger: pino({ level: 'silent' }) });
    logs.length = 0;
    const logger = pino({ level: 'info' }, { write: (l: string) => void logs.push(l) });
    registry = await startHostRegistry({ db: t.db, bus, logger, processes, now: () => nowMs });
  });
  afterEach(async () => {
    await registry.stop();
    await bus.close();
    await t.drop();
  });

  it('registers a Windows host with its inventory and a windows service', async () => {
    await send(hb({ inventory }));
    expect(await server()).toMatchObject({
      hostname: 'db-1',
      os: 'Windows Server 2022',
      platform: 'windows',
      cores: 8,
    });
    const services = await t.db.selectFrom('services').selectAll().execute();
    expect(services.map((s) => [s.service_code, s.name])).toEqual([['windows', 'db-1']]);
  });

  it('writes at most once per 30 s unless the inventory changed', async () => {
    await send(hb({ inventory }));
    const first = (await server())!.last_seen_at;
    nowMs += 10_000;
    await send(hb());
    expect((await server())!.last_seen_at).toBe(first);
    nowMs += 1_000;
    await send(hb({ inventory: { ...inventory, cores: 16 } }));
    expect(await server()).toMatchObject({ cores: 16, last_seen_at: first! + 11 });
    nowMs += HOST_WRITE_INTERVAL_MS;
    await send(hb());
    expect((await server())!.last_seen_at).toBe(first! + 41);
    expect(await t.db.selectFrom('services').selectAll().execute()).toHaveLength(1);
  });

  it('keeps the newest top processes in memory', async () => {
    const p = { pid: 7, user: 'sql', command: 'sqlservr', cpu_pct: 50, mem_bytes: 1e9 };
    await send(hb({ top_processes: { by_cpu: [p], by_memory: [] } }));
    expect(processes.get(tenant, 'db-1')?.by_cpu).toEqual([p]);
  });

  it('ignores an unknown tenant with one warning per host', async () => {
    await send(hb({ tenant: '999' }));
    nowMs += HOST_WRITE_INTERVAL_MS;
    await send(hb({ tenant: '999' }));
    await send(hb({ tenant: 'not-a-number', host: 'x' }));
    expect(await t.db.selectFrom('servers').selectAll().execute()).toEqual([]);
    const warnings = logs.filter((l) => l.includes('unknown tenant'));
    expect(warnings).toHaveLength(2);
  });
});
