import type { TableRef } from '@flightdeck/schemas';
import { queryOptions } from '@tanstack/react-query';
import {
  fetchDatabaseTables,
  fetchDbHealth,
  fetchProcessList,
  fetchReplicationMembers,
  fetchServiceGraphs,
  fetchServiceStatus,
  fetchTableCounters,
  fetchTableDefinition,
} from './api';

/**
 * Keys sit under the server's (`['servers', serverId, ...]`), so the global refresh that
 * invalidates a server refreshes its service pages too.
 */
export const databaseKeys = {
  service: (serverId: number, serviceId: number) => ['servers', serverId, 'service', serviceId] as const,
  graphs: (serverId: number, serviceId: number) =>
    [...databaseKeys.service(serverId, serviceId), 'graphs'] as const,
};

/** Until the first answer says the service's poll interval, the status is asked every 10 s. */
const FIRST_STATUS_POLL_MS = 10_000;

/**
 * The header and the tiles. Asked again at the service's poll interval: a new sample shows as soon
 * as the collector has written it (and the page refreshes its charts then).
 */
export const serviceStatusQuery = (serverId: number, serviceId: number, service: string) =>
  queryOptions({
    queryKey: [...databaseKeys.service(serverId, serviceId), 'status', service],
    queryFn: ({ signal }) => fetchServiceStatus(service, serviceId, signal),
    refetchInterval: (query) => {
      const interval = query.state.data?.interval_s;
      return interval ? interval * 1000 : FIRST_STATUS_POLL_MS;
    },
  });

export const serviceGraphsQuery = (serverId: number, serviceId: number, service: string) =>
  queryOptions({
    queryKey: [...databaseKeys.graphs(serverId, serviceId), service],
    queryFn: ({ signal }) => fetchServiceGraphs(serverId, service, signal),
  });

export const processListQuery = (serverId: number, serviceId: number) =>
  queryOptions({
    queryKey: [...databaseKeys.service(serverId, serviceId), 'process_list'],
    queryFn: ({ signal }) => fetchProcessList(serviceId, signal),
  });

export const databaseTablesQuery = (serverId: number, serviceId: number) =>
  queryOptions({
    queryKey: [...databaseKeys.service(serverId, serviceId), 'tables'],
    queryFn: ({ signal }) => fetchDatabaseTables(serviceId, signal),
  });

export const tableDefinitionQuery = (serverId: number, serviceId: number, table: TableRef) =>
  queryOptions({
    queryKey: [...databaseKeys.service(serverId, serviceId), 'table', table, 'definition'],
    queryFn: ({ signal }) => fetchTableDefinition(serviceId, table, signal),
  });

export const tableCountersQuery = (serverId: number, serviceId: number, table: TableRef) =>
  queryOptions({
    queryKey: [...databaseKeys.service(serverId, serviceId), 'table', table, 'counters'],
    queryFn: ({ signal }) => fetchTableCounters(serviceId, table, signal),
  });

export const dbHealthQuery = (serverId: number, serviceId: number) =>
  queryOptions({
    queryKey: [...databaseKeys.service(serverId, serviceId), 'health'],
    queryFn: ({ signal }) => fetchDbHealth(serviceId, signal),
  });

export const replicationMembersQuery = (serverId: number, serviceId: number) =>
  queryOptions({
    queryKey: [...databaseKeys.service(serverId, serviceId), 'replication_members'],
    queryFn: ({ signal }) => fetchReplicationMembers(serverId, signal),
  });
