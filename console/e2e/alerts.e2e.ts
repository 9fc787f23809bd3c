import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import enFeatures from '../src/i18n/en.features.json';
import enCore from '../src/i18n/en.json';
import { mailDir, scrollsSideways, signInThroughApi, test, waitForShell } from './support/fixtures';
import type { StoredMail } from './support/mailbox';

const en = { ...enCore, ...enFeatures };
const shots = `${import.meta.dirname}/screenshots`;

/** The address alerts are e-mailed to; the global setup's SMTP server stores what reaches it. */
const ALERT_ADDRESS = 'oncall-e2e@flightdeck.test';
/** The local agent samples every 10 s; CPU usage needs two samples before it has a value. */
const ALERT_WAIT_MS = 60_000;

/** Decodes the `=?UTF-8?B?...?=` / `?Q?` words of a header. */
function decodeWords(value: string): string {
  return value.replace(/=\?utf-8\?([bq])\?([^?]*)\?=\s*/gi, (_, kind: string, text: string) =>
    kind.toLowerCase() === 'b'
      ? Buffer.from(text, 'base64').toString('utf8')
      : text
          .replace(/_/g, ' ')
          .replace(/=([0-9A-F]{2})/gi, (__, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
  );
}

/** Subjects of the messages to `to` received since `since`, oldest first. */
function subjectsTo(to: string, since: number): string[] {
  return readdirSync(mailDir)
    .sort()
    .map((file) => JSON.parse(readFileSync(join(mailDir, file), 'utf8')) as StoredMail)
    .filter((mail) => mail.receivedAt >= since && mail.to.includes(to))
    .map((mail) => {
      const headers = mail.raw.split(/\r?\n\r?\n/)[0]?.replace(/\r?\n[ \t]+/g, ' ') ?? '';
      return decodeWords(/^Subject:\s*(.*)$/im.exec(headers)?.[1] ?? '');
    });
}

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

const chip = (page: Page) => page.getByTestId('alert-chip');
const chipCount = async (page: Page) => Number((await chip(page).getAttribute('data-count')) ?? '-1');

/** Opens the thresholds page of a server and waits for its list (or its empty state). */
async function openThresholds(page: Page, serverId: number) {
  await page.goto(`/flightdeck/management/thresholds?server=${serverId}`);
  await waitForShell(page);
  await page
    .locator('[data-testid="thresholds-table"], [data-testid="thresholds-empty"]')
    .first()
    .waitFor({ timeout: 15_000 });
}

describe('alerts', () => {
  test('a CPU threshold set in the console fires on the local host, is mailed, acknowledged and resolved', async ({
    page,
  }) => {
    await signInThroughApi(page);
    const host = await localHost(page);

    // 1. The e-mail integration, from the profile's integrations section.
    await page.goto('/managements/profile?section=integrations');
    await waitForShell(page);
    const integration = page.getByTestId('email-integration');
    await integration.getByTestId('email-integration-none').waitFor();
    // A wrong address is refused in the page, in words.
    await integration.getByTestId('email-integration-input').fill('not-an-address');
    await integration.getByTestId('email-integration-register').click();
    await integration.getByText(en.alerts.integrations.email.invalidAddress).waitFor();
    await integration.getByTestId('email-integration-input').fill(ALERT_ADDRESS);
    await integration.getByTestId('email-integration-input').press('Enter');
    await expect
      .poll(() => integration.getByTestId('email-integration-address').textContent())
      .toBe(ALERT_ADDRESS);
    expect(await integration.getByTestId('email-integration-status').textContent()).toBe(
      en.alerts.integrations.statuses.enabled,
    );
    await page.screenshot({ path: `${shots}/alerts--profile-integrations-1280.png`, fullPage: true });

    // 2. Before any threshold: the chip reads "Status Ok" and the master warning is all clear.
    await page.goto('/flightdeck/cockpit/master_warning');
    await waitForShell(page);
    await page.getByTestId('master-warning-clear').waitFor();
    await expect.poll(() => chip(page).textContent()).toBe(en.shell.alerts.statusOk);

    // 3. A CPU threshold low enough to fire now, through the form (its checks speak first).
    const eventStreams: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/events') eventStreams.push(request.url());
    });
    await openThresholds(page, host.id);
    // The chip asks on its own only every 60 s: sooner than that, the live stream told it.
    const shellLoadedAt = Date.now();
    expect(await page.getByTestId('thresholds-server').inputValue()).toBe(String(host.id));
    await page.getByTestId('threshold-new').click();
    const form = page.getByTestId('threshold-form');
    await form.getByTestId('threshold-metric').waitFor();
    expect(await form.getByTestId('threshold-metric').inputValue()).toBe('cpu.total');
    await form.getByTestId('threshold-save').click();
    await form.getByText(en.alerts.form.errors.levelsRequired).waitFor();
    await form.getByTestId('threshold-yellow').fill('50');
    await form.getByTestId('threshold-red').fill('10');
    await form.getByTestId('threshold-save').click();
    await form.getByText(en.alerts.form.errors.redBelowYellow).waitFor();
    await form.getByTestId('threshold-yellow').fill('');
    await form.getByTestId('threshold-operator').selectOption('gte');
    await form.getByTestId('threshold-red').fill('0');
    const savedAt = Date.now();
    await form.getByTestId('threshold-save').click();
    await form.waitFor({ state: 'detached' });
    const row = page.locator('[data-testid="threshold-row"][data-metric="cpu.total"]');
    await row.waitFor();
    expect(await row.getByTestId('threshold-red-cell').textContent()).toBe('0');

    // The saved threshold is selected: its chart draws the red level across the CPU series.
    const chart = page.getByTestId('threshold-chart');
    await chart.locator('[data-level="red"]').waitFor();
    // A new host may have no CPU sample yet: the chart asks again until it has one.
    await expect.poll(() => chart.locator('canvas').count(), { timeout: ALERT_WAIT_MS }).toBeGreaterThan(0);

    // 4. It fires within seconds: the chip counts it without a reload (the live event stream).
    await expect.poll(() => chipCount(page), { timeout: ALERT_WAIT_MS, interval: 500 }).toBeGreaterThan(0);
    const firedInMs = Date.now() - savedAt;
    expect(Date.now() - shellLoadedAt).toBeLessThan(55_000);
    expect(eventStreams.length).toBeGreaterThan(0);
    expect(await page.getByTestId('master-caution').getAttribute('data-alarm')).toBe('true');
    await page.screenshot({ path: `${shots}/alerts--thresholds-1280.png`, fullPage: true });
    await page.setViewportSize({ width: 1920, height: 1000 });
    await chart.locator('canvas').first().waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: `${shots}/alerts--thresholds-1920.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });

    // 5. The chip opens the open alerts; from there, the master warning.
    await chip(page).click();
    const panel = page.getByTestId('open-alerts-panel');
    await panel.locator('[data-testid="alert-row"][data-metric="cpu.total"]').first().waitFor();
    await panel.getByTestId('open-alerts-master-warning').click();
    await page.waitForURL(/\/flightdeck\/cockpit\/master_warning/);
    const group = page.locator(`[data-testid="alert-group"][data-server-id="${host.id}"]`);
    await group.waitFor();
    expect(await group.getAttribute('data-status')).toBe('R');
    const alertRows = group.locator('[data-testid="alert-row"][data-metric="cpu.total"]');
    expect(await alertRows.count()).toBeGreaterThan(0);
    expect(await alertRows.first().getAttribute('data-status')).toBe('R');
    const link = alertRows.first().getByTestId('alert-service-link');
    expect(await link.getAttribute('href')).toMatch(new RegExp(`^/flightdeck/services/${host.id}(/|\\?|$)`));
    expect(await chipCount(page)).toBe(await alertRows.count());
    await page.screenshot({ path: `${shots}/alerts--master-warning-1280.png`, fullPage: true });
    await page.setViewportSize({ width: 360, height: 780 });
    await page.reload();
    await group.waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: `${shots}/alerts--master-warning-360.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });

    // 6. The opening was e-mailed to the registered address.
    await expect
      .poll(() => subjectsTo(ALERT_ADDRESS, savedAt).some((s) => s.includes(host.name)), {
        timeout: 30_000,
        interval: 500,
      })
      .toBe(true);

    // 7. Acknowledge every CPU alert from the keyboard-reachable menu, with a comment on the first.
    const waiting = group.locator(
      '[data-testid="alert-row"][data-metric="cpu.total"]:not([data-acknowledged]) [data-testid="ack-button"]',
    );
    let first = true;
    while ((await waiting.count()) > 0) {
      const before = await waiting.count();
      const menu = page.getByTestId('ack-menu');
      if (first) {
        // From the keyboard: Enter opens the menu with the comment focused, Tab reaches "1 h".
        await waiting.first().focus();
        await page.keyboard.press('Enter');
        await menu.waitFor();
        await expect
          .poll(() => menu.getByTestId('ack-comment').evaluate((el) => el === document.activeElement))
          .toBe(true);
        await page.keyboard.type('looking into it');
        await page.keyboard.press('Tab');
        expect(await menu.getByTestId('ack-1h').evaluate((el) => el === document.activeElement)).toBe(true);
        await page.keyboard.press('Enter');
      } else {
        await waiting.first().click();
        await menu.waitFor();
        await menu.getByTestId('ack-1h').click();
      }
      await menu.waitFor({ state: 'hidden' });
      await expect.poll(() => waiting.count(), { timeout: 15_000 }).toBeLessThan(before);
      first = false;
    }
    // Acknowledged alerts stay on the master warning, dimmed, and leave the chip.
    await expect.poll(() => chip(page).textContent(), { timeout: 15_000 }).toBe(en.shell.alerts.statusOk);
    expect(await page.getByTestId('master-caution').getAttribute('data-alarm')).toBe('false');
    expect(await group.locator('[data-testid="alert-row"][data-acknowledged]').count()).toBeGreaterThan(0);
    expect(await group.getByTestId('alert-ack-note').first().textContent()).toContain('looking into it');
    await page.screenshot({ path: `${shots}/alerts--acknowledged-1280.png`, fullPage: true });

    // 8. Raise the threshold out of reach: the alerts resolve.
    await openThresholds(page, host.id);
    await row.getByTestId('threshold-edit').click();
    await form.getByTestId('threshold-red').fill('1000');
    await form.getByTestId('threshold-save').click();
    await form.waitFor({ state: 'detached' });
    await expect.poll(() => row.getByTestId('threshold-red-cell').textContent()).toMatch(/^1[,.]?000$/);
    await page.goto('/flightdeck/cockpit/master_warning');
    await waitForShell(page);
    await page.getByTestId('master-warning-clear').waitFor({ timeout: ALERT_WAIT_MS });
    expect(await chip(page).textContent()).toBe(en.shell.alerts.statusOk);

    // 9. The history of the last hour holds the occurrences, resolved.
    await page.goto('/flightdeck/flashback/alerts');
    await waitForShell(page);
    const history = page.locator('[data-testid="history-row"][data-metric="cpu.total"]');
    await history.first().waitFor();
    await expect
      .poll(() =>
        page.locator('[data-testid="history-row"][data-metric="cpu.total"][data-state="open"]').count(),
      )
      .toBe(0);
    await page.getByTestId('history-filter-state').selectOption('open');
    await page.getByTestId('history-empty-filtered').waitFor();
    await page.getByTestId('history-filter-state').selectOption('all');
    await history.first().waitFor();
    await page.screenshot({ path: `${shots}/alerts--history-1280.png`, fullPage: true });
    await page.setViewportSize({ width: 360, height: 780 });
    await page.reload();
    await history.first().waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: `${shots}/alerts--history-360.png`, fullPage: true });
    await openThresholds(page, host.id);
    expect(await scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: `${shots}/alerts--thresholds-360.png`, fullPage: true });

    console.log(
      `the CPU alert reached the chip ${(firedInMs / 1000).toFixed(1)} s after the threshold was saved`,
    );
  }, 300_000);
});
