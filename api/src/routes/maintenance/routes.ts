import {
  FutureMaintenancesRequest,
  ListMaintenanceRequest,
  type MaintenanceHistoricChartData,
  MaintenanceHistoricChartRequest,
  MaintenanceIdRequest,
  type MaintenanceItem,
  type MaintenanceListData,
  MaintenanceNewRequest,
  type MaintenanceRemoveData,
  type OkEnvelope,
} from '@flightdeck/schemas';
import { Hono } from 'hono';
import { requireSession } from '../../auth/middleware';
import type { AppDeps, AppEnv } from '../../env';
import { ApiError } from '../../errors';
import { jsonBody } from '../../http/body';
import { requireResource } from '../../plans/guards';
import { serverOr404 } from '../servers/shared';
import { maintenanceLookup } from './lookup';
import { occurrenceAt, stateAt, timingOf } from './occurrences';
import { createWindow, historicChart, listWindows, toItems, windowOr404 } from './queries';

/** The plan resource of the maintenance page (`/flightdeck/management/maintenance`). */
export const MAINTENANCE_RESOURCE = 'flightdeck.management.maintenance';

function ok<T>(data: T): OkEnvelope<T> {
  return { status: 'ok', data };
}

export interface MaintenanceRoutesOptions {
  /** Unix ms; what "now" is for the states and for finishing (tests move it). */
  now?: () => number;
}

/**
 * Maintenance windows (spec section 7, "Maintenance, scheduler, business"): create, finish early,
 * remove, the per-day chart, and the lists by state. Every call needs a session and sees only its
 * customer's windows; changing windows and the chart need the plan's maintenance page. A window
 * that starts or ends is seen by the alert path within MAINTENANCE_CACHE_TTL_MS (at once in this
 * process, whose lookup is told).
 */
export function maintenanceRoutes(deps: AppDeps, options: MaintenanceRoutesOptions = {}) {
  const { db } = deps;
  const nowS = () => Math.floor((options.now ?? Date.now)() / 1000);
  const session = requireSession(db);
  const plan = requireResource(db, MAINTENANCE_RESOURCE);
  const lookup = maintenanceLookup(db);

  return new Hono<AppEnv>()
    .post('/maintenance/new2', session, plan, jsonBody(MaintenanceNewRequest), async (c) => {
      const { customerId, userId } = c.get('session');
      const row = await createWindow(db, customerId, userId, c.req.valid('json'), nowS());
      lookup.changed(customerId);
      const [item] = await toItems(db, customerId, [row], nowS());
      return c.json(ok<MaintenanceItem>(item!));
    })
    .post('/maintenance/finish', session, plan, jsonBody(MaintenanceIdRequest), async (c) => {
      const { customerId } = c.get('session');
      const row = await windowOr404(db, customerId, c.req.valid('json').id);
      const now = nowS();
      if (!occurrenceAt(timingOf(row), now)) {
        throw ApiError.of(
          'conflict',
          'This maintenance window is not running now, so it cannot be finished; remove it instead.',
        );
      }
      const updated = await db
        .updateTable('maintenance_windows')
        .set({ finished_at: now, last_end_at: now })
        .where('customer_id', '=', customerId)
        .where('id', '=', row.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      lookup.changed(customerId);
      const [item] = await toItems(db, customerId, [updated], now);
      return c.json(ok<MaintenanceItem>(item!));
    })
    .post('/maintenance/remove', session, plan, jsonBody(MaintenanceIdRequest), async (c) => {
      const { customerId } = c.get('session');
      const row = await windowOr404(db, customerId, c.req.valid('json').id);
      if (stateAt(timingOf(row), nowS()).status === 'active') {
        throw ApiError.of(
          'conflict',
          'This maintenance window is running now; finish it first, then remove it.',
        );
      }
      await db
        .deleteFrom('maintenance_windows')
        .where('customer_id', '=', customerId)
        .where('id', '=', row.id)
        .execute();
      lookup.changed(customerId);
      return c.json(ok<MaintenanceRemoveData>({ id: row.id, removed: true }));
    })
    .post(
      '/maintenance/get_historic_chart',
      session,
      plan,
      jsonBody(MaintenanceHistoricChartRequest),
      async (c) => {
        const { customerId } = c.get('session');
        const days = await historicChart(db, customerId, c.req.valid('json'), nowS());
        return c.json(ok<MaintenanceHistoricChartData>({ days }));
      },
    )
    .post('/bot/list_maintenance', session, jsonBody(ListMaintenanceRequest), async (c) => {
      const { customerId } = c.get('session');
      const { status } = c.req.valid('json');
      const data = await listWindows(db, customerId, nowS(), status ? { status } : {});
      return c.json(ok<MaintenanceListData>(data));
    })
    .post('/services/future_maintenances', session, jsonBody(FutureMaintenancesRequest), async (c) => {
      const { customerId } = c.get('session');
      const { server_id } = c.req.valid('json');
      if (server_id !== undefined) await serverOr404(db, customerId, server_id);
      const data = await listWindows(db, customerId, nowS(), {
        status: 'scheduled',
        ...(server_id !== undefined ? { serverId: server_id } : {}),
      });
      return c.json(ok<MaintenanceListData>(data));
    });
}
