import type { MenuItem } from '@flightdeck/schemas';
import { Badge, NavLink } from '@mantine/core';
import { Link, useRouterState } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../icons';
import { menuLabel } from '../page-heading';
import { holdsPath } from './menu-tree';

/** Badge colours the API names, mapped to the theme's palette; a Mantine colour passes through. */
const BADGE_COLORS: Record<string, string> = {
  info: 'blue',
  success: 'teal',
  warning: 'yellow',
  error: 'red',
  danger: 'red',
  primary: 'indigo',
};

interface MenuTreeProps {
  items: MenuItem[];
  /** While searching every branch is open, so the matches show. */
  expandAll: boolean;
  onNavigate: () => void;
}

export function MenuTree({ items, expandAll, onNavigate }: MenuTreeProps) {
  return (
    <>
      {items.map((item) => (
        <MenuEntry key={item.name} item={item} expandAll={expandAll} onNavigate={onNavigate} depth={0} />
      ))}
    </>
  );
}

function MenuEntry({
  item,
  expandAll,
  onNavigate,
  depth,
}: Omit<MenuTreeProps, 'items'> & { item: MenuItem; depth: number }) {
  const { t } = useTranslation();
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const [opened, setOpened] = useState(() => holdsPath(item, pathname));
  const label = menuLabel(t, item);
  const badge = item.extra_config.badge;
  const common = {
    label,
    leftSection: depth === 0 ? <Icon name={item.icon} size={18} /> : undefined,
    rightSection: badge ? (
      <Badge size="xs" variant="light" color={BADGE_COLORS[badge.color] ?? badge.color}>
        {t(badge.label, { defaultValue: badge.label })}
      </Badge>
    ) : undefined,
    disabled: item.extra_config.disable === true,
    'data-menu-item': item.name,
  };

  if (item.sub_menu.length > 0) {
    return (
      <NavLink
        {...common}
        component="button"
        opened={expandAll || opened}
        onChange={setOpened}
        childrenOffset={28}
      >
        {item.sub_menu.map((child) => (
          <MenuEntry
            key={child.name}
            item={child}
            expandAll={expandAll}
            onNavigate={onNavigate}
            depth={depth + 1}
          />
        ))}
      </NavLink>
    );
  }
  if (item.to === null || common.disabled) return <NavLink {...common} component="button" />;
  return (
    <NavLink
      {...common}
      component={Link}
      to={item.to}
      active={pathname === item.to}
      aria-current={pathname === item.to ? 'page' : undefined}
      onClick={onNavigate}
    />
  );
}
