import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { test as base, inject } from 'vitest';
import { assertChromium, CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium';

export const baseURL = inject('baseURL');
export const admin = { email: inject('adminEmail'), password: inject('adminPassword') };
export const mailDir = inject('mailDir');

const screenshotDir = fileURLToPath(new URL('../screenshots/', import.meta.url));

/**
 * `browser`: one Chromium per test file; playwright starts it with a new, empty user-data dir.
 * `page`: a fresh browser context (no cookies, no storage) per test, 1280×800 unless the test
 * resizes it. Each test leaves a screenshot in e2e/screenshots/ (FAILED- in front when it failed),
 * and an uncaught error in the page fails the test.
 */
export const test = base
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads fixture dependencies from the pattern
  .extend('browser', { scope: 'file' }, async ({}, { onCleanup }): Promise<Browser> => {
    assertChromium();
    const browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_ARGS,
    });
    onCleanup(() => browser.close());
    return browser;
  })
  .extend('page', async ({ browser, task }, { onCleanup }): Promise<Page> => {
    const context = await browser.newContext({
      baseURL,
      viewport: { width: 1280, height: 800 },
      locale: 'en-US',
    });
    const page = await context.newPage();
    const pageErrors: Error[] = [];
    page.on('pageerror', (error) => pageErrors.push(error));
    onCleanup(async () => {
      const failed = task.result?.state === 'fail';
      mkdirSync(screenshotDir, { recursive: true });
      const name = `${failed ? 'FAILED-' : ''}${slug(task.file.name)}--${slug(task.name)}.png`;
      await page.screenshot({ path: `${screenshotDir}${name}`, fullPage: true }).catch(() => undefined);
      await context.close();
      if (pageErrors.length > 0) {
        throw new Error(
          `uncaught error in the page: ${pageErrors.map((e) => e.stack ?? e.message).join('\n')}`,
        );
      }
    });
    return page;
  });

function slug(text: string): string {
  return text
    .replace(/\.e2e\.ts$/, '')
    .replace(/[^a-z0-9]+/gi, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase()
    .slice(0, 80);
}

/**
 * Signs the page's context in through the API, as the sign-in form would (sets the session cookie).
 * The welcome banner is marked as seen unless `keepBanner`, so it does not cover the page under test.
 */
export async function signInThroughApi(
  page: Page,
  options: { email?: string; password?: string; keepBanner?: boolean } = {},
): Promise<void> {
  const request = page.context().request;
  const credentials = { email: options.email ?? admin.email, password: options.password ?? admin.password };
  const response = await request.post('/api/signin', { data: credentials });
  if (!response.ok()) throw new Error(`sign-in failed: HTTP ${response.status()} ${await response.text()}`);
  if (!options.keepBanner) {
    const saved = await request.post('/api/user/set_preference', {
      data: { preference: 'first_access_banner', value: '0' },
    });
    if (!saved.ok()) throw new Error(`set_preference failed: HTTP ${saved.status()} ${await saved.text()}`);
  }
}

/** Waits until the shell shows its page title (the session, plan and menu have loaded). */
export async function waitForShell(page: Page): Promise<void> {
  await page.getByTestId('page-title').waitFor();
}

/** True when the document is wider than the window, i.e. the page scrolls sideways. */
export function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
}
