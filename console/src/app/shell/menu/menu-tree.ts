import type { MenuItem } from '@flightdeck/schemas';

/** Spec 5 and 9: the drawer's search filters only from two characters on. */
export const MENU_SEARCH_MIN_LENGTH = 2;

/**
 * The menu tree filtered by the drawer's search: case-insensitive on the translated labels, keeping
 * the parents of every match (an item that matches keeps its whole sub-menu). Below two characters
 * the tree is returned as it is.
 */
export function filterMenu(
  items: readonly MenuItem[],
  query: string,
  translate: (item: MenuItem) => string,
): MenuItem[] {
  const needle = query.trim().toLocaleLowerCase();
  if (needle.length < MENU_SEARCH_MIN_LENGTH) return [...items];
  const walk = (list: readonly MenuItem[]): MenuItem[] =>
    list.flatMap((item) => {
      if (translate(item).toLocaleLowerCase().includes(needle)) return [item];
      const children = walk(item.sub_menu);
      return children.length > 0 ? [{ ...item, sub_menu: children }] : [];
    });
  return walk(items);
}

/**
 * The chain of items from the top of the tree down to the item whose `to` is `pathname` (the
 * deepest, most specific match wins), or an empty list when the menu does not hold the page.
 */
export function menuChain(items: readonly MenuItem[], pathname: string): MenuItem[] {
  const path = trimSlash(pathname);
  let best: MenuItem[] = [];
  const walk = (list: readonly MenuItem[], trail: MenuItem[]) => {
    for (const item of list) {
      const here = [...trail, item];
      if (item.to !== null && trimSlash(item.to) === path && here.length > best.length) best = here;
      walk(item.sub_menu, here);
    }
  };
  walk(items, []);
  return best;
}

/** Whether the item or one of its descendants is the page at `pathname` (it starts expanded). */
export function holdsPath(item: MenuItem, pathname: string): boolean {
  const path = trimSlash(pathname);
  if (item.to !== null && trimSlash(item.to) === path) return true;
  return item.sub_menu.some((child) => holdsPath(child, pathname));
}

function trimSlash(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}
