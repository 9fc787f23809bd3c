import { createServer } from 'node:net';
import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import enFeatures from '../src/i18n/en.features.json';
import enCore from '../src/i18n/en.json';
import { scrollsSideways, signInThroughApi, test, waitForShell } from './support/fixtures';

const en = { ...enCore, ...enFeatures };

/** A TCP port on this machine where nothing listens: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** Opens the PostgreSQL form from the Deploy page, through the engine picker. */
async function openPostgresForm(page: Page) {
  await page.goto('/deploy');
  await waitForShell(page);
  await page.getByTestId('deploy-choice-agentless').click();
  await page.getByTestId('agentless-picker-page').waitFor();
  const offered = await page
    .locator('[data-testid^="agentless-choice-"]')
    .evaluateAll((cards) => cards.map((c) => c.getAttribute('data-testid')));
  // What the collectors poll, and nothing the product cannot poll yet.
  expect(offered.sort()).toEqual(
    [
      'apache',
      'cassandra',
      'elasticsearch',
      'mongodb',
      'mssql',
      'mysql',
      'neo4j',
      'nginx',
      'oracle',
      'postgresql',
      'url',
    ].map((s) => `agentless-choice-${s}`),
  );
  await page.getByTestId('agentless-choice-postgresql').click();
  await page.getByTestId('agentless-form').waitFor();
  expect(new URL(page.url()).pathname).toBe('/deploy/agentless/postgresql');
}

describe('agentless deploy', () => {
  test('tests PostgreSQL, registers it only after the test passed, and opens the new server', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await signInThroughApi(page);
    await openPostgresForm(page);

    // The password is never prefilled; the default port is flagged.
    expect(await page.getByTestId('agentless-field-password').inputValue()).toBe('');
    await page.getByTestId('agentless-default-port').waitFor();
    const register = page.getByTestId('agentless-register');
    expect(await register.isDisabled()).toBe(true);

    await page.getByTestId('agentless-name').fill('E2E PostgreSQL');
    await page.getByTestId('agentless-field-host').fill('127.0.0.1');
    await page.getByTestId('agentless-field-port').fill('5432');
    await page.getByTestId('agentless-field-user').fill('postgres');
    await page.getByTestId('agentless-field-database').fill('postgres');
    // Keyboard: Enter in a field runs the test.
    await page.getByTestId('agentless-field-database').press('Enter');
    await page.getByTestId('agentless-test-ok').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('agentless-test-version').textContent()).toMatch(/\d+/);
    expect(await register.isEnabled()).toBe(true);

    // Any change disables Register until the values are tested again.
    await page.getByTestId('agentless-field-database').fill('template1');
    await page.getByTestId('agentless-test-stale').waitFor();
    expect(await register.isDisabled()).toBe(true);
    await page.getByTestId('agentless-field-database').fill('postgres');
    expect(await register.isEnabled()).toBe(true);

    await register.click();
    await page.getByTestId('agentless-done').waitFor();
    expect(await page.getByTestId('agentless-start-note').textContent()).toBe(en.deploy.agentless.startNote);
    const link = page.getByTestId('agentless-server-link');
    const href = (await link.getAttribute('href')) ?? '';
    expect(href).toMatch(/^\/flightdeck\/services\/\d+\/postgresql$/);

    // The new server exists with its PostgreSQL service.
    const id = Number(href.split('/')[3]);
    const listed = (await (
      await page.context().request.post('/api/bot/servers/list', { data: {} })
    ).json()) as {
      data: { id: number; name: string; services: { service_code: string }[] }[];
    };
    const server = listed.data.find((s) => s.id === id);
    expect(server?.name).toBe('E2E PostgreSQL');
    expect(server?.services.map((s) => s.service_code)).toContain('postgresql');

    await link.click();
    await page.waitForURL(`**${href}`);
    await waitForShell(page);
    await page.getByText('E2E PostgreSQL').first().waitFor();
  });

  test('a test against a closed port shows the pool-connection message and Register stays disabled', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await signInThroughApi(page);
    await openPostgresForm(page);
    const port = await closedPort();
    await page.getByTestId('agentless-name').fill('Nothing there');
    await page.getByTestId('agentless-field-host').fill('127.0.0.1');
    await page.getByTestId('agentless-field-port').fill(String(port));
    expect(await page.getByTestId('agentless-default-port').count()).toBe(0);
    await page.getByTestId('agentless-test').click();
    await page.getByTestId('agentless-test-running').waitFor();
    const error = page.getByTestId('agentless-test-error');
    await error.waitFor({ timeout: 30_000 });
    expect(await error.getAttribute('data-code')).toBe('connection_failed');
    expect(await error.textContent()).toContain(en.deploy.agentless.failure.connection_failed);
    // The server's own message names the target.
    expect(await page.getByTestId('agentless-test-message').textContent()).toContain(String(port));
    expect(await page.getByTestId('agentless-register').isDisabled()).toBe(true);
  });

  test('adds a URL check to an existing server, and holds at 360 px', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 780 });
    await signInThroughApi(page);
    await page.goto('/deploy/agentless/url/add');
    await waitForShell(page);
    await page.getByTestId('agentless-form').waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    // The product's own host (its embedded agent) and the server the first test made are listed.
    const picker = page.getByTestId('agentless-server');
    await picker.waitFor();
    const options = await picker
      .locator('option')
      .evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value));
    const serverId = options.find((v) => v !== '');
    if (!serverId) throw new Error('no server to pick');
    await picker.selectOption(serverId);
    // The console's own health call: a URL this machine answers.
    const url = new URL('/api/health', page.url()).href;
    await page.getByTestId('agentless-field-url').fill(url);
    await page.getByTestId('agentless-test').click();
    await page.getByTestId('agentless-test-ok').waitFor({ timeout: 30_000 });
    await page.getByTestId('agentless-register').click();
    await page.getByTestId('agentless-done').waitFor();
    expect(await page.getByTestId('agentless-server-link').getAttribute('href')).toBe(
      `/flightdeck/services/${serverId}/url`,
    );
    expect(await scrollsSideways(page)).toBe(false);
  });
});
