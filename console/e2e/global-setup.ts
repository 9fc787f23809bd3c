import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { buildProduct, type ProductProcess, repoRoot, startProduct } from '../../scripts/src/product-process';
import { assertChromium } from './support/chromium';
import { startMailbox } from './support/mailbox';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    adminEmail: string;
    adminPassword: string;
    /** Folder where the local SMTP server stores each message the product sends (support/mailbox.ts). */
    mailDir: string;
  }
}

const screenshotDir = fileURLToPath(new URL('./screenshots/', import.meta.url));

/**
 * Builds the real product, starts a local SMTP server and the product on free ports with an empty
 * data directory and a known admin, and waits until `GET /api/health` answers 200. The teardown
 * stops both.
 */
export default async function setup(project: TestProject) {
  assertChromium();
  rmSync(screenshotDir, { recursive: true, force: true });
  mkdirSync(screenshotDir, { recursive: true });

  // vitest sets NODE_ENV=test; buildProduct builds the production console whatever it says.
  if (!process.env.E2E_SKIP_BUILD) buildProduct();
  for (const artefact of ['dist/start.js', 'console/dist/index.html']) {
    if (!existsSync(join(repoRoot, artefact))) {
      throw new Error(`\`npm run build\` did not produce ${artefact}`);
    }
  }

  const mailDir = mkdtempSync(join(tmpdir(), 'flightdeck-e2e-mail-'));
  const mailbox = await startMailbox(mailDir);
  const adminEmail = 'e2e-admin@flightdeck.test';
  const adminPassword = `E2e-${randomBytes(9).toString('base64url')}`;
  let product: ProductProcess;
  try {
    product = await startProduct({
      FLIGHTDECK_ADMIN_EMAIL: adminEmail,
      FLIGHTDECK_ADMIN_PASSWORD: adminPassword,
      SMTP_URL: mailbox.url,
    });
  } catch (error) {
    await mailbox.close();
    rmSync(mailDir, { recursive: true, force: true });
    throw error;
  }

  project.provide('baseURL', product.baseURL);
  project.provide('adminEmail', adminEmail);
  project.provide('adminPassword', adminPassword);
  project.provide('mailDir', mailDir);

  return async () => {
    const code = await product.stop();
    await mailbox.close();
    rmSync(mailDir, { recursive: true, force: true });
    // SIGTERM must end the product cleanly: batches in flight written, exit code 0.
    if (code !== 0) throw new Error(`the product exited with code ${code} after SIGTERM`);
  };
}
