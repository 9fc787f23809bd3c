import { defineConfig } from 'vitest/config';

/** Unit and integration suites of every workspace; the browser suite has its own config (console/e2e). */
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'schemas', root: 'schemas', environment: 'node' } },
      {
        test: {
          name: 'collector',
          root: 'collector',
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      { test: { name: 'api', root: 'api', environment: 'node', testTimeout: 30_000, hookTimeout: 30_000 } },
      { test: { name: 'agent', root: 'agent', environment: 'node' } },
      {
        test: {
          name: 'scripts',
          root: 'scripts',
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: { name: 'console', root: 'console', include: ['src/**/*.test.{ts,tsx}'], environment: 'node' },
      },
    ],
  },
});
