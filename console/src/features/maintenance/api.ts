import {
  MaintenanceHistoricChartData,
  type MaintenanceHistoricChartRequest,
  MaintenanceItem,
  MaintenanceListData,
  type MaintenanceNewRequest,
  MaintenanceRemoveData,
  type MaintenanceState,
} from '@flightdeck/schemas';
import { api } from '../../lib/api-client';

/**
 * Calls of spec 7, "Maintenance, scheduler, business": every answer is checked against the shared
 * schemas (schemas/src/api/maintenance.ts).
 */

const opts = (signal?: AbortSignal) => (signal ? { signal } : {});

export function fetchMaintenanceList(status: MaintenanceState, signal?: AbortSignal) {
  return api.post('/bot/list_maintenance', { status }, MaintenanceListData, opts(signal));
}

export function createMaintenance(request: MaintenanceNewRequest) {
  return api.post('/maintenance/new2', request, MaintenanceItem);
}

export function finishMaintenance(id: number) {
  return api.post('/maintenance/finish', { id }, MaintenanceItem);
}

export function removeMaintenance(id: number) {
  return api.post('/maintenance/remove', { id }, MaintenanceRemoveData);
}

export function fetchMaintenanceChart(request: MaintenanceHistoricChartRequest, signal?: AbortSignal) {
  return api.post('/maintenance/get_historic_chart', request, MaintenanceHistoricChartData, opts(signal));
}
