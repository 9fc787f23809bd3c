import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import enFeatures from '../src/i18n/en.features.json';
import enCore from '../src/i18n/en.json';
import { scrollsSideways, signInThroughApi, test, waitForShell } from './support/fixtures';

const en = { ...enCore, ...enFeatures };

/** Makes a key from the page: Create when the account has none, else Rotate and confirm. */
async function makeKey(page: Page) {
  const create = page.getByTestId('deploy-key-create');
  const rotate = page.getByTestId('deploy-key-rotate');
  await create.or(rotate).first().waitFor();
  if (await create.isVisible()) {
    await create.click();
  } else {
    await rotate.click();
    await page.getByTestId('deploy-key-rotate-confirm').click();
  }
  await page.getByTestId('deploy-key-once').waitFor();
  return (await page.getByTestId('deploy-key-full').textContent())?.trim() ?? '';
}

describe('deploy', () => {
  test('opens Deploy from the drawer, shows a new key once with the one-liner, then only its prefix', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await signInThroughApi(page);
    await page.goto('/about');
    await waitForShell(page);
    await page.getByTestId('drawer').locator('[data-menu-item="deploy"]').click();
    await page.getByTestId('deploy-page').waitFor();
    // The agent's three platforms and agentless collection, all in this plan.
    expect(await page.locator('[data-testid^="deploy-choice-"]').count()).toBe(4);
    await page.getByTestId('deploy-choice-agentless').waitFor();
    await page.getByTestId('deploy-choice-linux').click();
    await page.getByTestId('deploy-agent-page').waitFor();
    expect(new URL(page.url()).pathname).toBe('/deploy/agent');

    const key = await makeKey(page);
    expect(key).toMatch(/^fdk_[A-Za-z0-9_-]{20,}$/);
    const origin = new URL(page.url()).origin;
    expect(await page.getByTestId('deploy-linux-command').textContent()).toBe(
      `curl -fsSL ${origin}/api/downloads/agent/install.sh | sudo sh -s -- --key ${key}`,
    );
    const prefix = await page.getByTestId('deploy-key-prefix').textContent();
    expect(key.startsWith(prefix?.replace('…', '') ?? '-')).toBe(true);

    // The install script the one-liner fetches is served, with this server's address.
    const script = await page.context().request.get('/api/downloads/agent/install.sh');
    expect(script.status()).toBe(200);
    expect(await script.text()).toContain(`server='${origin}'`);

    // The download button follows what the server has built.
    const listed = (await (await page.context().request.get('/api/downloads/agent')).json()) as {
      data: { packages: { name: string; available: boolean }[] };
    };
    const linux = listed.data.packages.find((p) => p.name === 'linux-x64');
    const download = page.getByTestId('deploy-download-linux-x64');
    if (linux?.available) {
      const href = await download.getAttribute('href');
      const res = await page.context().request.head(href ?? '-');
      expect(res.status()).toBe(200);
      expect(res.headers()['content-disposition']).toContain('flightdeck-agent-linux-x64.tar.gz');
    } else {
      expect(await download.isDisabled()).toBe(true);
      await page.getByTestId('deploy-not-built').waitFor();
    }

    // The key stays on screen across the tabs, with the commands built from it.
    await page.getByTestId('deploy-tab-docker').click();
    await page.getByTestId('deploy-docker-run').waitFor();
    expect(new URL(page.url()).pathname).toBe('/deploy/agent/docker');
    const run = (await page.getByTestId('deploy-docker-run').textContent()) ?? '';
    expect(run).toContain('--pid=host --network=host');
    expect(run).toContain(`-e FLIGHTDECK_URL=${origin} -e FLIGHTDECK_KEY=${key} flightdeck/agent`);
    expect(await page.getByTestId('deploy-docker-compose').textContent()).toContain(`FLIGHTDECK_KEY: ${key}`);

    // Keyboard: the tabs move with the arrow keys.
    await page.getByTestId('deploy-tab-docker').focus();
    await page.keyboard.press('ArrowRight');
    await page.getByTestId('deploy-windows-command').waitFor();
    expect(new URL(page.url()).pathname).toBe('/deploy/agent/windows');
    const ps = (await page.getByTestId('deploy-windows-command').textContent()) ?? '';
    expect(ps).toContain(`-Url '${origin}' -Key '${key}'`);
    expect(ps).toContain(`/api/downloads/agent/windows-x64'`);

    // After a reload the key is gone: only its prefix, and the placeholder in the commands.
    await page.reload();
    await page.getByTestId('deploy-key-prefix').waitFor();
    expect(await page.getByTestId('deploy-key-once').count()).toBe(0);
    expect(await page.getByTestId('deploy-key-prefix').textContent()).toBe(prefix);
    const after = (await page.getByTestId('deploy-windows-command').textContent()) ?? '';
    expect(after).not.toContain(key);
    expect(after).toContain("-Key '<ACCESS_KEY>'");
    await page.getByTestId('deploy-key-placeholder-hint').waitFor();
  });

  test('holds at 360 px without scrolling sideways', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 780 });
    await signInThroughApi(page);
    await page.goto('/deploy/agent');
    await waitForShell(page);
    await page.getByTestId('deploy-linux-command').waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    expect(await page.getByTestId('page-title').textContent()).toContain(en.deploy.pageTitle);
  });
});
