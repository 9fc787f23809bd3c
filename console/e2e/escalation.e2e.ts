import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { admin, scrollsSideways, signInThroughApi, test, waitForShell } from './support/fixtures';

const shots = `${import.meta.dirname}/screenshots`;

/** Saves the default chain with only its opening step, which removes it (a clean start and end). */
async function clearChain(page: Page) {
  const response = await page.context().request.post('/api/integrations/integration/save_escalation_config', {
    data: { severity: 'default', steps: [{ delay_minutes: 0, recipients: [] }] },
  });
  if (!response.ok())
    throw new Error(`clearing the chain failed: HTTP ${response.status()} ${await response.text()}`);
}

describe('escalation', () => {
  test('a 2-step chain is refused without a recipient, saved with one, and kept after a reload', async ({
    page,
  }) => {
    await signInThroughApi(page);
    await clearChain(page);
    const registered = await page.context().request.post('/api/integrations/integration/email/register', {
      data: { address: admin.email },
    });
    expect(registered.ok()).toBe(true);

    await page.goto('/flightdeck/management/escalation');
    await waitForShell(page);
    await page.getByTestId('escalation-step-1').waitFor();
    expect(await page.getByTestId('escalation-step-1').textContent()).toContain('every enabled integration');

    // The menu offers the page under Management.
    expect(await page.locator('a[href="/flightdeck/management/escalation"]').count()).toBeGreaterThan(0);

    // 1. A later step with nobody named is refused in the page, in words.
    await page.getByTestId('escalation-add').click();
    const step = page.getByTestId('escalation-step-2');
    await step.getByTestId('escalation-delay-2').fill('10');
    await page.getByTestId('escalation-save').click();
    await step.getByText('Pick at least one recipient.').waitFor();

    // 2. Named, the chain saves.
    await step.getByTestId('escalation-recipients-2').click();
    await page
      .getByRole('option', { name: `(${admin.email})`, exact: false })
      .first()
      .click();
    await page.keyboard.press('Escape');
    await page.screenshot({ path: `${shots}/escalation--form-1280.png`, fullPage: true });
    await page.getByTestId('escalation-save').click();
    await page.getByText('Escalation chain saved.').waitFor();
    await expect.poll(() => scrollsSideways(page)).toBe(false);

    // 3. After a reload the step is there with its delay and recipient.
    await page.reload();
    await waitForShell(page);
    await page.getByTestId('escalation-step-2').waitFor();
    expect(await page.getByTestId('escalation-delay-2').inputValue()).toBe('10');
    expect(await page.getByTestId('escalation-step-2').textContent()).toContain(admin.email);

    await page.setViewportSize({ width: 360, height: 780 });
    await page.getByTestId('escalation-step-2').waitFor();
    await expect.poll(() => scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: `${shots}/escalation--saved-360.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: `${shots}/escalation--saved-1280.png`, fullPage: true });
    await clearChain(page);
  }, 120_000);
});
