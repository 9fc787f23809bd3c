import {
  deployAllowed,
  EmptyRequest,
  hasResource,
  type IsAvailableData,
  type MenuItem,
  ModuleValidityRequest,
  type OkEnvelope,
  type PlanConfig,
  type PlanOffer,
  type PlanResourceAvailability,
  type PlanResources,
  type PlatformMaxUsersData,
  type PlatformPermissionData,
  PlatformPermissionRequest,
  type PlatformServicesData,
  planGrantsResource,
  ResourceRequest,
  SERVICE_RESOURCE_PREFIX,
  type ServerWithResource,
  stripServicePrefix,
  type UserLimitData,
} from '@flightdeck/schemas';
import { Hono } from 'hono';
import { requireSession } from '../../auth/middleware';
import { countServices, listServersWithService } from '../../db/queries/customers';
import { listCataloguePlans } from '../../db/queries/plans';
import type { AppDeps, AppEnv } from '../../env';
import { jsonBody } from '../../http/body';
import { parseResources, planContextOf } from '../../plans/context';
import { limitStatus } from '../../plans/limits';
import { buildMenu } from '../../plans/menu';

/** Flashback window of a plan with neither a flashback limit nor a retention limit: ten years. */
export const UNLIMITED_FLASHBACK_DAYS = 3650;

function ok<T>(data: T): OkEnvelope<T> {
  return { status: 'ok', data };
}

/**
 * How a name asks about the plan: a feature granted under its own key (`tower_control`), or a
 * service type (`service.mysql`, or a bare `mysql` listed under `service`).
 */
function resolveResource(resources: PlanResources, resource: string) {
  const code = stripServicePrefix(resource);
  const isService = resource !== code || !hasResource(resources, code);
  return isService
    ? { isService, code, granted: hasResource(resources, `${SERVICE_RESOURCE_PREFIX}${code}`) }
    : { isService, code, granted: true };
}

/**
 * `/customer/plan/*` and `/customer/system/*` (spec section 7): the signed-in customer's plan and
 * the gating answers and menu the console builds its shell from. Every call needs a session.
 */
export function customerRoutes(deps: AppDeps) {
  const { db } = deps;
  return new Hono<AppEnv>()
    .use('/customer/plan/*', requireSession(db))
    .use('/customer/system/*', requireSession(db))

    .get('/customer/plan/get_resource', async (c) => {
      const plan = await planContextOf(c, db);
      return c.json(ok<PlanResources>(plan.resources));
    })

    .get('/customer/plan/get_limit_user', async (c) => {
      const users = await limitStatus(db, await planContextOf(c, db), 'users');
      return c.json(ok<UserLimitData>({ max_users: users.max, users: users.used }));
    })

    .get('/customer/plan/get_plan_info', async (c) => {
      const plan = await planContextOf(c, db);
      return c.json(ok<PlanConfig>(plan.config));
    })

    .post('/customer/plan/get_plataform_permition_services', jsonBody(EmptyRequest), async (c) => {
      const plan = await planContextOf(c, db);
      const services = await limitStatus(db, plan, 'services');
      const listed = plan.resources.service;
      return c.json(
        ok<PlatformServicesData>({
          services: Array.isArray(listed) ? listed : [],
          max_services: services.max,
          used_services: services.used,
          can_add: services.can_add,
        }),
      );
    })

    .post('/customer/plan/get_plataform_max_users', jsonBody(EmptyRequest), async (c) => {
      const users = await limitStatus(db, await planContextOf(c, db), 'users');
      return c.json(
        ok<PlatformMaxUsersData>({ max_users: users.max, users: users.used, can_add: users.can_add }),
      );
    })

    .post('/customer/plan/get_plataform_permition', jsonBody(PlatformPermissionRequest), async (c) => {
      const { permition } = c.req.valid('json');
      const { platformPermissions } = await planContextOf(c, db);
      const allowed =
        permition === 'deploy'
          ? deployAllowed(platformPermissions)
          : deployAllowed(platformPermissions, permition === 'deploy.agent' ? 'agent' : 'agentless');
      return c.json(ok<PlatformPermissionData>({ permition, allowed, deploy: platformPermissions.deploy }));
    })

    .post('/customer/plan/resource', jsonBody(ResourceRequest), async (c) => {
      const { resource } = c.req.valid('json');
      const plan = await planContextOf(c, db);
      return c.json(
        ok<PlanResourceAvailability>({ available: planGrantsResource(plan.resources, resource) }),
      );
    })

    .post('/customer/plan/module_validity', jsonBody(ModuleValidityRequest), async (c) => {
      c.req.valid('json'); // max_flashback is the only module so far
      const { limits } = await planContextOf(c, db);
      return c.json(
        ok<number>(limits.max_flashback_days ?? limits.retention_days ?? UNLIMITED_FLASHBACK_DAYS),
      );
    })

    .post('/customer/system/is_available', jsonBody(ResourceRequest), async (c) => {
      const { resource } = c.req.valid('json');
      const plan = await planContextOf(c, db);
      const asked = resolveResource(plan.resources, resource);
      let available = asked.granted;
      if (available && asked.isService)
        available = (await countServices(db, plan.customerId, asked.code)) > 0;
      return c.json(ok<IsAvailableData>(available ? 1 : 0));
    })

    .post('/customer/system/get_servers_resource', jsonBody(ResourceRequest), async (c) => {
      const { resource } = c.req.valid('json');
      const plan = await planContextOf(c, db);
      // Servers of a type the plan does not grant are not offered: gating holds on the server too.
      if (!planGrantsResource(plan.resources, resource)) return c.json(ok<ServerWithResource[]>([]));
      const rows = await listServersWithService(db, plan.customerId, stripServicePrefix(resource));
      return c.json(
        ok<ServerWithResource[]>(
          rows.map((r) => ({
            server_id: r.server_id,
            name: r.name ?? r.hostname,
            hostname: r.hostname,
            service_code: r.service_code,
          })),
        ),
      );
    })

    .post('/customer/system/get_plan_from_resource', jsonBody(ResourceRequest), async (c) => {
      const { resource } = c.req.valid('json');
      const plans = await listCataloguePlans(db);
      return c.json(
        ok<PlanOffer[]>(
          plans
            .filter((p) => planGrantsResource(parseResources(p.resources), resource))
            .map((p) => ({ id: p.id, name: p.name, price: p.price, description: p.description })),
        ),
      );
    })

    .get('/customer/system/get_routes', async (c) => {
      const plan = await planContextOf(c, db);
      return c.json(ok<MenuItem[]>(await buildMenu(plan)));
    });
}
