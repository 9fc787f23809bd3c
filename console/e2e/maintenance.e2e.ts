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

/** Opens a tab of the maintenance page and waits for its list or its empty state. */
async function openTab(page: Page, status: 'active' | 'scheduled' | 'historic') {
  await page.getByTestId(`maintenance-tab-${status}`).click();
  await page
    .locator(`[data-testid="maintenance-list-${status}"], [data-testid="maintenance-empty-${status}"]`)
    .first()
    .waitFor({ timeout: 15_000 });
}

const row = (page: Page, status: string, reason: string) =>
  page.getByTestId(`maintenance-list-${status}`).getByTestId('maintenance-row').filter({ hasText: reason });

describe('maintenance', () => {
  test('a window on the local host is active, finished into historic; a scheduled one is removed', async ({
    page,
  }) => {
    await signInThroughApi(page);
    const host = await localHost(page);
    const stamp = Date.now().toString(36);
    const running = `disk swap ${stamp}`;
    const later = `kernel upgrade ${stamp}`;

    await page.goto('/flightdeck/management/maintenance');
    await waitForShell(page);
    await openTab(page, 'active');

    // 1. A form without servers or reason is refused in the page, in words.
    await page.getByTestId('maintenance-new').click();
    const form = page.getByTestId('maintenance-form');
    await form.getByTestId('maintenance-save').click();
    await form.getByText('Choose at least one server, or all servers.').waitFor();

    // 2. A window starting now on the local host, for 30 minutes.
    await form.getByTestId('maintenance-servers').click();
    await page.getByRole('option', { name: host.name }).click();
    await page.keyboard.press('Escape');
    await form.getByTestId('maintenance-duration').fill('30');
    await form.getByTestId('maintenance-reason').fill(running);
    await page.screenshot({ path: `${shots}/maintenance--form-1280.png` });
    await form.getByTestId('maintenance-save').click();
    await form.waitFor({ state: 'detached' });

    // The form starts at the next whole minute: the window turns active within a minute.
    const deadline = Date.now() + 75_000;
    for (;;) {
      await openTab(page, 'active');
      if ((await row(page, 'active', running).count()) > 0) break;
      if (Date.now() > deadline) throw new Error('the window did not become active');
      await page.waitForTimeout(5_000);
      await openTab(page, 'scheduled');
    }
    await expect.poll(() => row(page, 'active', running).textContent()).toContain(host.name);
    await page.screenshot({ path: `${shots}/maintenance--active-1280.png`, fullPage: true });

    // 3. Finished after a confirmation, it moves to Historic.
    await row(page, 'active', running).getByTestId('maintenance-finish').click();
    await page.getByTestId('maintenance-confirm').click();
    await row(page, 'active', running).waitFor({ state: 'detached' });
    await openTab(page, 'historic');
    await row(page, 'historic', running).waitFor();
    expect(await row(page, 'historic', running).textContent()).toContain('finished early');

    // 4. A weekly window scheduled for tomorrow, with an end instead of a duration, is removed.
    await page.getByTestId('maintenance-new').click();
    const start = await form.getByTestId('maintenance-start').inputValue();
    const tomorrow = new Date(Date.parse(`${start}:00Z`) + 86_400_000).toISOString().slice(0, 16);
    const end = new Date(Date.parse(`${tomorrow}:00Z`) + 2 * 3_600_000).toISOString().slice(0, 16);
    await form.getByTestId('maintenance-all-servers').check();
    await form.getByTestId('maintenance-start').fill(tomorrow);
    await form.getByText('At a date and time').click();
    await form.getByTestId('maintenance-end').fill(end);
    await form.getByTestId('maintenance-reason').fill(later);
    await form.getByText('Weekly').click();
    await form.getByTestId('maintenance-save').click();
    // The api's rule, checked before sending: a weekly window needs a day.
    await form.getByText('Choose at least one day of the week.').waitFor();
    await form.getByText('Sat').click();
    await form.getByText('Mon').click();
    await form.getByTestId('maintenance-save').click();
    await form.waitFor({ state: 'detached' });
    await openTab(page, 'scheduled');
    await row(page, 'scheduled', later).waitFor();
    expect(await row(page, 'scheduled', later).textContent()).toContain('All servers');
    await page.screenshot({ path: `${shots}/maintenance--scheduled-1280.png`, fullPage: true });
    await expect.poll(() => scrollsSideways(page)).toBe(false);

    await page.setViewportSize({ width: 360, height: 780 });
    await row(page, 'scheduled', later).waitFor();
    await expect.poll(() => scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: `${shots}/maintenance--scheduled-360.png`, fullPage: true });

    await row(page, 'scheduled', later).getByTestId('maintenance-remove').click();
    await page.getByTestId('maintenance-confirm').click();
    await row(page, 'scheduled', later).waitFor({ state: 'detached' });
    await page.setViewportSize({ width: 1280, height: 800 });
  }, 240_000);

  test('the menu lists the page; the historic tab and the per-day chart hold at 1280 and 360 px', async ({
    page,
  }) => {
    await signInThroughApi(page);
    const routes = await page.context().request.get('/api/customer/system/get_routes');
    expect(await routes.text()).toContain('/flightdeck/management/maintenance');
    await page.goto('/flightdeck/services');
    await waitForShell(page);
    await page.goto('/flightdeck/management/maintenance?range=last_week');
    await waitForShell(page);
    await openTab(page, 'historic');
    await page.getByRole('heading', { name: 'Maintenance windows' }).waitFor();
    // The window finished by the test above counts in the per-day chart of the last week.
    await expect
      .poll(() => page.getByTestId('maintenance-page').locator('canvas').count(), { timeout: 15_000 })
      .toBeGreaterThan(0);
    await page.screenshot({ path: `${shots}/maintenance--historic-1280.png`, fullPage: true });
    await page.setViewportSize({ width: 360, height: 780 });
    await page.getByTestId('maintenance-page').waitFor();
    await expect.poll(() => scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: `${shots}/maintenance--historic-360.png`, fullPage: true });
  });
  test('the profile shows every chat channel; unset channels say so and Google Chat keeps its webhook masked', async ({
    page,
  }) => {
    await signInThroughApi(page);
    await page.goto('/managements/profile?section=integrations');
    await waitForShell(page);
    await page.getByTestId('email-integration').waitFor();

    // The e2e product has no Telegram or WhatsApp settings: each card names what is missing.
    const telegram = page.getByTestId('telegram-integration-not-set-up');
    await telegram.waitFor({ timeout: 15_000 });
    expect(await telegram.textContent()).toContain('TELEGRAM_BOT_TOKEN');
    const whatsapp = page.getByTestId('whatsapp-integration-not-set-up');
    await whatsapp.waitFor();
    expect(await whatsapp.textContent()).toContain('WHATSAPP_TOKEN');
    expect(await page.getByTestId('whatsapp-phone-input').count()).toBe(0);

    // Slack takes a webhook without the product's bot; its bot channel is not set up.
    const slack = page.getByTestId('slack-integration');
    await slack.getByTestId('slack-webhook-input').waitFor();
    await slack.getByText('Bot channel').click();
    expect(await slack.getByTestId('slack-bot-not-set-up').textContent()).toContain('SLACK_BOT_TOKEN');

    // Google Chat: a wrong URL is refused in the page, the api's own rule shows in words, and a
    // space webhook is stored and shown masked.
    const gchat = page.getByTestId('gchat-integration');
    await gchat.getByTestId('gchat-webhook-input').fill('not a url');
    await gchat.getByTestId('gchat-webhook-save').click();
    await gchat.getByText('Enter a complete URL starting with https://.').waitFor();
    await gchat
      .getByTestId('gchat-webhook-input')
      .fill('https://example.com/v1/spaces/AAA/messages?key=k&token=t');
    await gchat.getByTestId('gchat-webhook-save').click();
    await gchat.getByText('Google Chat space webhook', { exact: false }).waitFor();
    const secret = 's3cretTok3nValue';
    await gchat
      .getByTestId('gchat-webhook-input')
      .fill(`https://chat.googleapis.com/v1/spaces/AAAA1234/messages?key=AIzaKeyValue&token=${secret}`);
    await gchat.getByTestId('gchat-webhook-save').click();
    const target = gchat.getByTestId('gchat-integration-target');
    await target.waitFor();
    expect(await target.textContent()).not.toContain(secret);
    // The field does not keep the secret URL once it was accepted.
    expect(await gchat.getByTestId('gchat-webhook-input').inputValue()).toBe('');
    await page.screenshot({ path: `${shots}/maintenance--profile-integrations-1280.png`, fullPage: true });

    await page.setViewportSize({ width: 360, height: 780 });
    await expect.poll(() => scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: `${shots}/maintenance--profile-integrations-360.png`, fullPage: true });

    await gchat.getByTestId('gchat-integration-remove').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await target.waitFor({ state: 'detached' });
  });
});
