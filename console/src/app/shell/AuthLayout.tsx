import { Anchor, Group, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import classes from './AuthLayout.module.css';
import { ColorSchemeToggle } from './ColorSchemeToggle';
import { LanguageSwitch } from './LanguageSwitch';
import { Logo } from './Logo';

/**
 * The layout of the open pages (spec 2, "Auth layout"): animated background, product name, the
 * language and colour-scheme controls, and a footer with the terms and privacy links.
 */
export function AuthLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className={classes.root}>
      <a className={classes.skipLink} href="#main">
        {t('app.skipToContent')}
      </a>
      <div className={classes.background} aria-hidden="true">
        <span className={classes.blob} />
        <span className={classes.blob} />
        <span className={classes.blob} />
      </div>
      <header className={classes.header}>
        <Anchor component={Link} to="/" underline="never" c="inherit" aria-label={t('app.name')}>
          <Logo size={28} />
        </Anchor>
        <Group gap="xs" wrap="nowrap">
          <LanguageSwitch />
          <ColorSchemeToggle />
        </Group>
      </header>
      <main id="main" className={classes.main}>
        {children}
      </main>
      <footer className={classes.footer}>
        <Text component="span" inherit>
          © {new Date().getFullYear()} {t('app.name')}
        </Text>
        <Anchor component={Link} to="/terms" inherit c="dimmed">
          {t('legal.terms')}
        </Anchor>
        <Anchor component={Link} to="/privacy" inherit c="dimmed">
          {t('legal.privacy')}
        </Anchor>
      </footer>
    </div>
  );
}
