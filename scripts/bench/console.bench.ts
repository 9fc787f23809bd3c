import { gzipSync } from 'node:zlib';
import { SESSION_COOKIE } from '@flightdeck/schemas';
import { type Browser, type BrowserContext, chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../console/e2e/support/chromium';
import { buildProduct, startProduct } from '../src/product-process';
import { type Benchmark, type Figure, percentile, round } from './harness';

const ADMIN = { email: 'bench@flightdeck.test', password: 'bench-password-1' };
const LANDING = '/flightdeck/cockpit/master_warning';
/** The shell is interactive once the menu from the server is drawn and its search box takes input. */
const MENU_LOADED = '[data-testid="drawer"] [data-menu-item="managements"]';
const MENU_SEARCH = '[data-testid="menu-search"]';
const INTERACTIVE_RUNS = 10;

/** Gzipped size (KB) of every script a fresh page loads at `path`, each gzipped on its own as a server would. */
async function scriptKb(context: BrowserContext, url: string, waitFor?: string): Promise<number> {
  const page = await context.newPage();
  const sizes: Promise<number>[] = [];
  page.on('response', (res) => {
    if (res.request().resourceType() === 'script') sizes.push(res.body().then((b) => gzipSync(b).length));
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  if (waitFor) await page.waitForSelector(waitFor);
  const total = (await Promise.all(sizes)).reduce((a, b) => a + b, 0);
  await page.close();
  return round(total / 1024, 1);
}

async function signedInContext(browser: Browser, baseURL: string): Promise<BrowserContext> {
  const res = await fetch(`${baseURL}/api/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  if (res.status !== 200) throw new Error(`sign-in for the benchmark failed: HTTP ${res.status}`);
  const { data } = (await res.json()) as { data: { token: string } };
  const context = await browser.newContext();
  await context.addCookies([
    { name: SESSION_COOKIE, value: data.token, url: baseURL, httpOnly: true, sameSite: 'Lax' },
  ]);
  return context;
}

/**
 * Console figures: the JavaScript /signin loads, the JavaScript the signed-in landing page loads
 * (each script gzipped), and the time from navigation to an interactive shell, in headless
 * Chromium against the built product on loopback.
 */
export const benchmark: Benchmark = {
  figures: ['console.signin_js_gzip_kb', 'console.master_warning_js_gzip_kb', 'console.shell_interactive_ms'],
  async run(): Promise<Figure[]> {
    if (!process.env.BENCH_SKIP_BUILD) buildProduct();
    const product = await startProduct({
      FLIGHTDECK_ADMIN_EMAIL: ADMIN.email,
      FLIGHTDECK_ADMIN_PASSWORD: ADMIN.password,
    });
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    try {
      const anonymous = await browser.newContext();
      const signin = await scriptKb(anonymous, `${product.baseURL}/signin`, 'input[type="password"]');
      await anonymous.close();

      const landingContext = await signedInContext(browser, product.baseURL);
      const landing = await scriptKb(landingContext, `${product.baseURL}${LANDING}`, MENU_LOADED);
      await landingContext.close();

      const times: number[] = [];
      for (let i = 0; i < INTERACTIVE_RUNS; i++) {
        // A new context each time: nothing cached, as for a person opening a link.
        const context = await signedInContext(browser, product.baseURL);
        const page = await context.newPage();
        const started = performance.now();
        await page.goto(`${product.baseURL}${LANDING}`);
        await page.locator(MENU_LOADED).waitFor({ state: 'visible' });
        await page.locator(MENU_SEARCH).fill('ab');
        times.push(performance.now() - started);
        await context.close();
      }
      times.sort((a, b) => a - b);
      return [
        { name: 'console.signin_js_gzip_kb', value: signin, unit: 'KB' },
        { name: 'console.master_warning_js_gzip_kb', value: landing, unit: 'KB' },
        { name: 'console.shell_interactive_ms', value: round(percentile(times, 50), 0), unit: 'ms' },
      ];
    } finally {
      await browser.close();
      await product.stop();
    }
  },
};
