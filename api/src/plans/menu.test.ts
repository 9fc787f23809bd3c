import { RoutesData } from '@flightdeck/schemas';
import { describe, expect, it } from 'vitest';
import { buildMenu, MENU_CATALOGUE, type MenuEntry, type MenuPlan } from './menu';

const entries: MenuEntry[] = [
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
    name: 'mysql_monitor',
    parent: 'cockpit',
    label: 'menu.mysql',
    icon: 'database',
    to: '/flightdeck/services',
    validation: 'service.mysql',
    badge: { color: 'info', label: 'menu.badge_new' },
  },
  { name: 'tower_control', label: 'menu.tower_control', icon: 'ticket', to: '/tower_control/home' },
];

const everything: MenuPlan = {
  productPermissions: {},
  resources: { flightdeck: { cockpit: { master_warning: 1 } }, service: ['mysql'] },
};

describe('buildMenu', () => {
  it('builds the tree from the catalogue in order, with parents holding their children', async () => {
    const menu = await buildMenu(everything, { entries });
    expect(RoutesData.parse(menu)).toEqual(menu);
    expect(menu.map((m) => m.name)).toEqual(['cockpit', 'tower_control']);
    expect(menu[0]?.sub_menu.map((m) => m.name)).toEqual(['master_warning', 'mysql_monitor']);
    expect(menu[0]?.sub_menu[1]).toMatchObject({
      validation: 'service.mysql',
      extra_config: { badge: { color: 'info', label: 'menu.badge_new' } },
    });
  });

  it('leaves out items the product permissions hide, with everything under them', async () => {
    const menu = await buildMenu(
      { ...everything, productPermissions: { cockpit: 0, tower_control: 1 } },
      { entries },
    );
    expect(menu.map((m) => m.name)).toEqual(['tower_control']);
  });

  it('leaves out items whose validation resource the plan does not grant, then empty groups', async () => {
    const some = await buildMenu({ productPermissions: {}, resources: { service: ['mysql'] } }, { entries });
    expect(some[0]?.sub_menu.map((m) => m.name)).toEqual(['mysql_monitor']);
    const none = await buildMenu({ productPermissions: {}, resources: {} }, { entries });
    expect(none.map((m) => m.name)).toEqual(['tower_control']);
  });

  it('appends the items a children provider gives, per request', async () => {
    const menu = await buildMenu(everything, {
      entries,
      children: {
        tower_control: async (entry) => [
          {
            name: `${entry.name}_space_1`,
            label: 'Operations',
            icon: 'folder',
            to: '/tower_control/space/1',
            extra_config: {},
            sub_menu: [
              {
                name: 'list_4',
                label: 'Incidents',
                icon: 'list',
                to: '/tower_control/list/4',
                extra_config: {},
                sub_menu: [],
              },
            ],
          },
        ],
      },
    });
    expect(menu[1]?.sub_menu[0]?.sub_menu[0]?.to).toBe('/tower_control/list/4');
  });

  it('lists only screens that exist, in drawer order', async () => {
    expect(MENU_CATALOGUE.map((e) => e.to).filter(Boolean)).toEqual([
      '/flightdeck/services',
      '/flightdeck/cockpit/master_warning',
      '/flightdeck/cockpit/files_criticals',
      '/flightdeck/flashback/alerts',
      '/flightdeck/management/thresholds',
      '/flightdeck/management/alerts',
      '/flightdeck/management/maintenance',
      '/flightdeck/management/escalation',
      '/managements/about',
    ]);
  });
});
