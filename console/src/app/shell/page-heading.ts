import type { MenuItem } from '@flightdeck/schemas';
import { useQuery } from '@tanstack/react-query';
import { useRouterState } from '@tanstack/react-router';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { menuQuery } from '../../features/plan/queries';
import type { PageMeta } from '../route-meta';
import type { BreadcrumbItem } from './breadcrumbs';
import type { IconName } from './icons';
import { menuChain } from './menu/menu-tree';

/** A menu label key translated, or the item's name in words when the key has no translation. */
export function menuLabel(t: TFunction, item: Pick<MenuItem, 'label' | 'name'>): string {
  return t(item.label, { defaultValue: humanize(item.name) });
}

function humanize(name: string): string {
  const words = name.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export interface PageHeading {
  icon: IconName;
  /** The translated labels from the top of the menu to the page, joined with " - " (spec 2). */
  title: string;
  /** The same labels one by one; a narrow top bar shows only the last. */
  parts: string[];
  crumbs: BreadcrumbItem[];
  meta: PageMeta;
}

/** The current page's icon, title chain and place in the menu, from the menu or the route's own metadata. */
export function usePageHeading(): PageHeading {
  const { t } = useTranslation();
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const meta = useRouterState({ select: (state) => state.matches.at(-1)?.staticData ?? {} });
  const menu = useQuery(menuQuery).data ?? [];
  const chain = menuChain(menu, pathname);
  const last = chain.at(-1);
  if (last) {
    const parts = chain.map((item) => menuLabel(t, item));
    return {
      icon: last.icon,
      title: parts.join(' - '),
      parts,
      crumbs: chain.map((item) => ({ label: menuLabel(t, item), ...(item.to ? { to: item.to } : {}) })),
      meta,
    };
  }
  const title = meta.titleKey
    ? t(meta.titleKey)
    : meta.ownsTabTitle
      ? t('errorPage.notFound.title')
      : t('app.name');
  return { icon: meta.icon ?? 'dashboard', title, parts: [title], crumbs: [], meta };
}
