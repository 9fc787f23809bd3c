import { Anchor, Group } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import classes from './AppLayout.module.css';
import { ColorSchemeToggle } from './ColorSchemeToggle';
import { LanguageSwitch } from './LanguageSwitch';
import { Logo } from './Logo';

/**
 * Frame of the signed-in pages: a top bar with the product name, language and colour scheme.
 * The full shell of the spec (drawer, menus, time range, plan gating) grows from here.
 */
export function AppLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className={classes.root}>
      <header className={classes.header}>
        <Anchor component={Link} to="/" underline="never" c="inherit" aria-label={t('app.name')}>
          <Logo size={26} />
        </Anchor>
        <Group gap="xs" wrap="nowrap">
          <LanguageSwitch />
          <ColorSchemeToggle />
        </Group>
      </header>
      <main id="main" className={classes.main}>
        {children}
      </main>
    </div>
  );
}
