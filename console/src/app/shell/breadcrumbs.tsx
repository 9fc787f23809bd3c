import { Anchor, Breadcrumbs, Menu, Text, UnstyledButton } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { createStore, useStore } from '../../lib/store';

/** One breadcrumb: a link, plain text, or a dropdown of sibling pages. */
export interface BreadcrumbItem {
  label: string;
  to?: string;
  options?: { label: string; to: string }[];
}

/** Breadcrumbs a page sets; every page change clears them (spec 2). */
export const breadcrumbStore = createStore<BreadcrumbItem[]>([]);

export function clearBreadcrumbs(): void {
  breadcrumbStore.set([]);
}

/** Sets the page's breadcrumbs while it is shown. */
export function useBreadcrumbs(items: BreadcrumbItem[]): void {
  const key = JSON.stringify(items);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the serialised items are the dependency
  useEffect(() => {
    breadcrumbStore.set(items);
    return clearBreadcrumbs;
  }, [key]);
}

/** The page's breadcrumbs, or its place in the menu when it sets none. */
export function ShellBreadcrumbs({ fallback }: { fallback: BreadcrumbItem[] }) {
  const { t } = useTranslation();
  const own = useStore(breadcrumbStore);
  const items = own.length > 0 ? own : fallback;
  if (items.length === 0) return null;
  return (
    <nav aria-label={t('shell.breadcrumbs')}>
      <Breadcrumbs separatorMargin={6} mb="md" fz="sm" style={{ flexWrap: 'wrap', rowGap: 4 }}>
        {items.map((item, index) => {
          const last = index === items.length - 1;
          if (item.options && item.options.length > 0) {
            return (
              <Menu key={item.label} position="bottom-start" withinPortal>
                <Menu.Target>
                  <UnstyledButton fz="sm" c="dimmed">
                    {item.label} ▾
                  </UnstyledButton>
                </Menu.Target>
                <Menu.Dropdown>
                  {item.options.map((option) => (
                    <Menu.Item key={option.to} component={Link} to={option.to}>
                      {option.label}
                    </Menu.Item>
                  ))}
                </Menu.Dropdown>
              </Menu>
            );
          }
          if (item.to && !last) {
            return (
              <Anchor key={item.label} component={Link} to={item.to} fz="sm">
                {item.label}
              </Anchor>
            );
          }
          return (
            <Text
              key={item.label}
              fz="sm"
              c={last ? undefined : 'dimmed'}
              aria-current={last ? 'page' : undefined}
            >
              {item.label}
            </Text>
          );
        })}
      </Breadcrumbs>
    </nav>
  );
}
