import type { MenuItem } from '@flightdeck/schemas';
import { describe, expect, it } from 'vitest';
import { filterMenu, holdsPath, menuChain } from './menu-tree';

const item = (name: string, to: string | null, sub_menu: MenuItem[] = []): MenuItem => ({
  name,
  label: `menu.${name}`,
  icon: 'info',
  to,
  sub_menu,
  extra_config: {},
});

const labels: Record<string, string> = {
  'menu.cockpit': 'Cockpit',
  'menu.master_warning': 'Master Warning',
  'menu.inventory': 'Inventory',
  'menu.management': 'Management',
  'menu.about': 'About',
  'menu.alerts': 'Alerts',
};
const translate = (entry: MenuItem) => labels[entry.label] ?? entry.label;

const tree = [
  item('cockpit', null, [
    item('master_warning', '/flightdeck/cockpit/master_warning'),
    item('inventory', '/inv'),
  ]),
  item('management', null, [
    item('alerts', '/flightdeck/management/alerts'),
    item('about', '/managements/about'),
  ]),
];

describe('filterMenu', () => {
  it('leaves the tree whole below two characters', () => {
    expect(filterMenu(tree, 'a', translate)).toEqual(tree);
    expect(filterMenu(tree, ' ', translate)).toEqual(tree);
  });

  it('matches translated labels without regard to case and keeps the parents of matches', () => {
    const result = filterMenu(tree, 'ABO', translate);
    expect(result.map((i) => i.name)).toEqual(['management']);
    expect(result[0]?.sub_menu.map((i) => i.name)).toEqual(['about']);
  });

  it('keeps every branch that holds a match', () => {
    const result = filterMenu(tree, 'war', translate);
    expect(result.map((i) => i.name)).toEqual(['cockpit']);
    expect(filterMenu(tree, 'er', translate).map((i) => i.name)).toEqual(['cockpit', 'management']);
  });

  it('keeps the whole sub-menu of a parent that matches', () => {
    expect(filterMenu(tree, 'cockpit', translate)[0]?.sub_menu).toHaveLength(2);
  });

  it('returns nothing when nothing matches', () => {
    expect(filterMenu(tree, 'zz', translate)).toEqual([]);
  });
});

describe('menuChain and holdsPath', () => {
  it('finds the chain of labels down to the page', () => {
    expect(menuChain(tree, '/managements/about/').map((i) => i.name)).toEqual(['management', 'about']);
    expect(menuChain(tree, '/nowhere')).toEqual([]);
  });

  it('tells which branch holds the page', () => {
    expect(holdsPath(tree[1]!, '/managements/about')).toBe(true);
    expect(holdsPath(tree[0]!, '/managements/about')).toBe(false);
  });
});
