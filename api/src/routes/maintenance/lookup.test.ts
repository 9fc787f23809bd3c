import { afterEach, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../db/migrate';
import { createServer } from '../../db/queries/servers';
import { createTestDatabase, type TestDatabase } from '../../db/testing';
import { createAccount } from '../auth/test-app';
import { createMaintenanceLookup } from './lookup';

const START_S = 1_800_000_000;

describe('maintenance lookup for the alert path', () => {
  let t: TestDatabase | undefined;
  afterEach(async () => {
    await t?.drop();
    t = undefined;
  });

  async function setup() {
    t = await createTestDatabase('sqlite');
    await migrateToLatest(t.db);
    const user = await createAccount(t.db, 'a@example.com', 'correct-horse-battery');
    const web = await createServer(t.db, user.customer_id, { host_key: 'web-1', hostname: 'web-1' });
    const other = await createServer(t.db, user.customer_id, { host_key: 'db-1', hostname: 'db-1' });
    const db = t.db;
    const add = async (values: {
      service?: string;
      approved?: number;
      all?: boolean;
      servers?: number[];
    }) => {
      const row = await db
        .insertInto('maintenance_windows')
        .values({
          customer_id: user.customer_id,
          all_servers: values.all ? 1 : 0,
          service: values.service ?? '',
          start_at: START_S,
          end_at: START_S + 3_600,
          until_at: null,
          last_end_at: START_S + 3_600,
          reason: `window ${values.service ?? 'server'}`,
          approved: values.approved ?? 1,
          created_by: null,
          created_at: START_S,
          finished_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (const server_id of values.servers ?? []) {
        await db
          .insertInto('maintenance_window_servers')
          .values({ customer_id: user.customer_id, window_id: row.id, server_id })
          .execute();
      }
      return row.id;
    };
    return { customerId: user.customer_id, web: web.id, other: other.id, add, db };
  }

  it('matches the server and service a window names, only while it runs and only when approved', async () => {
    const s = await setup();
    const lookup = createMaintenanceLookup(s.db);
    await s.add({ servers: [s.web], approved: 0 });
    const pg = await s.add({ servers: [s.web], service: 'postgresql' });
    const at = (START_S + 60) * 1000;
    expect(await lookup.activeWindowFor(s.customerId, s.web, 'postgresql', at)).toEqual({
      id: pg,
      reason: 'window postgresql',
    });
    // The server's own alerts and other services are not covered by a service's window.
    expect(await lookup.activeWindowFor(s.customerId, s.web, '', at)).toBeNull();
    expect(await lookup.activeWindowFor(s.customerId, s.web, 'mysql', at)).toBeNull();
    expect(await lookup.activeWindowFor(s.customerId, s.other, 'postgresql', at)).toBeNull();
    expect(
      await lookup.activeWindowFor(s.customerId, s.web, 'postgresql', (START_S + 3_600) * 1000),
    ).toBeNull();
    expect(await lookup.activeWindowFor(s.customerId + 1, s.web, 'postgresql', at)).toBeNull();
  });

  it('reuses what it read for a while, and reads again once told of a change', async () => {
    const s = await setup();
    let clock = 0;
    const lookup = createMaintenanceLookup(s.db, { ttlMs: 5_000, clockMs: () => clock });
    const at = (START_S + 60) * 1000;
    expect(await lookup.activeWindowFor(s.customerId, s.other, '', at)).toBeNull();
    const all = await s.add({ all: true });
    clock = 4_000;
    expect(await lookup.activeWindowFor(s.customerId, s.other, '', at)).toBeNull();
    clock = 5_000;
    expect((await lookup.activeWindowFor(s.customerId, s.other, '', at))?.id).toBe(all);
    await s.db.deleteFrom('maintenance_windows').where('id', '=', all).execute();
    lookup.changed(s.customerId);
    expect(await lookup.activeWindowFor(s.customerId, s.other, '', at)).toBeNull();
  });
});
