import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Browser end-to-end suite: builds the product once, starts `node dist/start.js` on a free port
 * (global-setup.ts) and drives Debian's Chromium through playwright-core against it.
 * Run from the repository root: `npm run test:e2e`. Screenshots of every test land in
 * e2e/screenshots/ (FAILED-... for failures). E2E_SKIP_BUILD=1 reuses the last build while iterating
 * on the tests; CHROMIUM_PATH points at another Chromium.
 */
export default defineConfig({
  // Keep vitest's cache with the repository's, not in a node_modules/ inside e2e/.
  cacheDir: fileURLToPath(new URL('../../node_modules/.vite/e2e', import.meta.url)),
  test: {
    name: 'e2e',
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['**/*.e2e.ts'],
    environment: 'node',
    globalSetup: ['./global-setup.ts'],
    // One product instance, one browser per file: files run one after the other.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
