import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Bus, createInProcessBus } from '@flightdeck/collector/bus';
import { createSqliteStore, type MetricStore } from '@flightdeck/collector/store';
import {
  MaintenanceHistoricChartData,
  MaintenanceItem,
  MaintenanceListData,
  MaintenanceRemoveData,
  SigninData,
} from '@flightdeck/schemas';
import { Hono } from 'hono';
import { requestId } from 'hono/request-id';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../app';
import { loadApiConfig } from '../../config';
import type { Engine } from '../../db/kysely';
import { migrateToLatest } from '../../db/migrate';
import { createServer } from '../../db/queries/servers';
import { createTestDatabase, type TestDatabase } from '../../db/testing';
import type { AppDeps, AppEnv } from '../../env';
import { errorHandler } from '../../errors';
import { createAccount, expectError, expectOk } from '../auth/test-app';
import { maintenanceRoutes } from './routes';

const PASSWORD = 'correct-horse-battery';
const HOUR = 3_600;
const DAY = 86_400;
/** 2024-01-01 00:00 UTC, a Monday. */
const MONDAY = 1_704_067_200;

interface Customer {
  token: string;
  serverId: number;
  otherServerId: number;
}

/**
 * The maintenance calls through `app.request()` on one metadata DB engine, with the clock of the
 * calls set by each test: windows are created, listed by state as time passes, finished, removed
 * and charted; recurring ones repeat daily or on days of the week.
 */
export function maintenanceRoutesSuite(engine: Engine) {
  describe(`maintenance windows on ${engine}`, () => {
    let t: TestDatabase;
    let dir: string;
    let store: MetricStore;
    let bus: Bus;
    let app: Hono<AppEnv>;
    let a: Customer;
    let b: Customer;
    let clock = MONDAY;

    async function customer(signin: ReturnType<typeof createApp>, email: string, granted: boolean) {
      const user = await createAccount(t.db, email, PASSWORD);
      if (granted) {
        const c = await t.db
          .selectFrom('customers')
          .select('plan_id')
          .where('id', '=', user.customer_id)
          .executeTakeFirstOrThrow();
        await t.db
          .updateTable('plans')
          .set({ resources: JSON.stringify({ flightdeck: { management: { maintenance: 1 } } }) })
          .where('id', '=', c.plan_id)
          .execute();
      }
      const web = await createServer(t.db, user.customer_id, { host_key: 'web-1', hostname: 'web-1' });
      const db = await createServer(t.db, user.customer_id, { host_key: 'db-1', hostname: 'db-1' });
      const res = await signin.request('/api/signin', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email, password: PASSWORD }),
      });
      const { token } = (await expectOk(res, SigninData)).data;
      return { token, serverId: web.id, otherServerId: db.id };
    }

    const call = (path: string, body: unknown, at: number, token = a.token) => {
      clock = at;
      return Promise.resolve(
        app.request(`/api${path}`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        }),
      );
    };
    const create = async (body: object, at = MONDAY) =>
      (await expectOk(await call('/maintenance/new2', body, at), MaintenanceItem)).data;
    const list = async (at: number, status?: string, token?: string) =>
      (
        await expectOk(
          await call('/bot/list_maintenance', status ? { status } : {}, at, token),
          MaintenanceListData,
        )
      ).data;
    const remove = (id: number, at: number) => call('/maintenance/remove', { id }, at);

    beforeAll(async () => {
      t = await createTestDatabase(engine);
      await migrateToLatest(t.db);
      dir = mkdtempSync(join(tmpdir(), 'fd-maintenance-'));
      store = createSqliteStore({ path: join(dir, 'metrics.db') });
      const logger = pino({ level: process.env.FD_TEST_LOG ?? 'silent' });
      bus = createInProcessBus({ logger });
      const deps: AppDeps = {
        db: t.db,
        store,
        bus,
        config: loadApiConfig({ DATA_DIR: dir }),
        logger,
        version: '0.0.0-test',
      };
      const signin = createApp(deps);
      a = await customer(signin, 'a@example.com', true);
      b = await customer(signin, 'b@example.com', false);
      app = new Hono<AppEnv>();
      app.use('*', requestId());
      app.onError(errorHandler(logger));
      app.route('/api', maintenanceRoutes(deps, { now: () => clock * 1000 }));
    });
    afterAll(async () => {
      await bus?.close();
      await store?.close();
      await t?.drop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('lists a one-off window as scheduled, active, then historic as time passes', async () => {
      const start = MONDAY + 2 * HOUR;
      const w = await create({
        server_ids: [a.serverId],
        service: 'postgresql',
        start,
        duration: HOUR,
        reason: 'Minor version upgrade',
        approved: true,
      });
      expect(w).toMatchObject({
        all_servers: false,
        servers: [{ id: a.serverId, name: 'web-1' }],
        service: 'postgresql',
        start,
        end: start + HOUR,
        recurrence: { kind: 'none' },
        approved: true,
        status: 'scheduled',
        occurrence: { start, end: start + HOUR },
        created_by: { name: 'Test User' },
        finished_at: null,
      });

      expect((await list(MONDAY, 'scheduled')).map((i) => i.id)).toContain(w.id);
      const future = await call('/services/future_maintenances', { server_id: a.serverId }, MONDAY);
      expect((await expectOk(future, MaintenanceListData)).data.map((i) => i.id)).toContain(w.id);
      const elsewhere = await call('/services/future_maintenances', { server_id: a.otherServerId }, MONDAY);
      expect((await expectOk(elsewhere, MaintenanceListData)).data.map((i) => i.id)).not.toContain(w.id);

      const during = await list(start + 10, 'active');
      expect(during.find((i) => i.id === w.id)).toMatchObject({ status: 'active' });
      expect((await list(start + 10, 'scheduled')).map((i) => i.id)).not.toContain(w.id);

      const after = await list(start + HOUR, 'historic');
      expect(after.find((i) => i.id === w.id)).toMatchObject({
        status: 'historic',
        occurrence: { start, end: start + HOUR },
      });
      expect((await list(start + HOUR)).find((i) => i.id === w.id)?.status).toBe('historic');
      // Another customer sees none of it.
      expect(await list(start + 10, undefined, b.token)).toEqual([]);
      await expectOk(await remove(w.id, start + HOUR), MaintenanceRemoveData);
    });

    it('refuses windows that end before they start, last over 30 days or name unknown servers', async () => {
      const base = { server_ids: [a.serverId], start: MONDAY, reason: 'Patching', approved: true };
      let err = await expectError(
        await call('/maintenance/new2', { ...base, end: MONDAY - 60 }, MONDAY),
        400,
        'validation_failed',
      );
      expect(err.message).toContain('the end must be after the start');
      err = await expectError(
        await call('/maintenance/new2', { ...base, duration: 31 * DAY }, MONDAY),
        400,
        'validation_failed',
      );
      expect(err.message).toContain('at most 30 days');
      err = await expectError(await call('/maintenance/new2', { ...base }, MONDAY), 400, 'validation_failed');
      expect(err.message).toContain('either an end or a duration');
      err = await expectError(
        await call('/maintenance/new2', { ...base, end: MONDAY + HOUR, reason: ' ' }, MONDAY),
        400,
        'validation_failed',
      );
      expect(err.message).toContain('reason');
      err = await expectError(
        await call(
          '/maintenance/new2',
          { ...base, duration: 2 * DAY, recurrence: { kind: 'daily', until: null } },
          MONDAY,
        ),
        400,
        'validation_failed',
      );
      expect(err.message).toContain('at most 24 hours');
      err = await expectError(
        await call(
          '/maintenance/new2',
          // Monday start, Friday only, repeating until Tuesday: no occurrence at all.
          { ...base, duration: HOUR, recurrence: { kind: 'weekly', days: [5], until: MONDAY + DAY } },
          MONDAY,
        ),
        400,
        'validation_failed',
      );
      expect(err.message).toContain('days of the week');
      err = await expectError(
        await call(
          '/maintenance/new2',
          { ...base, server_ids: [a.serverId, b.serverId], duration: HOUR },
          MONDAY,
        ),
        404,
        'not_found',
      );
      expect(err.message).toContain(String(b.serverId));
      await expectError(
        await call('/maintenance/new2', { ...base, duration: HOUR }, MONDAY, b.token),
        403,
        'plan_gated',
      );
      await expectError(
        await call('/services/future_maintenances', { server_id: b.serverId }, MONDAY),
        404,
        'not_found',
      );
      expect(await list(MONDAY)).toEqual([]);
    });

    it('finishes a running window now, and removes only what is not running', async () => {
      const start = MONDAY + 10 * HOUR;
      const w = await create({
        server_ids: 'all',
        start,
        end: start + 4 * HOUR,
        reason: 'Rack move',
        approved: true,
      });
      expect(w).toMatchObject({ all_servers: true, servers: [], service: null });
      await expectError(await call('/maintenance/finish', { id: w.id }, start - 60), 409, 'conflict');
      await expectError(await remove(w.id, start + 60), 409, 'conflict');

      const finished = (
        await expectOk(await call('/maintenance/finish', { id: w.id }, start + HOUR), MaintenanceItem)
      ).data;
      expect(finished).toMatchObject({
        status: 'historic',
        finished_at: start + HOUR,
        occurrence: { start, end: start + HOUR },
      });
      expect((await list(start + HOUR + 1, 'active')).map((i) => i.id)).not.toContain(w.id);
      await expectError(await call('/maintenance/finish', { id: w.id }, start + HOUR + 1), 409, 'conflict');
      await expectError(
        await call('/maintenance/finish', { id: w.id }, start + HOUR + 1, b.token),
        403,
        'plan_gated',
      );

      const later = await create({
        server_ids: [a.serverId],
        start: start + DAY,
        duration: HOUR,
        reason: 'Later',
        approved: false,
      });
      expect(later).toMatchObject({ approved: false, status: 'scheduled' });
      expect((await expectOk(await remove(later.id, start + 2 * HOUR), MaintenanceRemoveData)).data).toEqual({
        id: later.id,
        removed: true,
      });
      expect((await expectOk(await remove(w.id, start + 2 * HOUR), MaintenanceRemoveData)).data.removed).toBe(
        true,
      );
      await expectError(await remove(w.id, start + 2 * HOUR), 404, 'not_found');
      expect(await list(start + 2 * HOUR)).toEqual([]);
    });

    it('repeats a daily window at the same time each day until it is finished', async () => {
      const start = MONDAY + 2 * HOUR;
      const w = await create({
        server_ids: [a.serverId, a.otherServerId],
        start,
        duration: 30 * 60,
        reason: 'Nightly backup',
        recurrence: { kind: 'daily' },
        approved: true,
      });
      expect(w.servers.map((s) => s.name)).toEqual(['web-1', 'db-1']);
      const day5 = MONDAY + 5 * DAY;
      expect((await list(day5 + 2 * HOUR + 600, 'active'))[0]).toMatchObject({
        id: w.id,
        occurrence: { start: day5 + 2 * HOUR, end: day5 + 2 * HOUR + 1800 },
      });
      expect((await list(day5 + 3 * HOUR, 'scheduled'))[0]).toMatchObject({
        id: w.id,
        occurrence: { start: day5 + DAY + 2 * HOUR },
      });
      await expectOk(
        await call('/maintenance/finish', { id: w.id }, day5 + DAY + 2 * HOUR + 60),
        MaintenanceItem,
      );
      expect(await list(day5 + 3 * DAY, 'scheduled')).toEqual([]);
      expect((await list(day5 + 3 * DAY, 'historic'))[0]).toMatchObject({
        id: w.id,
        occurrence: { start: day5 + DAY + 2 * HOUR, end: day5 + DAY + 2 * HOUR + 60 },
      });
      await expectOk(await remove(w.id, day5 + 3 * DAY), MaintenanceRemoveData);
    });

    it('repeats a weekly window on the chosen days of the week until the last date', async () => {
      // Mondays and Wednesdays 22:00 to 24:00 UTC, for two weeks.
      const start = MONDAY + 22 * HOUR;
      const w = await create({
        server_ids: [a.serverId],
        start,
        end: start + 2 * HOUR,
        reason: 'Index rebuild',
        recurrence: { kind: 'weekly', days: [3, 1], until: MONDAY + 14 * DAY },
        approved: true,
      });
      expect(w.recurrence).toEqual({ kind: 'weekly', days: [1, 3], until: MONDAY + 14 * DAY });
      const wednesday = MONDAY + 2 * DAY;
      expect((await list(MONDAY + DAY + 12 * HOUR, 'scheduled'))[0]?.occurrence).toEqual({
        start: wednesday + 22 * HOUR,
        end: wednesday + 24 * HOUR,
      });
      expect((await list(wednesday + 23 * HOUR, 'active'))[0]?.id).toBe(w.id);
      // Thursday to Sunday: the next one is the following Monday.
      expect((await list(MONDAY + 4 * DAY, 'scheduled'))[0]?.occurrence?.start).toBe(
        MONDAY + 7 * DAY + 22 * HOUR,
      );
      // The Monday after two weeks starts after the last date: the second Wednesday was the last.
      expect((await list(MONDAY + 11 * DAY, 'historic'))[0]).toMatchObject({
        id: w.id,
        occurrence: { start: MONDAY + 9 * DAY + 22 * HOUR, end: MONDAY + 10 * DAY },
      });
      await expectOk(await remove(w.id, MONDAY + 11 * DAY), MaintenanceRemoveData);

      // A weekly window starting on a day it does not list first runs on the next listed day.
      const friday = await create({
        server_ids: [a.serverId],
        start: MONDAY + 8 * HOUR,
        duration: HOUR,
        reason: 'Friday patching',
        recurrence: { kind: 'weekly', days: [5] },
        approved: true,
      });
      expect(friday.occurrence).toEqual({
        start: MONDAY + 4 * DAY + 8 * HOUR,
        end: MONDAY + 4 * DAY + 9 * HOUR,
      });
      expect(friday.status).toBe('scheduled');
      await expectOk(await remove(friday.id, MONDAY), MaintenanceRemoveData);
    });

    it('charts approved maintenance per day, counting overlapping windows once in the minutes', async () => {
      const base = { server_ids: [a.serverId], approved: true, reason: 'Chart' };
      // Day 0 23:00 to day 1 01:00, and day 0 23:30 to 23:45 inside it.
      const across = await create({ ...base, start: MONDAY + 23 * HOUR, duration: 2 * HOUR });
      const inside = await create({ ...base, start: MONDAY + 23 * HOUR + 1800, duration: 900 });
      // Daily 12:00 to 12:10 from day 1.
      const daily = await create({
        ...base,
        start: MONDAY + DAY + 12 * HOUR,
        duration: 600,
        recurrence: { kind: 'daily', until: MONDAY + 10 * DAY },
      });
      const unapproved = await create({
        ...base,
        approved: false,
        start: MONDAY + 2 * DAY,
        duration: 6 * HOUR,
      });

      const chart = async (at: number) =>
        (
          await expectOk(
            await call('/maintenance/get_historic_chart', { start: MONDAY, end: MONDAY + 3 * DAY }, at),
            MaintenanceHistoricChartData,
          )
        ).data.days;
      expect(await chart(MONDAY + 3 * DAY)).toEqual([
        { day: MONDAY, windows: 2, minutes: 60 },
        { day: MONDAY + DAY, windows: 2, minutes: 70 },
        { day: MONDAY + 2 * DAY, windows: 1, minutes: 10 },
      ]);
      // What has not happened yet is not charted.
      expect((await chart(MONDAY + 2 * DAY + 12 * HOUR + 300))[2]).toEqual({
        day: MONDAY + 2 * DAY,
        windows: 1,
        minutes: 5,
      });
      await expectError(
        await call('/maintenance/get_historic_chart', { start: MONDAY, end: MONDAY - 1 }, MONDAY),
        400,
        'validation_failed',
      );
      await expectError(
        await call('/maintenance/get_historic_chart', { start: MONDAY, end: MONDAY + 400 * DAY }, MONDAY),
        400,
        'validation_failed',
      );
      for (const w of [across, inside, daily, unapproved]) {
        await expectOk(await remove(w.id, MONDAY + 20 * DAY), MaintenanceRemoveData);
      }
    });
  });
}
