import {
  isAvailableAnswer,
  type PlanConfig,
  type PlanLimits,
  PlanResources,
  type PlatformPermissions,
  type ProductPermissions,
} from '@flightdeck/schemas';
import type { Context } from 'hono';
import type { Db } from '../db/kysely';
import { getCustomer } from '../db/queries/customers';
import { type CataloguePlan, getPlanWithCatalogue } from '../db/queries/plans';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';

/** A customer's plan, its JSON columns parsed, and the `PlanConfig` the console is given. */
export interface PlanContext {
  customerId: number;
  plan: CataloguePlan;
  resources: PlanResources;
  productPermissions: ProductPermissions;
  platformPermissions: PlatformPermissions;
  limits: PlanLimits;
  config: PlanConfig;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Resources as stored. Plans made before the catalogue kept a flat list of names; each becomes a
 * key granted with 1. Anything unreadable grants nothing rather than failing the request.
 */
export function parseResources(text: string): PlanResources {
  let value = parseJson(text);
  if (Array.isArray(value)) {
    value = Object.fromEntries(value.filter((v) => typeof v === 'string').map((v) => [v, 1]));
  }
  const parsed = PlanResources.safeParse(value);
  return parsed.success ? parsed.data : {};
}

/** Product permissions as 1 (shown) or 0 (hidden); "1" counts as 1. */
export function parseProductPermissions(text: string): ProductPermissions {
  const value = parseJson(text);
  if (!isObject(value)) return {};
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, isAvailableAnswer(v) ? 1 : 0]));
}

/** Deploy flags as 0/1; a missing flag denies. */
export function parsePlatformPermissions(text: string): PlatformPermissions {
  const value = parseJson(text);
  const deploy = isObject(value) ? value : {};
  return {
    deploy: {
      agent: isAvailableAnswer(deploy.agent) ? 1 : 0,
      agentless: isAvailableAnswer(deploy.agentless) ? 1 : 0,
    },
  };
}

/** The customer's plan with its rules parsed. Throws 404 when the customer or its plan is gone. */
export async function loadPlanContext(db: Db, customerId: number): Promise<PlanContext> {
  const customer = await getCustomer(db, customerId);
  const plan = customer ? await getPlanWithCatalogue(db, customer.plan_id) : undefined;
  if (!customer || !plan) throw ApiError.of('not_found', 'The customer or its plan was not found.');
  const resources = parseResources(plan.resources);
  const productPermissions = parseProductPermissions(plan.product_permissions);
  const platformPermissions = parsePlatformPermissions(plan.deploy_permissions);
  const limits: PlanLimits = {
    users: plan.user_limit,
    services: plan.max_services,
    servers: plan.max_servers,
    retention_days: plan.data_retention_days,
    sessions: plan.concurrent_sessions,
    max_flashback_days: plan.max_flashback_days,
  };
  return {
    customerId,
    plan,
    resources,
    productPermissions,
    platformPermissions,
    limits,
    config: {
      plan_id: plan.id,
      name: plan.name,
      is_freemium: plan.is_freemium === 1 ? 1 : 0,
      lifetime: plan.lifetime_days,
      register_in: customer.register_in,
      plan_config: { product_permition: productPermissions },
      plataform_permitions: platformPermissions,
      limits,
    },
  };
}

// Keyed by the request object, so the cache lives exactly as long as the request does.
const perRequest = new WeakMap<Request, Promise<PlanContext>>();

/**
 * The signed-in customer's plan context, loaded once per request however many guards and handlers
 * ask (never across requests: a plan change shows on the next call). Needs `requireSession` first.
 */
export function planContextOf(c: Context<AppEnv>, db: Db): Promise<PlanContext> {
  const cached = perRequest.get(c.req.raw);
  if (cached) return cached;
  const loading = loadPlanContext(db, c.var.session.customerId);
  perRequest.set(c.req.raw, loading);
  loading.catch(() => perRequest.delete(c.req.raw));
  return loading;
}
