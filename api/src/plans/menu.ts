import {
  type MenuBadge,
  type MenuIcon,
  type MenuItem,
  menuItemVisible,
  type PlanResources,
  type ProductPermissions,
  planGrantsResource,
} from '@flightdeck/schemas';

/**
 * One screen (or group) of the drawer menu. A later issue adds its screen with one entry here;
 * only screens that exist in the product are listed.
 */
export interface MenuEntry {
  /** Product-permission name (`plan_config.product_permition` key), unique in the catalogue. */
  name: string;
  /** `name` of the group it sits under; top level when absent. Parents come before children. */
  parent?: string;
  /** i18n key of the label. */
  label: string;
  icon: MenuIcon;
  /** Console path; null for a group without a page of its own (dropped when it has no child). */
  to: string | null;
  /** Resource the plan must grant for the entry to show (also the page's route gating). */
  validation?: string;
  disable?: boolean;
  badge?: MenuBadge;
}

/** The product's screens, in drawer order. */
export const MENU_CATALOGUE: readonly MenuEntry[] = [
  { name: 'hosts', label: 'menu.hosts', icon: 'server', to: '/flightdeck/services' },
  { name: 'cockpit', label: 'menu.cockpit', icon: 'dashboard', to: null },
  {
    name: 'master_warning',
    parent: 'cockpit',
    label: 'menu.master_warning',
    icon: 'alert',
    to: '/flightdeck/cockpit/master_warning',
    validation: 'flightdeck.cockpit.master_warning',
  },
  {
    name: 'files_criticals',
    parent: 'cockpit',
    label: 'menu.files_criticals',
    icon: 'shield',
    to: '/flightdeck/cockpit/files_criticals',
    validation: 'flightdeck.cockpit.files_criticals',
  },
  { name: 'flashback', label: 'menu.flashback', icon: 'history', to: null },
  {
    name: 'flashback_alerts',
    parent: 'flashback',
    label: 'menu.flashback_alerts',
    icon: 'bell',
    to: '/flightdeck/flashback/alerts',
    validation: 'flightdeck.flashback.alerts',
  },
  { name: 'managements', label: 'menu.management', icon: 'settings', to: null },
  {
    name: 'thresholds',
    parent: 'managements',
    label: 'menu.thresholds',
    icon: 'chart',
    to: '/flightdeck/management/thresholds',
    validation: 'flightdeck.management.thresholds',
  },
  {
    name: 'management_alerts',
    parent: 'managements',
    label: 'menu.management_alerts',
    icon: 'alert',
    to: '/flightdeck/management/alerts',
    validation: 'flightdeck.management.alerts',
  },
  {
    name: 'maintenance',
    parent: 'managements',
    label: 'menu.maintenance',
    icon: 'tools',
    to: '/flightdeck/management/maintenance',
    validation: 'flightdeck.management.maintenance',
  },
  {
    name: 'escalation',
    parent: 'managements',
    label: 'menu.escalation',
    icon: 'bell',
    to: '/flightdeck/management/escalation',
    validation: 'flightdeck.management.escalation',
  },
  { name: 'about', parent: 'managements', label: 'menu.about', icon: 'info', to: '/managements/about' },
];

/** What the menu is filtered by. */
export interface MenuPlan {
  productPermissions: ProductPermissions;
  resources: PlanResources;
}

/**
 * Items an entry lists below its catalogue children, computed per request: e.g. tower control's
 * spaces, each with its lists. Its items are not filtered again.
 */
export type MenuChildrenProvider = (entry: MenuEntry) => Promise<MenuItem[]>;

export interface BuildMenuOptions {
  entries?: readonly MenuEntry[];
  /** By entry name. */
  children?: Readonly<Record<string, MenuChildrenProvider>>;
}

/**
 * The menu tree for a plan: entries the product permissions hide (spec: a name with a value other
 * than 1) or whose validation resource the plan does not grant are left out, with everything under
 * them; a group left with no child and no page of its own is left out too.
 */
export async function buildMenu(plan: MenuPlan, options: BuildMenuOptions = {}): Promise<MenuItem[]> {
  const entries = options.entries ?? MENU_CATALOGUE;
  const shown = (e: MenuEntry) =>
    menuItemVisible(plan.productPermissions, e.name) &&
    (e.validation === undefined || planGrantsResource(plan.resources, e.validation));

  const build = async (parent: string | undefined): Promise<MenuItem[]> => {
    const items: MenuItem[] = [];
    for (const entry of entries) {
      if (entry.parent !== parent || !shown(entry)) continue;
      const provider = options.children?.[entry.name];
      const sub_menu = [...(await build(entry.name)), ...(provider ? await provider(entry) : [])];
      if (entry.to === null && sub_menu.length === 0) continue;
      const extra_config: MenuItem['extra_config'] = {};
      if (entry.disable !== undefined) extra_config.disable = entry.disable;
      if (entry.badge !== undefined) extra_config.badge = entry.badge;
      items.push({
        name: entry.name,
        label: entry.label,
        icon: entry.icon,
        to: entry.to,
        sub_menu,
        extra_config,
        ...(entry.validation !== undefined ? { validation: entry.validation } : {}),
      });
    }
    return items;
  };
  return build(undefined);
}
