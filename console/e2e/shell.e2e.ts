import type { Locator, Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import enFeatures from '../src/i18n/en.features.json';
import enCore from '../src/i18n/en.json';
import esFeatures from '../src/i18n/es.features.json';
import esCore from '../src/i18n/es.json';
import { scrollsSideways, signInThroughApi, test, waitForShell } from './support/fixtures';

const en = { ...enCore, ...enFeatures };
const es = { ...esCore, ...esFeatures };

const scheme = (page: Page) => page.evaluate(() => document.documentElement.dataset.mantineColorScheme);

/** Whether the mobile drawer is wholly in the window, wholly out (slid to the left) or still sliding. */
const onScreen = (locator: Locator) =>
  locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    return box.left >= 0 ? true : box.right <= 0 ? false : 'sliding';
  });

describe('shell', () => {
  test('the drawer is 235 px wide and shows the menu from the server, Deploy and the user', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await signInThroughApi(page);
    await page.goto('/managements/about');
    await waitForShell(page);
    const drawer = page.getByTestId('drawer');
    expect((await drawer.boundingBox())?.width).toBe(235);
    await drawer.locator('[data-menu-item="about"]').waitFor();
    expect(await drawer.locator('[data-menu-item="deploy"]').getAttribute('href')).toBe('/deploy');
    expect(await page.getByTestId('drawer-user-email').textContent()).toContain('@');
    expect(await page.getByTestId('page-title').textContent()).toBe(
      `${enFeatures.menu.management} - ${enFeatures.menu.about}`,
    );
    expect(await page.getByTestId('alert-chip').textContent()).toBe(en.shell.alerts.statusOk);
    // The refresh control shows from 960 px and follows the About page's live status.
    expect(await page.getByTestId('refresh-control').isVisible()).toBe(true);
    expect(await page.getByTestId('refresh-control').getAttribute('data-state')).toBe('RUNNING');
    await page.getByRole('button', { name: en.shell.refresh.pause }).click();
    expect(await page.getByTestId('refresh-control').getAttribute('data-state')).toBe('PAUSED');
  });

  test('the menu search filters from two characters, keeps parents and says when nothing matches', async ({
    page,
  }) => {
    await signInThroughApi(page);
    await page.goto('/about');
    await waitForShell(page);
    const drawer = page.getByTestId('drawer');
    const search = page.getByTestId('menu-search');
    await search.fill('a');
    await drawer.locator('[data-menu-item="deploy"]').waitFor();
    await search.fill('ABO');
    await drawer.locator('[data-menu-item="about"]').waitFor();
    expect(await drawer.locator('[data-menu-item="managements"]').count()).toBe(1);
    expect(await drawer.locator('[data-menu-item="deploy"]').count()).toBe(0);
    await search.fill('zz');
    await page
      .getByTestId('menu-empty')
      .getByText(en.shell.search.noMatch.replace('{{query}}', 'zz'))
      .waitFor();
    await search.fill('dep');
    await drawer.locator('[data-menu-item="deploy"]').waitFor();
    expect(await drawer.locator('[data-menu-item="about"]').count()).toBe(0);
  });

  test('an unknown page of a signed-in user shows the not-found page inside the shell', async ({ page }) => {
    await signInThroughApi(page);
    await page.goto('/no/such/page');
    await waitForShell(page);
    await page.getByTestId('error-page').getByText(en.errorPage.notFound.message, { exact: true }).waitFor();
    expect(await page.getByRole('link', { name: en.errorPage.goBack }).getAttribute('href')).toBe('/');
    expect(await page.title()).toBe(en.errorPage.notFound.tabTitle);
  });

  test('a /tms/ path is rewritten to /ground_control/', async ({ page }) => {
    await signInThroughApi(page);
    await page.goto('/tms/space/1?tkt=4');
    await page.waitForURL((url) => url.pathname === '/ground_control/space/1');
    expect(new URL(page.url()).searchParams.get('tkt')).toBe('4');
  });

  test('dark mode and the language are saved as preferences and kept across a reload', async ({ page }) => {
    await signInThroughApi(page);
    await page.goto('/about');
    await waitForShell(page);
    expect(await scheme(page)).toBe('light');
    await page.getByTestId('drawer').getByRole('button', { name: en.common.switchToDark }).click();
    expect(await scheme(page)).toBe('dark');
    await page.getByLabel(en.common.language).selectOption('es');
    await page.getByTestId('page-title').getByText(es.about.pageTitle).waitFor();
    await expect
      .poll(async () => {
        const response = await page.context().request.post('/api/user/get_preference', { data: {} });
        const list = (await response.json()).data as { preference: string; value: string }[];
        return Object.fromEntries(list.map((p) => [p.preference, p.value]));
      })
      .toMatchObject({ dark_mode: '1', locale: 'es' });
    await page.reload();
    await page.getByTestId('page-title').getByText(es.about.pageTitle).waitFor();
    expect(await scheme(page)).toBe('dark');
    await page.screenshot({ path: `${import.meta.dirname}/screenshots/shell--about-dark-es-1280.png` });
    // Back to English and light for the tests that follow with the same admin.
    await page.getByTestId('drawer').getByRole('button', { name: es.common.switchToLight }).click();
    await page.getByLabel(es.common.language).selectOption('en');
    await page.getByTestId('page-title').getByText(en.about.pageTitle).waitFor();
    await expect
      .poll(async () => {
        const response = await page.context().request.post('/api/user/get_preference', { data: {} });
        const list = (await response.json()).data as { preference: string; value: string }[];
        return Object.fromEntries(list.map((p) => [p.preference, p.value]));
      })
      .toMatchObject({ dark_mode: '0', locale: 'en' });
  });

  test('TV mode hides the drawer and breadcrumbs, is kept in ?tv=1 and leaves again', async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await signInThroughApi(page);
    await page.goto('/managements/about');
    await waitForShell(page);
    await page.getByRole('navigation', { name: en.shell.breadcrumbs }).waitFor();
    await page.getByTestId('tv-toggle').click();
    await page.waitForURL((url) => url.searchParams.get('tv') === '1');
    await page.getByTestId('drawer').waitFor({ state: 'detached' });
    expect(await page.getByRole('navigation', { name: en.shell.breadcrumbs }).count()).toBe(0);
    await expect
      .poll(() => page.locator('#main').evaluate((main) => main.getBoundingClientRect().left))
      .toBe(0);
    await page.waitForTimeout(300); // the main area's padding eases out
    await page.screenshot({ path: `${import.meta.dirname}/screenshots/shell--tv-mode-1440.png` });
    await page.reload();
    await waitForShell(page);
    expect(await page.getByTestId('drawer').count()).toBe(0);
    await page.getByRole('button', { name: en.shell.tv.exit }).click();
    await page.getByTestId('drawer').waitFor();
    expect(new URL(page.url()).searchParams.get('tv')).toBeNull();
  });

  test('the period picker keeps its choice in the URL, which reopens the same period', async ({ page }) => {
    await signInThroughApi(page);
    // The About page does not follow the period: the picker is off there, but a link keeps it.
    await page.goto('/about?range=last_week&interval=600');
    await waitForShell(page);
    expect(await page.getByTestId('period-picker').textContent()).toContain(en.shell.period.types.last_week);
    expect(await page.getByTestId('period-picker').isDisabled()).toBe(true);
    // A period that ends in the past turns auto-refresh off.
    expect(await page.getByTestId('refresh-control').getAttribute('data-state')).toBe('DISABLED');
    await page.getByTestId('drawer').locator('[data-menu-item="managements"]').click();
    await page.getByTestId('drawer').locator('[data-menu-item="about"]').click();
    await page.waitForURL((url) => url.pathname === '/managements/about');
    const url = new URL(page.url());
    expect(url.searchParams.get('range')).toBe('last_week');
    expect(url.searchParams.get('interval')).toBe('600');
  });

  for (const [width, height] of [
    [360, 780],
    [1440, 900],
  ] as const) {
    for (const colorScheme of ['light', 'dark'] as const) {
      test(`the shell holds at ${width} px in ${colorScheme} mode`, async ({ page }) => {
        await page.setViewportSize({ width, height });
        await signInThroughApi(page);
        // The server's preference wins over the browser's on every shell load.
        await page.context().request.post('/api/user/set_preference', {
          data: { preference: 'dark_mode', value: colorScheme === 'dark' ? '1' : '0' },
        });
        await page.goto('/managements/about');
        await waitForShell(page);
        await page.getByTestId('state-collector').waitFor();
        expect(await scrollsSideways(page)).toBe(false);
        // Below 960 px the refresh control is hidden; the drawer opens from the menu button.
        expect(await page.getByTestId('refresh-control').isVisible()).toBe(width >= 960);
        expect(await scheme(page)).toBe(colorScheme);
        if (width < 768) {
          expect(await onScreen(page.getByTestId('drawer'))).toBe(false);
          await page.getByTestId('menu-toggle').click();
          await expect.poll(() => onScreen(page.getByTestId('drawer'))).toBe(true);
          await page.screenshot({
            path: `${import.meta.dirname}/screenshots/shell--drawer-${width}-${colorScheme}.png`,
          });
          await page.getByTestId('drawer').locator('[data-menu-item="about"]').click();
          await expect.poll(() => onScreen(page.getByTestId('drawer'))).toBe(false);
        }
        await page.screenshot({
          path: `${import.meta.dirname}/screenshots/shell--${width}-${colorScheme}.png`,
        });
      });
    }
  }

  test('the alert chip opens the open-alerts panel in the right sidebar', async ({ page }) => {
    await signInThroughApi(page);
    await page.goto('/about');
    await waitForShell(page);
    await page.getByTestId('alert-chip').click();
    await page.getByTestId('open-alerts-panel').getByText(en.shell.alerts.none).waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('open-alerts-panel').waitFor({ state: 'detached' });
  });
});
