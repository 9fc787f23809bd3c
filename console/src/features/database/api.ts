import {
  AvailableGraphsData,
  DatabaseTablesData,
  DbHealthData,
  ProcessListData,
  ReplicationMembersData,
  ServiceStatusData,
  TableCountersData,
  TableDefinitionData,
  type TableRef,
} from '@flightdeck/schemas';
import { api } from '../../lib/api-client';

/**
 * The database screen's calls (spec 7, "Database" and "Servers and services"): `id` is the
 * agentless service's id, every answer is checked against the shared schemas.
 */

const opts = (signal?: AbortSignal) => (signal ? { signal } : {});

export function fetchServiceStatus(service: string, id: number, signal?: AbortSignal) {
  return api.post(
    `/services_monitored/${encodeURIComponent(service)}/get_status`,
    { id },
    ServiceStatusData,
    opts(signal),
  );
}

/** The catalogue charts the service has samples for. */
export function fetchServiceGraphs(serverId: number, service: string, signal?: AbortSignal) {
  return api.post(
    '/bot/get_available_server_graphic',
    { server_id: serverId, service },
    AvailableGraphsData,
    opts(signal),
  );
}

export function fetchProcessList(id: number, signal?: AbortSignal) {
  return api.post('/process_list', { id }, ProcessListData, opts(signal));
}

export function fetchDatabaseTables(id: number, signal?: AbortSignal) {
  return api.get(`/services/database_tables?id=${id}`, DatabaseTablesData, opts(signal));
}

export function fetchTableDefinition(id: number, table: TableRef, signal?: AbortSignal) {
  return api.post('/get_table_definition', { id, table }, TableDefinitionData, opts(signal));
}

export function fetchTableCounters(id: number, table: TableRef, signal?: AbortSignal) {
  return api.post('/get_table_counters', { id, table }, TableCountersData, opts(signal));
}

export function fetchDbHealth(id: number, signal?: AbortSignal) {
  return api.post('/get_all_db_health', { id }, DbHealthData, opts(signal));
}

/** MongoDB only: the replica set of the server's MongoDB service. */
export function fetchReplicationMembers(serverId: number, signal?: AbortSignal) {
  return api.post(
    '/mongodb/get_replication_members',
    { server_id: serverId },
    ReplicationMembersData,
    opts(signal),
  );
}
