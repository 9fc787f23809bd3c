import { z } from 'zod';

/**
 * Plan gating rules shared by the API (which enforces them) and the console (which hides what the
 * plan does not grant). Pure functions; the spec's words and call spellings (`product_permition`,
 * `plataform_permitions`) stay only where they are on the wire.
 */

/** A leaf of the plan resources: 1/"1" granted, 0/"0" not, or the names granted under its parent key. */
export type PlanResourceLeaf = 0 | 1 | '0' | '1' | string[];

/**
 * What a plan grants, as a nested object walked by dotted paths, e.g.
 * `{flightdeck: {cockpit: {master_warning: 1}}, service: ['linux', 'mysql'], tower_control: 1}`.
 */
export interface PlanResources {
  [key: string]: PlanResourceLeaf | PlanResources;
}

const ResourceLeaf = z.union([z.literal([0, 1, '0', '1']), z.array(z.string().min(1).max(100))]);

/** The plan resources object (`GET /customer/plan/get_resource`). */
export const PlanResources: z.ZodType<PlanResources> = z.lazy(() =>
  z.record(z.string().min(1).max(100), z.union([ResourceLeaf, PlanResources])),
);

/** A resource name: dotted words such as `tower_control`, `service.mysql`, `flightdeck.cockpit`. */
export const ResourceName = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/, 'expected a resource name such as service.mysql');
export type ResourceName = z.infer<typeof ResourceName>;

/** Availability answers of the spec: granted when 1 or "1", anything else denies. */
export function isAvailableAnswer(value: unknown): boolean {
  return value === 1 || value === '1';
}

/** The prefix the console puts before a service type in a route's resource (`service.mysql`). */
export const SERVICE_RESOURCE_PREFIX = 'service.';

/** `service.mysql` → `mysql`; any other name is returned as given. */
export function stripServicePrefix(name: string): string {
  return name.startsWith(SERVICE_RESOURCE_PREFIX) ? name.slice(SERVICE_RESOURCE_PREFIX.length) : name;
}

function isBranch(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The spec's resource rule: walk the dotted `path` through `resources`. Granted when every part is
 * found as a key and the value reached is 1/"1" (a branch reached counts when it is not empty:
 * something under it is in the plan), or when the last part is one of the names of an array met at
 * the step before. A missing key, a 0/"0" leaf, or a path that goes on past a leaf denies.
 */
export function hasResource(resources: unknown, path: string): boolean {
  if (path === '') return false;
  const parts = path.split('.');
  let node: unknown = resources;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as string;
    if (Array.isArray(node)) return i === parts.length - 1 && node.includes(part);
    if (!isBranch(node) || !Object.hasOwn(node, part)) return false;
    node = node[part];
  }
  if (Array.isArray(node)) return node.length > 0;
  if (isBranch(node)) return Object.keys(node).length > 0;
  return isAvailableAnswer(node);
}

/**
 * Whether a plan grants a resource as the availability calls ask it: the `service.` prefix is
 * dropped first (the spec's rule), then the name counts either on its own (`tower_control`) or as a
 * service type listed under `service` (`mysql` ⇐ `service: ['mysql']`).
 */
export function planGrantsResource(resources: unknown, name: string): boolean {
  const bare = stripServicePrefix(name);
  return hasResource(resources, bare) || hasResource(resources, `${SERVICE_RESOURCE_PREFIX}${bare}`);
}

/** `plan_config.product_permition`: menu item name → 1 shown, anything else hidden. */
export const ProductPermissions = z.record(z.string().min(1).max(100), z.number().int());
export type ProductPermissions = z.infer<typeof ProductPermissions>;

/** A menu item is hidden when the plan map names it with a value other than 1; unnamed items show. */
export function menuItemVisible(
  productPermissions: Readonly<Record<string, unknown>>,
  name: string,
): boolean {
  if (!Object.hasOwn(productPermissions, name)) return true;
  return isAvailableAnswer(productPermissions[name]);
}

/** A 0/1 flag as the wire carries it. */
export const Flag = z.literal([0, 1]);
export type Flag = z.infer<typeof Flag>;

/** Ways to install monitoring: an agent on the host, or agentless (polled by the collector). */
export const DEPLOY_KINDS = ['agent', 'agentless'] as const;
export type DeployKind = (typeof DEPLOY_KINDS)[number];

/** `plataform_permitions`: which deployment kinds the plan permits. */
export const PlatformPermissions = z
  .object({ deploy: z.object({ agent: Flag, agentless: Flag }).strict() })
  .strict();
export type PlatformPermissions = z.infer<typeof PlatformPermissions>;

/** The Deploy entry shows when `kind` (or, without it, any kind) of deployment is permitted. */
export function deployAllowed(platformPermissions: PlatformPermissions, kind?: DeployKind): boolean {
  const deploy = platformPermissions.deploy;
  if (kind) return isAvailableAnswer(deploy[kind]);
  return isAvailableAnswer(deploy.agent) || isAvailableAnswer(deploy.agentless);
}

/**
 * Plan limits. `null` means unlimited (never a large sentinel number), so the console can print
 * "unlimited" and the API can skip the count.
 */
export const PlanLimits = z
  .object({
    users: z.number().int().nonnegative().nullable(),
    services: z.number().int().nonnegative().nullable(),
    servers: z.number().int().nonnegative().nullable(),
    retention_days: z.number().int().nonnegative().nullable(),
    sessions: z.number().int().nonnegative().nullable(),
    /** How many days back the period picker may go (`module_validity` max_flashback). */
    max_flashback_days: z.number().int().nonnegative().nullable(),
  })
  .strict();
export type PlanLimits = z.infer<typeof PlanLimits>;

/** `GET /customer/plan/get_plan_info`: the signed-in customer's plan. */
export const PlanConfig = z
  .object({
    plan_id: z.number().int(),
    name: z.string(),
    is_freemium: Flag,
    /** Days a subscription lasts from `register_in`; null = no end. */
    lifetime: z.number().int().nonnegative().nullable(),
    /** When the customer registered, unix seconds. */
    register_in: z.number().int(),
    plan_config: z.object({ product_permition: ProductPermissions }).strict(),
    plataform_permitions: PlatformPermissions,
    limits: PlanLimits,
  })
  .strict();
export type PlanConfig = z.infer<typeof PlanConfig>;

/** Icons a menu item may name; the console maps each to its icon component. */
export const MENU_ICONS = [
  'info',
  'settings',
  'home',
  'dashboard',
  'server',
  'database',
  'network',
  'storage',
  'alert',
  'bell',
  'shield',
  'report',
  'chart',
  'history',
  'clock',
  'rocket',
  'tools',
  'user',
  'users',
  'plug',
  'ticket',
  'folder',
  'list',
  'apm',
] as const;
export const MenuIcon = z.enum(MENU_ICONS);
export type MenuIcon = z.infer<typeof MenuIcon>;

/** A menu badge, e.g. `{color: 'info', label: 'menu.badge_new'}` (label is an i18n key). */
export const MenuBadge = z
  .object({ color: z.string().min(1).max(32), label: z.string().min(1).max(100) })
  .strict();
export type MenuBadge = z.infer<typeof MenuBadge>;

/** One entry of the drawer menu tree (`GET /customer/system/get_routes`). */
export interface MenuItem {
  /** Product-permission name (`plan_config.product_permition` key), unique in the tree. */
  name: string;
  /** i18n key of the label, e.g. `menu.about`. */
  label: string;
  icon: MenuIcon;
  /** Console path; null for a group that only holds its sub-menu. */
  to: string | null;
  sub_menu: MenuItem[];
  extra_config: { disable?: boolean | undefined; badge?: MenuBadge | undefined };
  /** Resource the page needs (route gating); absent when the page needs none. */
  validation?: string | undefined;
}

export const MenuItem: z.ZodType<MenuItem> = z.lazy(() =>
  z
    .object({
      name: z.string().min(1).max(100),
      label: z.string().min(1).max(100),
      icon: MenuIcon,
      to: z.string().startsWith('/').nullable(),
      sub_menu: z.array(MenuItem),
      extra_config: z.object({ disable: z.boolean().optional(), badge: MenuBadge.optional() }).strict(),
      validation: ResourceName.optional(),
    })
    .strict(),
);
