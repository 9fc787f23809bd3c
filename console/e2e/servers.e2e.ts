import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import enFeatures from '../src/i18n/en.features.json';
import enCore from '../src/i18n/en.json';
import { scrollsSideways, signInThroughApi, test, waitForShell } from './support/fixtures';

const en = { ...enCore, ...enFeatures };

const shots = `${import.meta.dirname}/screenshots`;
const scheme = (page: Page) => page.evaluate(() => document.documentElement.dataset.mantineColorScheme);

/** Signs in with the colour scheme saved as the user's preference (the shell restores it). */
async function signIn(page: Page, colorScheme: 'light' | 'dark' = 'light') {
  await signInThroughApi(page);
  const saved = await page.context().request.post('/api/user/set_preference', {
    data: { preference: 'dark_mode', value: colorScheme === 'dark' ? '1' : '0' },
  });
  expect(saved.ok()).toBe(true);
}

/**
 * The product's own host, as its local agent reports it (every 10 s): the list asks again by
 * itself while empty; the test reloads as well so it does not wait on that beat.
 */
async function openLocalHost(page: Page): Promise<string> {
  await page.goto('/flightdeck/services');
  await waitForShell(page);
  const row = page.getByTestId('host-row').first();
  const deadline = Date.now() + 30_000;
  while (!(await row.isVisible())) {
    if (Date.now() > deadline) throw new Error('the local host did not appear within 30 s');
    await page.waitForTimeout(2_000);
    if (!(await row.isVisible())) {
      await page.reload();
      await waitForShell(page);
      await page.getByTestId('hosts-page').waitFor();
    }
  }
  const link = row.getByRole('link').first();
  const name = (await link.textContent()) ?? '';
  // From the keyboard: the host's name is a link.
  await link.focus();
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/flightdeck\/services\/\d+(\/[a-z]+)?(\?|$)/);
  await page.getByTestId('host-name').waitFor();
  return name;
}

/** The card of the first graph of a category, drawn: it holds a canvas (reloads until samples exist). */
async function waitForChart(page: Page, category: string, timeoutMs = 45_000) {
  const card = page.locator(`section[data-category="${category}"] [data-testid="chart-card"]`).first();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await card.waitFor({ timeout: 15_000 });
    await card.scrollIntoViewIfNeeded();
    const canvas = card.locator('canvas').first();
    try {
      await canvas.waitFor({ timeout: 3_000 });
      return card;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
    // No sample of this metric yet (a rate needs two): ask again.
    await page.waitForTimeout(2_000);
    await page.reload();
    await page.getByTestId('host-name').waitFor();
  }
}

/**
 * Rows of a table that fills from the agent's samples (rates and top processes need a second
 * sample): reloads until the first row shows.
 */
async function waitForRows(page: Page, testId: string, timeoutMs = 45_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = page.getByTestId(testId).locator('tbody tr').first();
    try {
      await row.waitFor({ timeout: 5_000 });
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
    await page.reload();
    await page.getByTestId('host-name').waitFor();
  }
}

/** Scrolls the page down and back so every chart has been half on screen once (they draw then). */
async function scrollThrough(page: Page) {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  for (let y = 0; y < height; y += 300) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    await page.waitForTimeout(60);
  }
  await page.evaluate(() => window.scrollTo(0, 0));
}

describe('servers', () => {
  test('the local host appears, its charts draw and its tables fill', async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page);
    await page.goto('/flightdeck/services');
    await waitForShell(page);
    // The list follows the auto-refresh but has no period; the host page has both.
    await expect.poll(() => page.getByTestId('period-picker').isEnabled()).toBe(false);
    const name = await openLocalHost(page);
    expect(name.length).toBeGreaterThan(0);
    expect(await page.getByTestId('host-name').textContent()).toBe(name);

    // The page follows the period picker and the auto-refresh.
    await expect.poll(() => page.getByTestId('period-picker').isEnabled()).toBe(true);
    expect(await page.getByTestId('refresh-control').getAttribute('data-state')).toBe('RUNNING');

    // Status tiles.
    const tiles = page.getByTestId('status-tiles');
    await tiles.locator('[data-tile="cpu"]').waitFor();
    expect(await tiles.locator('[data-tile]').count()).toBe(6);
    expect(await tiles.locator('[data-tile="memory"]').textContent()).toMatch(/%/);

    // CPU, memory, disk and network charts draw on a canvas once on screen.
    for (const category of ['cpu', 'memory', 'disk', 'network']) await waitForChart(page, category);

    // Disks and network tables, the process tables with rows, the inventory.
    await waitForRows(page, 'disks-table');
    await waitForRows(page, 'network-table');
    await waitForRows(page, 'processes-by-cpu');
    expect(await page.getByTestId('processes-by-cpu').locator('tbody tr').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('processes-by-memory').locator('tbody tr').count()).toBeGreaterThan(0);
    await waitForRows(page, 'variables-table');
    await scrollThrough(page);
    await page.getByTestId('host-page').screenshot({ path: `${shots}/servers--host-1440-light.png` });
  });

  test('the data dialog shows 15 rows a page and the chart opens large', async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page);
    await openLocalHost(page);
    // The local agent samples every 10 s: wait (reloading) until the CPU chart holds more than
    // 15 points, so the dialog has a second page.
    const dialog = page.getByTestId('chart-data-dialog');
    const deadline = Date.now() + 200_000;
    let total = 0;
    for (;;) {
      const card = await waitForChart(page, 'cpu');
      await card.getByTestId('chart-data-button').click();
      await dialog.locator('tbody tr').first().waitFor();
      total = Number(/\d+/.exec((await dialog.getByTestId('chart-data-count').textContent()) ?? '')?.[0]);
      if (total > 15 || Date.now() > deadline) break;
      expect(await dialog.locator('tbody tr').count()).toBe(total);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      await page.waitForTimeout(10_000);
      await page.reload();
      await page.getByTestId('host-name').waitFor();
    }
    expect(total).toBeGreaterThan(15);
    expect(await dialog.locator('tbody tr').count()).toBe(15);
    await page.screenshot({ path: `${shots}/servers--data-dialog-1440.png` });
    const firstTime = await dialog.locator('tbody tr td').first().textContent();
    await dialog.getByRole('button', { name: en.charts.pagination.next }).click();
    await expect.poll(() => dialog.locator('tbody tr td').first().textContent()).not.toBe(firstTime);
    expect(await dialog.locator('tbody tr').count()).toBe(Math.min(15, total - 15));
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // The expand icon, from the keyboard, opens the chart large and drawn; Escape closes it.
    const card = page.locator('section[data-category="cpu"] [data-testid="chart-card"]').first();
    await card.getByTestId('chart-expand-button').focus();
    await page.keyboard.press('Enter');
    const large = page.getByTestId('chart-large-dialog');
    await large.locator('canvas').first().waitFor();
    await page.screenshot({ path: `${shots}/servers--large-chart-1440.png` });
    await page.keyboard.press('Escape');
    await large.waitFor({ state: 'detached' });
  }, 240_000);

  test('an unknown host shows an error with a retry and a way back to the list', async ({ page }) => {
    await signIn(page);
    await page.goto('/flightdeck/services/999999/linux');
    await waitForShell(page);
    const alert = page.getByRole('alert').filter({ hasText: en.servers.hostFailed });
    await alert.waitFor();
    expect(await alert.getByRole('button', { name: en.common.retry }).isVisible()).toBe(true);
    await page.getByRole('link', { name: en.servers.backToList }).click();
    await page.getByTestId('hosts-page').waitFor();
    expect(new URL(page.url()).pathname).toBe('/flightdeck/services');
  });

  for (const [width, height] of [
    [1440, 900],
    [360, 780],
  ] as const) {
    for (const colorScheme of ['light', 'dark'] as const) {
      test(`the hosts pages hold at ${width} px in ${colorScheme} mode`, async ({ page }) => {
        // The admin is shared by every test file: the scheme goes back to light whatever happens.
        try {
          await page.setViewportSize({ width, height });
          await signIn(page, colorScheme);
          await page.goto('/flightdeck/services');
          await waitForShell(page);
          await page.getByTestId('host-row').first().waitFor({ timeout: 30_000 });
          expect(await scheme(page)).toBe(colorScheme);
          expect(await scrollsSideways(page)).toBe(false);
          await page.screenshot({ path: `${shots}/servers--list-${width}-${colorScheme}.png` });
          await openLocalHost(page);
          await waitForChart(page, 'cpu');
          await waitForRows(page, 'processes-by-cpu');
          expect(await scrollsSideways(page)).toBe(false);
          await scrollThrough(page);
          await page.screenshot({
            path: `${shots}/servers--host-${width}-${colorScheme}.png`,
            fullPage: true,
          });
          await page.locator('section[data-category="cpu"]').scrollIntoViewIfNeeded();
          await page.screenshot({ path: `${shots}/servers--charts-${width}-${colorScheme}.png` });
        } finally {
          await page.context().request.post('/api/user/set_preference', {
            data: { preference: 'dark_mode', value: '0' },
          });
        }
      });
    }
  }
});
