import { describe, expect } from 'vitest';
import enFeatures from '../src/i18n/en.features.json';
import enCore from '../src/i18n/en.json';
import esFeatures from '../src/i18n/es.features.json';
import esCore from '../src/i18n/es.json';
import { admin, scrollsSideways, signInThroughApi, test, waitForShell } from './support/fixtures';

const en = { ...enCore, ...enFeatures };
const es = { ...esCore, ...esFeatures };

const COMPONENTS = ['bus', 'metadata_db', 'metric_store', 'collector'] as const;
const HOME = '/flightdeck/cockpit/master_warning';

describe('access', () => {
  test('a visitor without a session who opens /about lands on /signin?redirect=/about', async ({ page }) => {
    await page.goto('/about');
    await page.waitForURL((url) => url.pathname === '/signin');
    const url = new URL(page.url());
    expect(url.searchParams.get('redirect')).toBe('/about');
    expect(url.search).toBe('?redirect=/about');
    await page.getByRole('heading', { name: en.auth.signIn.heading }).waitFor();
    expect(await page.title()).toBe(`Flightdeck - ${en.auth.signIn.pageTitle}`);
  });

  test('the root path goes to the master warning page, which asks a visitor to sign in', async ({ page }) => {
    await page.goto('/');
    await page.waitForURL((url) => url.pathname === '/signin');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe(HOME);
  });

  test('the open pages open without a session', async ({ page }) => {
    for (const [path, heading] of [
      ['/signup', en.auth.signUp.heading],
      ['/signin/recovery/password', en.auth.recovery.heading],
      ['/terms', en.legal.terms],
      ['/privacy', en.legal.privacy],
    ] as const) {
      await page.goto(path);
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      expect(new URL(page.url()).pathname).toBe(path);
    }
  });
});

describe('sign-in', () => {
  test('a wrong password shows the translated invalid-login message', async ({ page }) => {
    await page.goto('/signin');
    await page.getByLabel(en.auth.signIn.email).fill(admin.email);
    // The label reads "Password *"; anchoring at the start leaves out the "Show password" button.
    await page.getByLabel(new RegExp(`^${en.auth.signIn.password}`)).fill('not-the-password');
    await page.getByRole('button', { name: en.auth.signIn.submit }).click();
    const alert = page.getByTestId('signin-error');
    await alert.waitFor();
    expect((await alert.textContent())?.trim()).toBe(en.errors.invalid_credentials);
    expect(new URL(page.url()).pathname).toBe('/signin');
  });

  test('empty fields are flagged without calling the server', async ({ page }) => {
    await page.goto('/signin');
    await page.getByRole('button', { name: en.auth.signIn.submit }).click();
    await page.getByText(en.auth.signIn.emailRequired).waitFor();
    await page.getByText(en.auth.signIn.passwordRequired).waitFor();
  });

  test('the sign-in page links to sign-up and password recovery', async ({ page }) => {
    await page.goto('/signin');
    expect(await page.getByRole('link', { name: en.auth.signIn.signUp }).getAttribute('href')).toBe(
      '/signup',
    );
    await page.getByRole('link', { name: en.auth.signIn.forgot }).click();
    await page.waitForURL((url) => url.pathname === '/signin/recovery/password');
  });

  test('signing in with the keyboard alone goes through the home page back to /about, every component ok', async ({
    page,
  }) => {
    await signInThroughApi(page); // marks the welcome banner as seen, then signs out again below
    await page.context().clearCookies();
    await page.goto('/about');
    await page.waitForURL((url) => url.pathname === '/signin');
    // The e-mail field has the focus on arrival; Tab moves to the password, Enter submits.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('name')), { timeout: 10_000 })
      .toBe('email');
    const visited: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame())
        visited.push(new URL(frame.url()).pathname + new URL(frame.url()).search);
    });
    await page.keyboard.type(admin.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(admin.password);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/about');
    expect(visited).toContain(`${HOME}?do_redirect=/about`);

    await page.getByTestId('user-email').getByText(admin.email).waitFor();
    expect(await page.title()).toBe(`Flightdeck - ${en.about.pageTitle}`);
    // The status refreshes every 10 s; give a component that starts slowly one refresh to settle.
    await expect
      .poll(
        () =>
          Promise.all(
            COMPONENTS.map((name) =>
              page.getByTestId(`state-${name}`).getAttribute('data-state', { timeout: 1_000 }),
            ),
          ).catch(() => []),
        { timeout: 25_000, interval: 500 },
      )
      .toEqual(COMPONENTS.map(() => 'ok'));
    for (const name of COMPONENTS) {
      expect((await page.getByTestId(`state-${name}`).textContent())?.trim()).toBe(en.about.states.ok);
    }
  });

  test('a redirect to another site is dropped: sign-in lands on the home page', async ({ page }) => {
    await page.goto('/signin?redirect=https://evil.example/');
    await page.getByLabel(en.auth.signIn.email).fill(admin.email);
    await page.getByLabel(new RegExp(`^${en.auth.signIn.password}`)).fill(admin.password);
    await page.getByRole('button', { name: en.auth.signIn.submit }).click();
    await page.waitForURL((url) => url.pathname === HOME);
    expect(new URL(page.url()).search).toBe('');
    await page.getByTestId('master-warning-page').waitFor();
  });

  test('/managements/about shows the same page in the shell, and signing out returns to /signin', async ({
    page,
  }) => {
    await signInThroughApi(page);
    await page.goto('/managements/about');
    await page.getByTestId('user-email').getByText(admin.email).waitFor();
    expect(await page.title()).toBe(`Flightdeck - ${enFeatures.menu.management} - ${enFeatures.menu.about}`);
    await page.getByTestId('user-card').getByRole('button', { name: en.about.signOut }).click();
    await page.waitForURL((url) => url.pathname === '/signin');
    await page.goto('/about');
    await page.waitForURL((url) => url.pathname === '/signin');
  });
});

describe('preferences before signing in', () => {
  test('switching the language to Español changes the texts and is remembered', async ({ page }) => {
    await page.goto('/signin');
    await page.getByRole('heading', { name: en.auth.signIn.heading }).waitFor();
    await page.getByLabel(en.common.language).selectOption({ label: 'Español' });
    await page.getByRole('heading', { name: es.auth.signIn.heading }).waitFor();
    await page.getByRole('button', { name: es.auth.signIn.submit }).waitFor();
    expect(await page.getByLabel(es.auth.signIn.email).count()).toBe(1);
    expect(await page.title()).toBe(`Flightdeck - ${es.auth.signIn.pageTitle}`);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');

    const cookie = (await page.context().cookies()).find((c) => c.name === 'locale');
    expect(cookie?.value).toBe('es');
    const days = ((cookie?.expires ?? 0) - Date.now() / 1000) / 86_400;
    expect(days).toBeGreaterThan(364);

    await page.reload();
    await page.getByRole('heading', { name: es.auth.signIn.heading }).waitFor();
  });

  test('dark mode survives a reload', async ({ page }) => {
    await page.goto('/signin');
    const scheme = () => page.evaluate(() => document.documentElement.dataset.mantineColorScheme);
    expect(await scheme()).toBe('light');
    await page.getByRole('button', { name: en.common.switchToDark }).click();
    expect(await scheme()).toBe('dark');
    await page.reload();
    await page.getByRole('button', { name: en.common.switchToLight }).waitFor();
    expect(await scheme()).toBe('dark');
  });
});

describe('layout of the open pages', () => {
  for (const width of [360, 1440]) {
    test(`the sign-in page fits ${width} px without sideways scrolling`, async ({ page }) => {
      await page.setViewportSize({ width, height: 800 });
      await page.goto('/signin');
      await page.getByRole('button', { name: en.auth.signIn.submit }).waitFor();
      const email = await page.getByLabel(en.auth.signIn.email).boundingBox();
      expect(email?.width).toBeGreaterThan(200);
      expect(await scrollsSideways(page)).toBe(false);
    });

    test(`the sign-up page fits ${width} px without sideways scrolling`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/signup');
      await page.getByRole('button', { name: en.auth.signUp.submit }).waitFor();
      expect(await scrollsSideways(page)).toBe(false);
    });

    test(`the about page fits ${width} px without sideways scrolling`, async ({ page }) => {
      await page.setViewportSize({ width, height: 800 });
      await signInThroughApi(page);
      await page.goto('/about');
      await waitForShell(page);
      await page.getByTestId('state-collector').waitFor();
      expect(await scrollsSideways(page)).toBe(false);
    });
  }
});
