import {
  ChartData,
  DiskStatusData,
  GRAPH_CATEGORIES,
  GraphsByCategoryData,
  LinuxStatusData,
  NetworkStatusData,
  ProcessStatusData,
  ServerDetail,
  type ServerGraph,
  ServersListData,
  ServerVariablesData,
} from '@flightdeck/schemas';
import { api } from '../../lib/api-client';

/** Calls of spec 7, "Servers and services": every answer is checked against the shared schemas. */

const opts = (signal?: AbortSignal) => (signal ? { signal } : {});

export function fetchServers(signal?: AbortSignal) {
  return api.post('/bot/servers/list', {}, ServersListData, opts(signal));
}

export function fetchServer(id: number, signal?: AbortSignal) {
  return api.post('/bot/servers/get', { id }, ServerDetail, opts(signal));
}

export function fetchGraphsByCategory(serverId: number, signal?: AbortSignal) {
  return api.post(
    '/bot/get_available_server_graphic_by_category',
    { server_id: serverId },
    GraphsByCategoryData,
    opts(signal),
  );
}

export function fetchChartData(
  request: { graphId: string; serverId: number; start: number; end: number },
  signal?: AbortSignal,
) {
  return api.post(
    '/bot/get_server_service_graphic_data',
    { graph_id: request.graphId, server_id: request.serverId, start: request.start, end: request.end },
    ChartData,
    opts(signal),
  );
}

/**
 * The host calls: Linux and Windows hosts answer the same `/services_monitored/linux/*` calls
 * (the agent reports the same metrics on both).
 */
const HOST = '/services_monitored/linux';

export function fetchHostStatus(id: number, signal?: AbortSignal) {
  return api.post(`${HOST}/get_status`, { id }, LinuxStatusData, opts(signal));
}

export function fetchDiskStatus(id: number, signal?: AbortSignal) {
  return api.post(`${HOST}/get_disk_status`, { id }, DiskStatusData, opts(signal));
}

export function fetchProcessStatus(id: number, signal?: AbortSignal) {
  return api.post(`${HOST}/get_process_status`, { id }, ProcessStatusData, opts(signal));
}

export function fetchNetworkStatus(id: number, signal?: AbortSignal) {
  return api.post(`${HOST}/get_network_status`, { id }, NetworkStatusData, opts(signal));
}

export function fetchVariables(id: number, signal?: AbortSignal) {
  return api.post(`${HOST}/get_variables`, { id }, ServerVariablesData, opts(signal));
}

/** Graph groups in the page's order: the catalogue's categories first, any other after, empty ones left out. */
export function orderedCategories(byCategory: Record<string, ServerGraph[]>): [string, ServerGraph[]][] {
  const known = GRAPH_CATEGORIES as readonly string[];
  const names = Object.keys(byCategory).sort((a, b) => {
    const ia = known.indexOf(a);
    const ib = known.indexOf(b);
    return (ia < 0 ? known.length : ia) - (ib < 0 ? known.length : ib) || a.localeCompare(b);
  });
  return names
    .map((name) => [name, byCategory[name] ?? []] as [string, ServerGraph[]])
    .filter(([, graphs]) => graphs.length > 0);
}
