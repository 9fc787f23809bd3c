import { type DeployKind, deployAllowed, planGrantsResource } from '@flightdeck/schemas';
import type { MiddlewareHandler } from 'hono';
import type { Db } from '../db/kysely';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';
import { planContextOf } from './context';

/** The 403 a plan-gated call answers; the body names the feature and nothing about the plan. */
export function planGatedError(feature: string): ApiError {
  return ApiError.of('plan_gated', `The feature "${feature}" is not part of your plan.`);
}

/**
 * Lets a request through only when the customer's plan grants `resource` (the spec's dotted-path
 * rule, `service.` prefix dropped); otherwise 403 `plan_gated`. Put it after `requireSession`.
 */
export function requireResource(db: Db, resource: string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const plan = await planContextOf(c, db);
    if (!planGrantsResource(plan.resources, resource)) throw planGatedError(resource);
    await next();
  };
}

/**
 * Lets a request through only when the plan permits deployment of `kind` (or of any kind when
 * none is given); otherwise 403 `plan_gated`. Put it after `requireSession`.
 */
export function requireDeployPermission(db: Db, kind?: DeployKind): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const plan = await planContextOf(c, db);
    if (!deployAllowed(plan.platformPermissions, kind)) {
      throw planGatedError(kind ? `deploy.${kind}` : 'deploy');
    }
    await next();
  };
}
