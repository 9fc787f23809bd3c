import {
  type AvailableGraphsData,
  AvailableGraphsRequest,
  type ChartData,
  ChartDataRequest,
  chartById,
  EmptyRequest,
  type GraphsByCategoryData,
  GraphsByCategoryRequest,
  metricsForChart,
  normalizeCustomRange,
  type OkEnvelope,
  RowId,
  type ServerDetail,
  ServerIdRequest,
  type ServersListData,
} from '@flightdeck/schemas';
import { Hono } from 'hono';
import { requireSession } from '../../auth/middleware';
import { unixNow } from '../../clock';
import { listServers, listServices } from '../../db/queries/servers';
import type { AppDeps, AppEnv } from '../../env';
import { ApiError } from '../../errors';
import { ALL_CATALOGUE_METRICS, chartConfigs, graphsWithData } from '../../hosts/graphs';
import { jsonBody } from '../../http/body';
import { latestOf, serverOr404, toDetail, toSummary } from './shared';

function ok<T>(data: T): OkEnvelope<T> {
  return { status: 'ok', data };
}

/** Seconds between refreshes of a server chart. */
const CHART_TIMER_TASK_S = 60;

/**
 * `/bot/*` server calls (spec section 7, "Servers and services"): the customer's servers, the
 * graphs each has data for, and their chart data. Every call needs a session and sees only the
 * signed-in customer's servers; another customer's id answers 404.
 */
export function serverRoutes(deps: AppDeps) {
  const { db, store } = deps;

  async function availableGraphs(customerId: number, serverId: number, service?: string) {
    const server = await serverOr404(db, customerId, serverId);
    const latest = await latestOf(store, server, ALL_CATALOGUE_METRICS, service);
    return graphsWithData(new Set(latest.map((s) => s.metric)));
  }

  return new Hono<AppEnv>()
    .use('/bot/*', requireSession(db))

    .post('/bot/servers/list', jsonBody(EmptyRequest), async (c) => {
      const { customerId } = c.get('session');
      const [servers, services] = await Promise.all([
        listServers(db, customerId),
        listServices(db, customerId),
      ]);
      const now = unixNow();
      return c.json(ok<ServersListData>(servers.map((s) => toSummary(s, services, now))));
    })

    .post('/bot/servers/get', jsonBody(ServerIdRequest), async (c) => {
      const { customerId } = c.get('session');
      const server = await serverOr404(db, customerId, c.req.valid('json').id);
      const services = await listServices(db, customerId, server.id);
      return c.json(ok<ServerDetail>(toDetail(server, services)));
    })

    .post('/bot/get_available_server_graphic', jsonBody(AvailableGraphsRequest), async (c) => {
      const { server_id, service } = c.req.valid('json');
      const graphs = await availableGraphs(c.get('session').customerId, server_id, service);
      return c.json(ok<AvailableGraphsData>(graphs));
    })

    .post('/bot/get_available_server_graphic_by_category', jsonBody(GraphsByCategoryRequest), async (c) => {
      const graphs = await availableGraphs(c.get('session').customerId, c.req.valid('json').server_id);
      const byCategory: GraphsByCategoryData = {};
      for (const g of graphs) {
        byCategory[g.category] ??= [];
        byCategory[g.category]!.push(g);
      }
      return c.json(ok<GraphsByCategoryData>(byCategory));
    })

    .post('/bot/get_server_service_graphic_data', jsonBody(ChartDataRequest), async (c) => {
      const body = c.req.valid('json');
      const parsedId = RowId.safeParse(body.server_id);
      if (!parsedId.success) throw ApiError.of('validation_failed', 'server_id: expected a positive integer');
      const serverId = parsedId.data;
      const server = await serverOr404(db, c.get('session').customerId, serverId);
      const chart = chartById(String(body.graph_id));
      if (!chart) {
        throw ApiError.of(
          'not_found',
          `Unknown graph "${String(body.graph_id)}": not a chart of the catalogue.`,
        );
      }
      const { start, end } = normalizeCustomRange(body.start, body.end);
      const data = await store.query({
        series: [
          {
            tenant: String(server.customer_id),
            host: server.host_key,
            metric: metricsForChart(chart.id).map((m) => m.name),
          },
        ],
        start,
        end,
      });
      return c.json(
        ok<ChartData>({
          ...data,
          configs: { ...data.configs, ...chartConfigs(chart), timer_task: CHART_TIMER_TASK_S },
        }),
      );
    });
}
