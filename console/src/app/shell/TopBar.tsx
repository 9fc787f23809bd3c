import { Anchor, Burger, Group, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import type { Locale } from '../../i18n/locale';
import type { ShellSearch } from '../time-range';
import { AlertStatus } from './AlertStatus';
import { FreemiumTag } from './FreemiumTag';
import { Icon, type IconName } from './icons';
import { LanguageSwitch } from './LanguageSwitch';
import { LogoMark } from './Logo';
import { PeriodPicker } from './PeriodPicker';
import { RefreshControl } from './RefreshControl';
import classes from './Shell.module.css';
import { TvModeToggle } from './TvMode';

interface TopBarProps {
  search: ShellSearch;
  heading: { icon: IconName; title: string; parts: string[] };
  drawerOpened: boolean;
  onToggleDrawer: () => void;
  onLocaleChange: (locale: Locale) => void;
}

/**
 * The shell's top bar (spec 2). Two rows below 1200 px: the page on the first, the status and time
 * controls on the second; one row above. The refresh control shows only from 960 px.
 */
export function TopBar({ search, heading, drawerOpened, onToggleDrawer, onLocaleChange }: TopBarProps) {
  const { t } = useTranslation();
  const tv = search.tv === 1;
  return (
    <div className={classes.bar}>
      <Group className={classes.primary} gap="xs" wrap="nowrap">
        {!tv && (
          <Burger
            opened={drawerOpened}
            onClick={onToggleDrawer}
            size="sm"
            aria-label={drawerOpened ? t('shell.closeMenu') : t('shell.openMenu')}
            aria-expanded={drawerOpened}
            aria-controls="shell-drawer"
            data-testid="menu-toggle"
          />
        )}
        <Anchor
          component={Link}
          to="/"
          underline="never"
          c="inherit"
          aria-label={t('app.name')}
          className={classes.logo}
        >
          <LogoMark size={26} />
          <Text component="span" fw={700} fz={16} visibleFrom="sm">
            {t('app.name')}
          </Text>
        </Anchor>
        <Group gap={6} wrap="nowrap" className={classes.title}>
          <Icon name={heading.icon} size={18} />
          <Text
            component="div"
            fw={600}
            fz={{ base: 'sm', sm: 'md' }}
            truncate="end"
            m={0}
            data-testid="page-title"
            title={heading.title}
          >
            {heading.parts.length > 1 && (
              <span className={classes.titleParents}>{`${heading.parts.slice(0, -1).join(' - ')} - `}</span>
            )}
            {heading.parts.at(-1)}
          </Text>
        </Group>
      </Group>
      <Group className={classes.tools} gap="xs" wrap="nowrap">
        <FreemiumTag />
        <AlertStatus />
        <PeriodPicker search={search} />
        <div className={classes.refresh}>
          <RefreshControl search={search} />
        </div>
      </Group>
      <Group className={classes.end} gap="xs" wrap="nowrap">
        <LanguageSwitch onChange={onLocaleChange} compact />
        <TvModeToggle search={search} />
      </Group>
    </div>
  );
}
