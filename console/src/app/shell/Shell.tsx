import './shell-styles';
import { AppShell } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { Notifications } from '@mantine/notifications';
import { getRouteApi, Outlet } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { PlanGate } from '../../features/plan/PlanGate';
import { useRestorePreferences, useSavePreference } from '../../features/preferences/usePreferences';
import { setLocale } from '../../i18n';
import type { Locale } from '../../i18n/locale';
import { ShellBreadcrumbs } from './breadcrumbs';
import { DialogHost, SidebarHost } from './hosts/PanelHosts';
import { NavDrawer } from './NavDrawer';
import { usePageHeading } from './page-heading';
import { useRouteChangeEffects } from './route-effects';
import classes from './Shell.module.css';
import { TopBar } from './TopBar';
import { useTvFullscreen } from './TvMode';
import { WelcomeBanner } from './WelcomeBanner';

const route = getRouteApi('/shell');

/** Spec 2 and 9: the drawer is 235 px wide; below Mantine's sm breakpoint it covers the page. */
export const DRAWER_WIDTH = 235;
/** Spec 9: toasts last 3 s. */
export const TOAST_MS = 3_000;

/**
 * The frame of every signed-in page (spec 2, "Authenticated shell"): top bar, left drawer with the
 * menu, breadcrumbs, right sidebar and dialog hosts, the welcome banner, toasts, plan gating and
 * TV mode.
 */
export function Shell() {
  const { t } = useTranslation();
  const search = route.useSearch();
  const tv = search.tv === 1;
  const desktop = useMediaQuery('(min-width: 48em)', true) ?? true;
  const [mobileOpened, mobile] = useDisclosure(false);
  const [desktopOpened, desktopDrawer] = useDisclosure(true);
  const heading = usePageHeading();
  const savePreference = useSavePreference();

  useRestorePreferences();
  useRouteChangeEffects(search);
  useTvFullscreen(tv);

  // Spec 2: the tab reads "Flightdeck - {page title}"; error pages set their own.
  const tabTitle = t('app.pageTitle', { title: heading.title });
  useEffect(() => {
    if (!heading.meta.ownsTabTitle) document.title = tabTitle;
  }, [tabTitle, heading.meta.ownsTabTitle]);

  const drawerOpened = desktop ? desktopOpened : mobileOpened;
  const onLocaleChange = (locale: Locale) => {
    void setLocale(locale);
    savePreference.mutate({ preference: 'locale', value: locale });
  };

  return (
    <AppShell
      header={{ height: { base: 100, lg: 56 } }}
      navbar={{
        width: DRAWER_WIDTH,
        breakpoint: 'sm',
        collapsed: { mobile: tv || !mobileOpened, desktop: tv || !desktopOpened },
      }}
      padding={{ base: 'sm', sm: 'md' }}
      data-tv={tv || undefined}
      data-testid="shell"
    >
      <a className={classes.skipLink} href="#main">
        {t('app.skipToContent')}
      </a>
      <AppShell.Header>
        <TopBar
          search={search}
          heading={heading}
          drawerOpened={!tv && drawerOpened}
          onToggleDrawer={desktop ? desktopDrawer.toggle : mobile.toggle}
          onLocaleChange={onLocaleChange}
        />
      </AppShell.Header>
      {!tv && (
        <AppShell.Navbar id="shell-drawer" aria-label={t('shell.menu')} data-testid="drawer">
          <NavDrawer
            onNavigate={mobile.close}
            onColorSchemeChange={(scheme) =>
              savePreference.mutate({ preference: 'dark_mode', value: scheme === 'dark' ? '1' : '0' })
            }
          />
        </AppShell.Navbar>
      )}
      <AppShell.Main id="main" className={classes.main} tabIndex={-1}>
        <div className={classes.content}>
          {!tv && <ShellBreadcrumbs fallback={heading.crumbs} />}
          <PlanGate>
            <Outlet />
          </PlanGate>
        </div>
      </AppShell.Main>
      {!tv && <SidebarHost />}
      <DialogHost />
      <WelcomeBanner />
      <Notifications position="bottom-right" autoClose={TOAST_MS} />
    </AppShell>
  );
}
