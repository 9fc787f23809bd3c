import { z } from 'zod';
import { MenuItem, PlanConfig, PlanResources, ResourceName } from '../plans';

/**
 * Calls under `/api/customer/plan/*` and `/api/customer/system/*` (spec section 7, "Auth and
 * user"): the signed-in customer's plan, its gating answers and the drawer menu. All need a session.
 * `data` of each answer is the schema named in its comment; bodies are strict.
 */

/** `GET /customer/plan/get_resource` → data: the plan's resources object. */
export const PlanResourceData = PlanResources;
export type PlanResourceData = PlanResources;

/** `GET /customer/plan/get_plan_info` → data. */
export const PlanInfoData = PlanConfig;
export type PlanInfoData = PlanConfig;

/**
 * `GET /customer/plan/get_limit_user` → data: the plan's user limit (null = unlimited) and the
 * customer's ACTIVE users.
 */
export const UserLimitData = z
  .object({ max_users: z.number().int().nullable(), users: z.number().int().nonnegative() })
  .strict();
export type UserLimitData = z.infer<typeof UserLimitData>;

/** Body of the POST calls that take no argument: `{}` or an empty body. */
export const EmptyRequest = z.object({}).strict();
export type EmptyRequest = z.infer<typeof EmptyRequest>;

/**
 * `POST /customer/plan/get_plataform_permition_services` {} → data: the service types the plan
 * lets the customer monitor (`resources.service`), its service limit (null = unlimited), how many
 * services the customer has, and whether one more may be added.
 */
export const PlatformServicesData = z
  .object({
    services: z.array(z.string()),
    max_services: z.number().int().nullable(),
    used_services: z.number().int().nonnegative(),
    can_add: z.boolean(),
  })
  .strict();
export type PlatformServicesData = z.infer<typeof PlatformServicesData>;

/**
 * `POST /customer/plan/get_plataform_max_users` {} → data: the user limit (null = unlimited), the
 * ACTIVE users and whether one more may be invited.
 */
export const PlatformMaxUsersData = z
  .object({
    max_users: z.number().int().nullable(),
    users: z.number().int().nonnegative(),
    can_add: z.boolean(),
  })
  .strict();
export type PlatformMaxUsersData = z.infer<typeof PlatformMaxUsersData>;

/** Platform permissions one can ask about: deployment at all, or one kind. */
export const PLATFORM_PERMISSION_NAMES = ['deploy', 'deploy.agent', 'deploy.agentless'] as const;
export const PlatformPermissionName = z.enum(PLATFORM_PERMISSION_NAMES);
export type PlatformPermissionName = z.infer<typeof PlatformPermissionName>;

/** `POST /customer/plan/get_plataform_permition` body. */
export const PlatformPermissionRequest = z.object({ permition: PlatformPermissionName }).strict();
export type PlatformPermissionRequest = z.infer<typeof PlatformPermissionRequest>;

/**
 * `get_plataform_permition` → data: whether the plan permits it (`deploy` = agent or agentless)
 * and the plan's deploy flags.
 */
export const PlatformPermissionData = z
  .object({
    permition: PlatformPermissionName,
    allowed: z.boolean(),
    deploy: z.object({ agent: z.literal([0, 1]), agentless: z.literal([0, 1]) }).strict(),
  })
  .strict();
export type PlatformPermissionData = z.infer<typeof PlatformPermissionData>;

/** Body of the calls that name one resource (`service.mysql`, `mysql`, `tower_control`). */
export const ResourceRequest = z.object({ resource: ResourceName }).strict();
export type ResourceRequest = z.infer<typeof ResourceRequest>;

/**
 * `POST /customer/plan/resource` {resource} → data: whether the plan grants it (the `service.`
 * prefix is dropped; a bare name also counts when listed under `service`).
 */
export const PlanResourceAvailability = z.object({ available: z.boolean() }).strict();
export type PlanResourceAvailability = z.infer<typeof PlanResourceAvailability>;

/** Modules whose validity `module_validity` answers. */
export const PLAN_MODULES = ['max_flashback'] as const;
export const PlanModule = z.enum(PLAN_MODULES);
export type PlanModule = z.infer<typeof PlanModule>;

/** `POST /customer/plan/module_validity` body. */
export const ModuleValidityRequest = z.object({ module: PlanModule }).strict();
export type ModuleValidityRequest = z.infer<typeof ModuleValidityRequest>;

/**
 * `module_validity` → data: days. For `max_flashback`, how far back the period picker may go; an
 * unlimited plan answers its data retention, or 3650 (ten years) when that is unlimited too.
 */
export const ModuleValidityData = z.number().int().nonnegative();
export type ModuleValidityData = z.infer<typeof ModuleValidityData>;

/**
 * `POST /customer/system/is_available` {resource} → data 1 or 0: 1 when the plan grants it and,
 * for a service type, the customer has at least one service of that type.
 */
export const IsAvailableData = z.literal([0, 1]);
export type IsAvailableData = z.infer<typeof IsAvailableData>;

/** A server of the customer with a service of the asked type (`get_servers_resource`). */
export const ServerWithResource = z
  .object({
    server_id: z.number().int(),
    /** The server's display name, its hostname when it has none. */
    name: z.string(),
    hostname: z.string(),
    service_code: z.string(),
  })
  .strict();
export type ServerWithResource = z.infer<typeof ServerWithResource>;

/** `POST /customer/system/get_servers_resource` {resource} → data. */
export const ServersResourceData = z.array(ServerWithResource);
export type ServersResourceData = z.infer<typeof ServersResourceData>;

/** A catalogue plan offering a resource, for the plan-gated overlay. */
export const PlanOffer = z
  .object({
    id: z.number().int(),
    name: z.string(),
    price: z.number(),
    description: z.string().nullable(),
  })
  .strict();
export type PlanOffer = z.infer<typeof PlanOffer>;

/** `POST /customer/system/get_plan_from_resource` {resource} → data, cheapest first. */
export const PlansFromResourceData = z.array(PlanOffer);
export type PlansFromResourceData = z.infer<typeof PlansFromResourceData>;

/** `GET /customer/system/get_routes` → data: the drawer menu tree for this user. */
export const RoutesData = z.array(MenuItem);
export type RoutesData = z.infer<typeof RoutesData>;
