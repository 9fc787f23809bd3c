import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import enFeatures from '../src/i18n/en.features.json';
import enCore from '../src/i18n/en.json';
import esFeatures from '../src/i18n/es.features.json';
import esCore from '../src/i18n/es.json';
import { mailDir, scrollsSideways, signInThroughApi, test, waitForShell } from './support/fixtures';
import { waitForCode } from './support/mailbox';

const en = { ...enCore, ...enFeatures };
const es = { ...esCore, ...esFeatures };

/** One Freemium account for the whole file: signed up through the form in the first test. */
const user = {
  name: 'Ada Lovelace',
  email: `ada-${randomBytes(4).toString('hex')}@example.test`,
  company: 'Analytical Engines',
  password: `Pw-${randomBytes(8).toString('base64url')}`,
};

const scheme = (page: Page) => page.evaluate(() => document.documentElement.dataset.mantineColorScheme);

async function signInThroughForm(page: Page, password = user.password) {
  await page.goto('/signin');
  await page.locator('input[name="email"]').fill(user.email);
  await page.locator('input[name="password"]').fill(password);
  await page.locator('button[type="submit"]').click();
}

describe('sign-up', () => {
  test('different passwords are refused before anything is sent', async ({ page }) => {
    await page.goto('/signup');
    await page.getByLabel(en.auth.signUp.name).fill('Someone');
    await page.getByLabel(en.auth.signIn.email).fill('someone@example.test');
    await page.locator('input[name="new-password"]').fill('long-enough-1');
    await page.locator('input[name="password-confirmation"]').fill('long-enough-2');
    await page.getByRole('button', { name: en.auth.signUp.submit }).click();
    await page.getByText(en.errors.passwords_mismatch).waitFor();
    expect(new URL(page.url()).pathname).toBe('/signup');
  });

  test('signing up mails a code; the code signs in, shows the freemium tag and the welcome banner', async ({
    page,
  }) => {
    await page.goto('/signin');
    await page.getByRole('link', { name: en.auth.signIn.signUp }).click();
    await page.waitForURL((url) => url.pathname === '/signup');
    await page.getByLabel(en.auth.signUp.name).fill(user.name);
    await page.getByLabel(en.auth.signIn.email).fill(user.email);
    await page.getByLabel(en.auth.signUp.company).fill(user.company);
    await page.locator('input[name="new-password"]').fill(user.password);
    await page.locator('input[name="password-confirmation"]').fill(user.password);
    const since = Date.now();
    await page.getByRole('button', { name: en.auth.signUp.submit }).click();
    await page.waitForURL((url) => url.pathname === '/signup/verify');
    expect(new URL(page.url()).searchParams.get('email')).toBe(user.email);
    await page.screenshot({ path: `${import.meta.dirname}/screenshots/signup--verify.png` });

    const code = await waitForCode(mailDir, user.email, since);
    await page.getByLabel(en.auth.code.label).fill(code);
    await page.getByRole('button', { name: en.auth.verify.submit }).click();
    await page.waitForURL((url) => url.pathname === '/flightdeck/cockpit/master_warning');
    await waitForShell(page);
    expect(await page.getByTestId('drawer-user-email').textContent()).toBe(user.email);
    expect(await page.getByTestId('freemium-tag').textContent()).toMatch(/Freemium · 1[34] days left/);

    // first_access_banner is '1' for a new account: the banner comes after 3 s and closing saves '0'.
    const banner = page.getByRole('dialog', { name: en.shell.welcome.title });
    await banner.waitFor({ timeout: 6_000 });
    expect(await banner.getByRole('link', { name: en.shell.welcome.installAgent }).getAttribute('href')).toBe(
      '/deploy/agent',
    );
    await page.screenshot({ path: `${import.meta.dirname}/screenshots/signup--welcome-banner.png` });
    await page.keyboard.press('Escape'); // persistent: Escape leaves it open
    expect(await banner.isVisible()).toBe(true);
    await banner.getByRole('button', { name: en.shell.welcome.close }).click();
    await banner.waitFor({ state: 'detached' });
    await expect
      .poll(async () => {
        const response = await page.context().request.post('/api/user/get_preference', { data: {} });
        const list = (await response.json()).data as { preference: string; value: string }[];
        return list.find((p) => p.preference === 'first_access_banner')?.value;
      })
      .toBe('0');
  });

  test('Spanish and dark mode chosen in the shell come back after signing out and in on a new browser', async ({
    page,
    browser,
  }) => {
    await signInThroughForm(page);
    await waitForShell(page);
    await page.getByTestId('drawer').getByRole('button', { name: en.common.switchToDark }).click();
    await page.getByLabel(en.common.language).selectOption('es');
    await page.getByTestId('page-title').getByText(esFeatures.alerts.masterWarning.pageTitle).waitFor();
    expect(await scheme(page)).toBe('dark');
    await page.getByRole('button', { name: es.shell.logout }).click();
    await page.waitForURL((url) => url.pathname === '/signin');

    // A fresh browser remembers nothing: the language and the scheme can only come from the server.
    const context = await browser.newContext({ baseURL: new URL(page.url()).origin, locale: 'en-US' });
    try {
      const fresh = await context.newPage();
      await signInThroughForm(fresh);
      await waitForShell(fresh);
      await fresh.getByTestId('page-title').getByText(esFeatures.alerts.masterWarning.pageTitle).waitFor();
      expect(await scheme(fresh)).toBe('dark');
      expect(await fresh.evaluate(() => document.documentElement.lang)).toBe('es');
      await fresh.screenshot({ path: `${import.meta.dirname}/screenshots/signup--kept-es-dark.png` });
    } finally {
      await context.close();
    }
  });

  test('a page whose resource the Freemium plan lacks is blurred under the plan-gated overlay', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await signInThroughApi(page, { email: user.email, password: user.password });
    await page.goto('/test?resource=apm');
    const overlay = page.getByTestId('plan-gated-overlay');
    await overlay.waitFor();
    await overlay.getByText(esFeatures.planGate.message).waitFor();
    await overlay.getByTestId('plan-offers').waitFor();
    expect(await overlay.getByTestId('plan-offers').locator('li').count()).toBeGreaterThan(0);
    expect(await overlay.getByRole('link', { name: esFeatures.planGate.contactUs }).count()).toBe(1);
    // The page under it is blurred and out of reach of the keyboard and screen readers.
    const under = page.getByTestId('plan-gate').locator('[inert]');
    expect(await under.evaluate((el) => getComputedStyle(el).filter)).toContain('blur');
    await page.screenshot({ path: `${import.meta.dirname}/screenshots/signup--plan-gated-overlay-1440.png` });
    await page.setViewportSize({ width: 360, height: 780 });
    await page.reload();
    await overlay.getByTestId('plan-offers').waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: `${import.meta.dirname}/screenshots/signup--plan-gated-overlay-360.png` });

    // A resource the plan grants lets the page show.
    await page.goto('/test?resource=managements.about');
    await page.getByTestId('plan-check-available').waitFor();
    expect(await page.getByTestId('plan-gated-overlay').count()).toBe(0);
  });

  test('password recovery: e-mail, code from the mail, new password, then sign in with it', async ({
    page,
  }) => {
    await page.goto('/signin/recovery/password');
    await page.getByLabel(en.auth.signIn.email).fill(user.email);
    const since = Date.now();
    await page.getByRole('button', { name: en.auth.recovery.sendCode }).click();
    const code = await waitForCode(mailDir, user.email, since);
    await page.getByLabel(en.auth.code.label).fill(code);
    await page.getByRole('button', { name: en.auth.recovery.checkCode }).click();
    const password = `${user.password}-2`;
    await page.locator('input[name="new-password"]').fill(password);
    await page.locator('input[name="password-confirmation"]').fill(`${password}x`);
    await page.getByRole('button', { name: en.auth.recovery.save }).click();
    await page.getByText(en.errors.passwords_mismatch).waitFor();
    await page.locator('input[name="password-confirmation"]').fill(password);
    await page.getByRole('button', { name: en.auth.recovery.save }).click();
    await page.getByTestId('recovery-done').waitFor();
    await signInThroughForm(page, password);
    await waitForShell(page);
    user.password = password;
  });

  test('the cancel link destroys the recovery code', async ({ page }) => {
    const request = page.context().request;
    const since = Date.now();
    await request.post('/api/auth/flightdeck/password_recovery', { data: { email: user.email } });
    const code = await waitForCode(mailDir, user.email, since);
    await page.goto(`/signin/recovery/cancel?email=${encodeURIComponent(user.email)}`);
    await page.getByTestId('recovery-cancelled').waitFor();
    const check = await request.post('/api/auth/flightdeck/password_verify_code', {
      data: { email: user.email, code },
    });
    expect(check.status()).toBe(400);
  });
});
