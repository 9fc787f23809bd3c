import {
  type AlertCountData,
  AlertHistoricRequest,
  type AlertHistoryRow,
  type AlertItem,
  type AlertListData,
  type AlterThresholdData,
  AlterThresholdRequest,
  DefinedThresholdRequest,
  DynamicThresholdRequest,
  type GetThresholdsServerData,
  GetThresholdsServerRequest,
  type ListSpecificDiskConfigData,
  ListSpecificDiskConfigRequest,
  type OkEnvelope,
  type ServerAlertHistoricData,
  ServerAlertHistoricRequest,
  SetAcknowledgeRequest,
  SPECIFIC_DISK_METRIC,
  type SpecificDiskConfig,
  type Threshold,
  UpdateSpecificDiskConfigRequest,
} from '@flightdeck/schemas';
import { Hono } from 'hono';
import { requireSession } from '../../auth/middleware';
import { unixNow } from '../../clock';
import type { Db } from '../../db/kysely';
import type { AlertThresholdRow } from '../../db/types';
import type { AppDeps, AppEnv } from '../../env';
import { ApiError } from '../../errors';
import { jsonBody } from '../../http/body';
import { requireResource } from '../../plans/guards';
import { serverOr404 } from '../servers/shared';
import { type AlertCore, createAlertCore } from './book';
import { alertCallRoutes } from './calls';
import { dynamicThresholdRoutes } from './dynamic';
import { createEventHub, eventStream } from './events';
import { emailIntegrationRoutes } from './integrations';
import { mttxRoutes } from './mttx';
import { muteRoutes } from './mutes';
import { alertHistory, countAlerts, listAlertGroups, serverAlertHistoric } from './queries';
import type { AlertService } from './service';
import {
  nextStamp,
  type SavedThreshold,
  saveDefinedThreshold,
  saveDynamicThreshold,
  serverThresholds,
  shadowedBy,
  thresholdOr404,
  toThreshold,
} from './thresholds';

/** The plan resource of the thresholds page (`/flightdeck/management/thresholds`). */
export const THRESHOLDS_RESOURCE = 'flightdeck.management.thresholds';

const ALERTS = '/services_monitored/alerts';

function ok<T>(data: T): OkEnvelope<T> {
  return { status: 'ok', data };
}

/** What the routes drive: the process's alert service, or without one the core alone (no notifications). */
type AlertActions = AlertCore & Pick<AlertService, 'rulesChanged'>;

function actionsOf(deps: AppDeps): AlertActions {
  if (deps.alerts) return deps.alerts;
  const core = createAlertCore({
    db: deps.db,
    bus: deps.bus,
    logger: deps.logger,
    queue: null,
    publicUrl: deps.config.PUBLIC_URL ?? `http://localhost:${deps.config.PORT}`,
  });
  return { ...core, rulesChanged: () => core.thresholdsChanged() };
}

/** Resolves what a saved threshold leaves behind, then tells the collectors. */
async function afterSave(db: Db, alerts: AlertActions, saved: SavedThreshold, before?: AlertThresholdRow) {
  const row = saved.row;
  if (row.enabled !== 1) {
    await alerts.resolveOpen(row.customer_id, [row.id], 'threshold_disabled');
  } else if (saved.seriesChanged && before) {
    await alerts.resolveOpen(row.customer_id, [row.id], 'threshold_changed');
  }
  if (row.server_id !== null && row.enabled === 1) {
    const server = await serverOr404(db, row.customer_id, row.server_id);
    await alerts.resolveOpen(row.customer_id, await shadowedBy(db, row), 'overridden', server.host_key);
  }
  alerts.rulesChanged();
}

/**
 * Alerts and thresholds (spec section 7): thresholds per server and for all servers, the open
 * alerts by server (the master warning list and the chip), acknowledgements, history, the live
 * event stream (`GET /events`) and the e-mail integration. Every call needs a session and sees
 * only its customer's rows; the threshold calls also need the plan resource of the thresholds page.
 */
export function alertRoutes(deps: AppDeps) {
  const { db } = deps;
  const session = requireSession(db);
  const thresholdsPlan = requireResource(db, THRESHOLDS_RESOURCE);
  const alerts = actionsOf(deps);
  const hub = createEventHub(deps.bus, deps.logger);

  return new Hono<AppEnv>()
    .post(
      '/server/get_thresholds_server',
      session,
      thresholdsPlan,
      jsonBody(GetThresholdsServerRequest),
      async (c) => {
        const { customerId } = c.get('session');
        const { server_id } = c.req.valid('json');
        const server = await serverOr404(db, customerId, server_id);
        const data: GetThresholdsServerData = {
          server_id: server.id,
          server_name: server.name ?? server.hostname,
          thresholds: await serverThresholds(db, customerId, server.id),
        };
        return c.json(ok(data));
      },
    )
    .post(
      `${ALERTS}/defined_threshold`,
      session,
      thresholdsPlan,
      jsonBody(DefinedThresholdRequest),
      async (c) => {
        const { customerId, userId } = c.get('session');
        const req = c.req.valid('json');
        if (req.server_id != null) await serverOr404(db, customerId, req.server_id);
        const before = req.id !== undefined ? await thresholdOr404(db, customerId, req.id) : undefined;
        const saved = await saveDefinedThreshold(db, customerId, userId, req, Date.now());
        await afterSave(db, alerts, saved, before);
        return c.json(ok<Threshold>(toThreshold(saved.row)));
      },
    )
    .post(
      `${ALERTS}/dynamic_threshold`,
      session,
      thresholdsPlan,
      jsonBody(DynamicThresholdRequest),
      async (c) => {
        const { customerId, userId } = c.get('session');
        const req = c.req.valid('json');
        await serverOr404(db, customerId, req.server_id);
        const saved = await saveDynamicThreshold(db, customerId, userId, req, Date.now());
        await afterSave(db, alerts, saved);
        return c.json(ok<Threshold>(toThreshold(saved.row)));
      },
    )
    .post(
      `${ALERTS}/alter_threshold`,
      session,
      thresholdsPlan,
      jsonBody(AlterThresholdRequest),
      async (c) => {
        const { customerId } = c.get('session');
        const { id, action } = c.req.valid('json');
        await thresholdOr404(db, customerId, id);
        if (action === 'remove') {
          await alerts.resolveOpen(customerId, [id], 'threshold_removed');
          await db
            .deleteFrom('alert_thresholds')
            .where('customer_id', '=', customerId)
            .where('id', '=', id)
            .execute();
          alerts.rulesChanged();
          return c.json(ok<AlterThresholdData>({ id, removed: true }));
        }
        const updated = await db
          .updateTable('alert_thresholds')
          .set({ enabled: action === 'enable' ? 1 : 0, updated_at_ms: await nextStamp(db, Date.now()) })
          .where('customer_id', '=', customerId)
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirstOrThrow();
        await afterSave(db, alerts, { row: updated, seriesChanged: false });
        return c.json(ok<AlterThresholdData>(toThreshold(updated)));
      },
    )
    .get(`${ALERTS}/list`, session, async (c) => {
      const data: AlertListData = await listAlertGroups(db, c.get('session').customerId, unixNow());
      return c.json(ok(data));
    })
    .get(`${ALERTS}/count`, session, async (c) => {
      const data: AlertCountData = await countAlerts(db, c.get('session').customerId, unixNow());
      return c.json(ok(data));
    })
    .post(`${ALERTS}/set_acknowledge`, session, jsonBody(SetAcknowledgeRequest), async (c) => {
      const { customerId, userId } = c.get('session');
      const req = c.req.valid('json');
      const user = await db
        .selectFrom('users')
        .select('name')
        .where('customer_id', '=', customerId)
        .where('id', '=', userId)
        .executeTakeFirst();
      if (!user) throw ApiError.of('unauthorized');
      const item = await alerts.acknowledge({
        customerId,
        userId,
        userName: user.name,
        historicId: req.historic_id,
        hours: req.hours,
        comment: req.comment ? req.comment : null,
      });
      return c.json(ok<AlertItem>(item));
    })
    .post(`${ALERTS}/get_historic`, session, jsonBody(AlertHistoricRequest), async (c) => {
      const data = await alertHistory(db, c.get('session').customerId, c.req.valid('json'));
      return c.json(ok<AlertHistoryRow[]>(data));
    })
    .post('/server/get_alert_historic', session, jsonBody(ServerAlertHistoricRequest), async (c) => {
      const { customerId } = c.get('session');
      const req = c.req.valid('json');
      await serverOr404(db, customerId, req.server_id);
      const data = await serverAlertHistoric(db, customerId, req, unixNow());
      return c.json(ok<ServerAlertHistoricData>(data));
    })
    .get('/events', session, (c) => eventStream(c, hub, deps.logger))
    .route(
      '/',
      emailIntegrationRoutes(deps, (customerId) => alerts.recipientsChanged(customerId)),
    )
    .post(
      '/specific_disk_config/list_specific_disk_config',
      session,
      thresholdsPlan,
      jsonBody(ListSpecificDiskConfigRequest),
      async (c) => {
        const { customerId } = c.get('session');
        const server = await serverOr404(db, customerId, c.req.valid('json').server_id);
        const rows = await db
          .selectFrom('alert_thresholds')
          .selectAll()
          .where('customer_id', '=', customerId)
          .where('server_id', '=', server.id)
          .where('metric', '=', SPECIFIC_DISK_METRIC)
          .where('mode', '=', 'defined')
          .execute();
        const data: ListSpecificDiskConfigData = rows
          .map(toThreshold)
          .filter((t) => t.labels?.mount !== undefined)
          .map((t) => ({
            threshold_id: t.id,
            server_id: server.id,
            mount: t.labels!.mount!,
            yellow: t.yellow,
            red: t.red,
            enabled: t.enabled,
          }))
          .sort((a, b) => a.mount.localeCompare(b.mount));
        return c.json(ok(data));
      },
    )
    .post(
      '/specific_disk_config/update_especific_disk_config',
      session,
      thresholdsPlan,
      jsonBody(UpdateSpecificDiskConfigRequest),
      async (c) => {
        const { customerId, userId } = c.get('session');
        const req = c.req.valid('json');
        await serverOr404(db, customerId, req.server_id);
        // A threshold on the mount's series: saving the same mount again replaces it (same scope).
        const saved = await saveDefinedThreshold(
          db,
          customerId,
          userId,
          {
            server_id: req.server_id,
            metric: SPECIFIC_DISK_METRIC,
            labels: { mount: req.mount },
            operator: 'gt',
            yellow: req.yellow,
            red: req.red,
            enabled: req.enabled,
          },
          Date.now(),
        );
        await afterSave(db, alerts, saved);
        const t = toThreshold(saved.row);
        return c.json(
          ok<SpecificDiskConfig>({
            threshold_id: t.id,
            server_id: req.server_id,
            mount: req.mount,
            yellow: t.yellow,
            red: t.red,
            enabled: t.enabled,
          }),
        );
      },
    )
    .route(
      '/',
      dynamicThresholdRoutes(deps, THRESHOLDS_RESOURCE, (row) =>
        afterSave(db, alerts, { row, seriesChanged: false }),
      ),
    )
    .route('/', alertCallRoutes(deps))
    .route('/', muteRoutes(deps))
    .route('/', mttxRoutes(deps));
}
