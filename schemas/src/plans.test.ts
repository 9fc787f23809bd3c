import { describe, expect, it } from 'vitest';
import {
  deployAllowed,
  hasResource,
  isAvailableAnswer,
  MenuItem,
  menuItemVisible,
  PlanConfig,
  PlanResources,
  planGrantsResource,
  stripServicePrefix,
} from './plans';

const resources: PlanResources = {
  flightdeck: { cockpit: { master_warning: 1, capacity: '1', inventory: 0, spam_check: '0' }, empty: {} },
  service: ['linux', 'mysql', 'postgresql'],
  tower_control: 1,
  apm: 0,
  none: [],
};

describe('hasResource', () => {
  it('grants a dotted path found as keys down to a 1 or "1" leaf', () => {
    expect(hasResource(resources, 'flightdeck.cockpit.master_warning')).toBe(true);
    expect(hasResource(resources, 'flightdeck.cockpit.capacity')).toBe(true);
    expect(hasResource(resources, 'tower_control')).toBe(true);
  });

  it('denies a leaf of 0 or "0"', () => {
    expect(hasResource(resources, 'flightdeck.cockpit.inventory')).toBe(false);
    expect(hasResource(resources, 'flightdeck.cockpit.spam_check')).toBe(false);
    expect(hasResource(resources, 'apm')).toBe(false);
  });

  it('grants when the last part is in an array met at the step before', () => {
    expect(hasResource(resources, 'service.mysql')).toBe(true);
    expect(hasResource(resources, 'service.oracle')).toBe(false);
  });

  it('denies a missing path, a path going past a leaf or an array, and an empty path', () => {
    expect(hasResource(resources, 'flightdeck.copilot.advisor')).toBe(false);
    expect(hasResource(resources, 'nothing')).toBe(false);
    expect(hasResource(resources, 'tower_control.space')).toBe(false);
    expect(hasResource(resources, 'service.mysql.replication')).toBe(false);
    expect(hasResource(resources, '')).toBe(false);
    expect(hasResource(undefined, 'tower_control')).toBe(false);
  });

  it('grants a branch reached by its key only when something under it is granted', () => {
    expect(hasResource(resources, 'flightdeck.cockpit')).toBe(true);
    expect(hasResource(resources, 'service')).toBe(true);
    expect(hasResource(resources, 'flightdeck.empty')).toBe(false);
    expect(hasResource(resources, 'none')).toBe(false);
  });

  it('does not find inherited keys such as toString', () => {
    expect(hasResource(resources, 'toString')).toBe(false);
    expect(hasResource(resources, 'service.length')).toBe(false);
  });

  it('reads a flat list of names at the root', () => {
    expect(hasResource(['apm', 'security'], 'apm')).toBe(true);
    expect(hasResource(['apm', 'security'], 'reports')).toBe(false);
  });
});

describe('stripServicePrefix', () => {
  it('removes a leading "service." only', () => {
    expect(stripServicePrefix('service.mysql')).toBe('mysql');
    expect(stripServicePrefix('mysql')).toBe('mysql');
    expect(stripServicePrefix('flightdeck.service.mysql')).toBe('flightdeck.service.mysql');
    expect(stripServicePrefix('services.mysql')).toBe('services.mysql');
  });
});

describe('planGrantsResource', () => {
  it('answers the same with and without the service. prefix', () => {
    expect(planGrantsResource(resources, 'service.mysql')).toBe(true);
    expect(planGrantsResource(resources, 'mysql')).toBe(true);
    expect(planGrantsResource(resources, 'service.oracle')).toBe(false);
    expect(planGrantsResource(resources, 'tower_control')).toBe(true);
    expect(planGrantsResource(resources, 'apm')).toBe(false);
  });
});

describe('isAvailableAnswer', () => {
  it('is true for 1 and "1" only', () => {
    expect(isAvailableAnswer(1)).toBe(true);
    expect(isAvailableAnswer('1')).toBe(true);
    for (const v of [0, '0', true, 2, 'yes', null, undefined, [1]]) expect(isAvailableAnswer(v)).toBe(false);
  });
});

describe('menuItemVisible', () => {
  it('hides an item the map names with a value other than 1, and shows unnamed ones', () => {
    const map = { cockpit: 1, tower_control: 0, apm: 2 };
    expect(menuItemVisible(map, 'cockpit')).toBe(true);
    expect(menuItemVisible(map, 'tower_control')).toBe(false);
    expect(menuItemVisible(map, 'apm')).toBe(false);
    expect(menuItemVisible(map, 'about')).toBe(true);
    expect(menuItemVisible(map, 'constructor')).toBe(true);
  });
});

describe('deployAllowed', () => {
  it('allows the Deploy entry when either kind is permitted, and one kind when asked', () => {
    const agentOnly = { deploy: { agent: 1, agentless: 0 } } as const;
    expect(deployAllowed(agentOnly)).toBe(true);
    expect(deployAllowed(agentOnly, 'agent')).toBe(true);
    expect(deployAllowed(agentOnly, 'agentless')).toBe(false);
    expect(deployAllowed({ deploy: { agent: 0, agentless: 0 } })).toBe(false);
    expect(deployAllowed({ deploy: { agent: 0, agentless: 1 } })).toBe(true);
  });
});

describe('schemas', () => {
  it('parses plan resources and rejects other leaves', () => {
    expect(PlanResources.parse(resources)).toEqual(resources);
    expect(PlanResources.safeParse({ a: 2 }).success).toBe(false);
    expect(PlanResources.safeParse({ a: { b: true } }).success).toBe(false);
  });

  it('parses a nested menu item and rejects unknown icons and fields', () => {
    const item = {
      name: 'managements',
      label: 'menu.management',
      icon: 'settings',
      to: null,
      extra_config: {},
      sub_menu: [
        {
          name: 'about',
          label: 'menu.about',
          icon: 'info',
          to: '/managements/about',
          sub_menu: [],
          extra_config: { disable: false, badge: { color: 'info', label: 'menu.badge_new' } },
          validation: 'service.mysql',
        },
      ],
    };
    expect(MenuItem.parse(item)).toEqual(item);
    expect(MenuItem.safeParse({ ...item, icon: 'unicorn' }).success).toBe(false);
    expect(MenuItem.safeParse({ ...item, extra: 1 }).success).toBe(false);
  });

  it('parses a plan config with null limits meaning unlimited', () => {
    const config = {
      plan_id: 1,
      name: 'Freemium',
      is_freemium: 1,
      lifetime: 14,
      register_in: 1_700_000_000,
      plan_config: { product_permition: { tower_control: 0 } },
      plataform_permitions: { deploy: { agent: 1, agentless: 0 } },
      limits: {
        users: 3,
        services: null,
        servers: 3,
        retention_days: 7,
        sessions: 2,
        max_flashback_days: 7,
      },
    };
    expect(PlanConfig.parse(config)).toEqual(config);
    expect(PlanConfig.safeParse({ ...config, is_freemium: 2 }).success).toBe(false);
  });
});
