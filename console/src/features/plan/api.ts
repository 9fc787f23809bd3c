import {
  IsAvailableData,
  isAvailableAnswer,
  type MenuItem,
  ModuleValidityData,
  PlanInfoData,
  PlansFromResourceData,
  RoutesData,
  stripServicePrefix,
} from '@flightdeck/schemas';
import { z } from 'zod';
import { api } from '../../lib/api-client';

/** The signed-in customer's plan: freemium flag and days, deploy permissions, limits. */
export function fetchPlanInfo() {
  return api.get('/customer/plan/get_plan_info', PlanInfoData);
}

/**
 * The drawer's menu tree. An answer that is not a list of menu items is logged and read as an
 * empty menu (spec 8), so one bad entry never takes the shell down.
 */
export async function fetchMenu(): Promise<MenuItem[]> {
  const data = await api.get('/customer/system/get_routes', z.unknown());
  const parsed = RoutesData.safeParse(data);
  if (parsed.success) return parsed.data;
  console.error('the menu answer is not a list of menu items', parsed.error.issues.slice(0, 3));
  return [];
}

/** Whether the plan grants a route's resource; the `service.` prefix is dropped first (spec 5). */
export async function fetchIsAvailable(resource: string): Promise<boolean> {
  const data = await api.post(
    '/customer/system/is_available',
    { resource: stripServicePrefix(resource) },
    IsAvailableData,
  );
  return isAvailableAnswer(data);
}

/** Plans that offer a resource, cheapest first, for the plan-gated overlay. */
export function fetchPlansForResource(resource: string) {
  return api.post(
    '/customer/system/get_plan_from_resource',
    { resource: stripServicePrefix(resource) },
    PlansFromResourceData,
  );
}

/** Days back the period picker may reach (module_validity of max_flashback). */
export function fetchMaxFlashbackDays() {
  return api.post('/customer/plan/module_validity', { module: 'max_flashback' }, ModuleValidityData);
}
