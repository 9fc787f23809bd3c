import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { scrollsSideways, signInThroughApi, test, waitForShell } from './support/fixtures';

const shots = `${import.meta.dirname}/screenshots`;

/** The local host, once its agent has reported: its id and name from the servers list. */
async function localHost(page: Page): Promise<{ id: number; name: string }> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const response = await page.context().request.post('/api/bot/servers/list', { data: {} });
    const body = (await response.json()) as { data?: { id: number; name: string }[] };
    const first = body.data?.[0];
    if (first) return first;
    if (Date.now() > deadline) throw new Error('the local host did not report within 30 s');
    await page.waitForTimeout(2_000);
  }
}

/** Opens the page and waits for the type catalogue and the unavailable marks (or their empty state). */
async function openPage(page: Page) {
  await page.goto('/flightdeck/management/alerts');
  await waitForShell(page);
  await page.getByTestId('alert-types-table').waitFor({ timeout: 15_000 });
  await page
    .locator('[data-testid="unavailable-table"], [data-testid="unavailable-empty"]')
    .first()
    .waitFor({ timeout: 15_000 });
}

const typeRow = (page: Page, id: number) =>
  page.locator(`[data-testid="alert-type-row"][data-type-id="${id}"]`);
const markRow = (page: Page, key: string) =>
  page.locator(`[data-testid="unavailable-row"][data-key="${key}"]`);

describe('alert management', () => {
  test('an alert type is muted and turned back on; a service is marked unavailable until unmarked', async ({
    page,
  }) => {
    await signInThroughApi(page);
    const host = await localHost(page);
    await openPage(page);
    expect(await page.getByTestId('alert-type-row').count()).toBe(49);
    await page.getByTestId('mttx-mtta').waitFor();

    // 1. The search narrows the catalogue: "inodes" finds type 48 only.
    await page.getByTestId('alert-types-search').fill('inodes');
    await expect.poll(() => page.getByTestId('alert-type-row').count()).toBe(1);
    await typeRow(page, 48).waitFor();

    // 2. Muted for every server, then turned back on.
    await typeRow(page, 48).getByTestId('alert-type-mute').click();
    await expect.poll(() => typeRow(page, 48).getAttribute('data-state')).toBe('muted');
    expect(await typeRow(page, 48).getByTestId('alert-type-state').textContent()).toContain('Muted at');
    // The api keeps it: still muted after a reload.
    await page.reload();
    await openPage(page);
    await page.getByTestId('alert-types-search').fill('inodes');
    await expect.poll(() => typeRow(page, 48).getAttribute('data-state')).toBe('muted');
    await typeRow(page, 48).getByTestId('alert-type-enable').click();
    await expect.poll(() => typeRow(page, 48).getAttribute('data-state')).toBe('enabled');

    // 3. One service of the local host marked unavailable; the mark is still there after a reload.
    const service = `e2e-${Date.now().toString(36)}`;
    const key = `${host.id}:${service}`;
    await page.getByTestId('unavailable-server').selectOption(String(host.id));
    await page.getByTestId('unavailable-service').fill(service);
    await page.getByTestId('unavailable-mark').click();
    await markRow(page, key).waitFor();
    await page.reload();
    await openPage(page);
    await markRow(page, key).waitFor();
    expect(await markRow(page, key).textContent()).toContain(host.name);
    await page.screenshot({ path: `${shots}/management-alerts--1280.png`, fullPage: true });
    await expect.poll(() => scrollsSideways(page)).toBe(false);

    await page.setViewportSize({ width: 360, height: 780 });
    await markRow(page, key).waitFor();
    await expect.poll(() => scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: `${shots}/management-alerts--360.png`, fullPage: true });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${shots}/management-alerts--360-top.png` });
    await page.getByTestId('unavailable-section').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${shots}/management-alerts--360-marks.png` });

    // 4. Unmarked: gone, also after a reload.
    await markRow(page, key).getByTestId('unavailable-unmark').click();
    await markRow(page, key).waitFor({ state: 'detached' });
    await page.reload();
    await openPage(page);
    expect(await markRow(page, key).count()).toBe(0);
  });
});
