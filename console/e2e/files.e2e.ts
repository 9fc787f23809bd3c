import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, describe, expect } from 'vitest';
import enFeatures from '../src/i18n/en.features.json';
import enCore from '../src/i18n/en.json';
import { scrollsSideways, signInThroughApi, test, waitForShell } from './support/fixtures';

const en = { ...enCore, ...enFeatures };

const shots = `${import.meta.dirname}/screenshots`;
const PAGE = '/flightdeck/cockpit/files_criticals';
/** The product's local agent checks files every interval (10 s); the list asks every 10 s. */
const AGENT_WAIT_MS = 60_000;

// The product runs on this machine, so its local agent reads files the test writes here.
const dir = mkdtempSync(join(tmpdir(), 'fd-e2e-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Opens the page once the local host is registered (the New button needs a server). */
async function openPage(page: Page) {
  await page.goto(PAGE);
  await waitForShell(page);
  await page.getByTestId('files-page').waitFor();
  const add = page.getByTestId('files-new');
  const deadline = Date.now() + 30_000;
  while (!(await add.isEnabled())) {
    if (Date.now() > deadline) throw new Error('no server appeared within 30 s');
    await page.waitForTimeout(2_000);
    await page.reload();
    await page.getByTestId('files-page').waitFor();
  }
}

/** Makes sure the local host monitors `path` (through the API), so a test needs no earlier one. */
async function ensureFile(page: Page, path: string) {
  writeFileSync(path, 'key=value\n', { flag: 'a' });
  const request = page.context().request;
  const servers = (await (await request.post('/api/bot/servers/list', { data: {} })).json()) as {
    data: { id: number; name: string }[];
  };
  const server = servers.data.find((s) => s.name === hostname()) ?? servers.data[0];
  if (!server) throw new Error('no server to add a file to');
  const res = await request.post('/api/flightdeck/cockpit/flies_critical/new', {
    data: { server_id: server.id, path },
  });
  if (!res.ok() && res.status() !== 409) throw new Error(`adding ${path} failed: ${await res.text()}`);
}

function row(page: Page, path: string): Locator {
  return page.locator(`[data-testid="file-row"][data-path="${path}"]`);
}

async function waitForStatus(page: Page, path: string, status: string) {
  await expect
    .poll(
      () =>
        row(page, path)
          .getAttribute('data-status', { timeout: 2_000 })
          .catch(() => null),
      {
        timeout: AGENT_WAIT_MS,
        interval: 1_000,
      },
    )
    .toBe(status);
}

/** Picks the local host in the dialog's server list (its label is the host name). */
async function chooseLocalHost(dialog: Locator) {
  const select = dialog.getByTestId('files-new-server');
  const labels = await select.locator('option').allTextContents();
  const local = labels.find((l) => l === hostname()) ?? labels[0];
  if (local === undefined) throw new Error('the server list is empty');
  await select.selectOption({ label: local });
}

describe('critical files', () => {
  test('a file added through the path test turns ok, shows a change, and is equalized', async ({ page }) => {
    const path = join(dir, 'app.conf');
    writeFileSync(path, 'listen 80;\n');
    await page.setViewportSize({ width: 1440, height: 900 });
    await signInThroughApi(page);
    await openPage(page);
    expect(await page.getByTestId('page-title').textContent()).toContain(en.files.pageTitle);
    // Nothing is monitored yet in this product.
    await page.getByTestId('files-empty').waitFor();
    await page.screenshot({ path: `${shots}/files--empty-1440.png` });

    await page.getByTestId('files-new').click();
    const dialog = page.getByRole('dialog', { name: en.files.dialog.title });
    await dialog.waitFor();
    await chooseLocalHost(dialog);
    // A relative path is refused before anything is sent.
    await dialog.getByTestId('files-new-path').fill('etc/app.conf');
    await dialog.getByTestId('files-test-path').click();
    await dialog.getByText(en.files.pathErrors.absolute).waitFor();

    // The path test: pending while the agent has not answered, then its answer.
    await dialog.getByTestId('files-new-path').fill(path);
    await dialog.getByTestId('files-test-path').click();
    const answer = dialog.getByTestId('path-test');
    await answer.waitFor();
    expect(await answer.getAttribute('data-state')).toBe('pending');
    await page.screenshot({ path: `${shots}/files--path-test-pending.png` });
    await expect
      .poll(() => answer.getAttribute('data-state'), { timeout: AGENT_WAIT_MS, interval: 500 })
      .toBe('ok');
    expect(await answer.textContent()).toContain(`${path} is a readable file`);
    await page.screenshot({ path: `${shots}/files--path-test-ok.png` });

    await dialog.getByTestId('files-add').click();
    await dialog.waitFor({ state: 'detached' });
    await row(page, path).waitFor();
    await waitForStatus(page, path, 'ok');

    // Someone edits the file: the agent sees another hash.
    appendFileSync(path, 'listen 443 ssl;\n');
    await waitForStatus(page, path, 'changed');
    await page.screenshot({ path: `${shots}/files--changed-1440.png` });

    // The details list the change, still open.
    await row(page, path)
      .getByRole('button', { name: en.files.actions.details.replace('{{path}}', path) })
      .click();
    const details = page.getByTestId('file-details');
    await details.waitFor();
    await expect.poll(() => details.getByTestId('file-change').count()).toBe(1);
    expect(await details.getByTestId('file-change').textContent()).toContain(en.files.detail.open);
    await page.keyboard.press('Escape');
    await details.waitFor({ state: 'detached' });

    // Equalize, confirmed: ok again, and the next checks keep it so.
    await row(page, path).getByTestId('file-equalize').filter({ visible: true }).click();
    const confirm = page.getByRole('dialog', { name: en.files.equalizeConfirm.title });
    await confirm.waitFor();
    await confirm.getByTestId('files-confirm-button').click();
    await confirm.waitFor({ state: 'detached' });
    await waitForStatus(page, path, 'ok');
    expect(await row(page, path).getByTestId('file-equalize').count()).toBe(0);

    await row(page, path).click();
    await details.waitFor();
    await expect.poll(() => details.getAttribute('data-status')).toBe('ok');
    expect(await details.getByTestId('file-change').textContent()).toContain(en.files.detail.accepted);
    // The panel slides in: let it settle before the picture.
    await page.waitForTimeout(500);
    await page.screenshot({ path: `${shots}/files--details-1440.png` });
    await page.keyboard.press('Escape');
    await details.waitFor({ state: 'detached' });

    // A second file that does not exist shows as missing, with the agent's reason.
    const gone = join(dir, 'gone.conf');
    await page.getByTestId('files-new').click();
    await dialog.waitFor();
    await chooseLocalHost(dialog);
    await dialog.getByTestId('files-new-path').fill(gone);
    await dialog.getByTestId('files-test-path').click();
    await expect
      .poll(() => answer.getAttribute('data-reason'), { timeout: AGENT_WAIT_MS, interval: 500 })
      .toBe('not_found');
    await dialog.getByTestId('files-add').click();
    await dialog.waitFor({ state: 'detached' });
    await waitForStatus(page, gone, 'missing');
    expect(await row(page, gone).getByTestId('file-error').textContent()).toContain('No file at');

    // The status filter shows only the missing one.
    await page.getByTestId('files-filter-status').selectOption('missing');
    await expect.poll(() => page.getByTestId('file-row').count()).toBe(1);
    await page.getByTestId('files-filter-status').selectOption('');
    await page.screenshot({ path: `${shots}/files--list-1440.png` });

    // Remove, confirmed.
    await row(page, gone).getByTestId('file-remove').filter({ visible: true }).click();
    const removeConfirm = page.getByRole('dialog', { name: en.files.removeConfirm.title });
    await removeConfirm.getByTestId('files-confirm-button').click();
    await row(page, gone).waitFor({ state: 'detached' });
    expect(await row(page, path).count()).toBe(1);
  }, 240_000);

  for (const colorScheme of ['light', 'dark'] as const) {
    test(`the page and its dialog hold at 360 px in ${colorScheme} mode`, async ({ page }) => {
      try {
        await page.setViewportSize({ width: 360, height: 780 });
        await signInThroughApi(page);
        await page.context().request.post('/api/user/set_preference', {
          data: { preference: 'dark_mode', value: colorScheme === 'dark' ? '1' : '0' },
        });
        await openPage(page);
        await ensureFile(page, join(dir, `narrow-${colorScheme}.conf`));
        await page.reload();
        await page.getByTestId('files-page').waitFor();
        await page.getByTestId('file-row').first().waitFor();
        expect(await scrollsSideways(page)).toBe(false);
        await page.screenshot({ path: `${shots}/files--list-360-${colorScheme}.png`, fullPage: true });
        await page.getByTestId('files-new').click();
        const dialog = page.getByRole('dialog', { name: en.files.dialog.title });
        await dialog.waitFor();
        await dialog
          .getByTestId('files-new-path')
          .fill(`${dir}/a/very/long/path/that/must/wrap/inside/the/dialog.conf`);
        expect(await scrollsSideways(page)).toBe(false);
        await page.screenshot({ path: `${shots}/files--dialog-360-${colorScheme}.png` });
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
        await page.getByTestId('file-row').first().click();
        await page.getByTestId('file-details').waitFor();
        await page.waitForTimeout(500);
        expect(await scrollsSideways(page)).toBe(false);
        await page.screenshot({ path: `${shots}/files--details-360-${colorScheme}.png` });
      } finally {
        await page.context().request.post('/api/user/set_preference', {
          data: { preference: 'dark_mode', value: '0' },
        });
      }
    }, 120_000);
  }
});
