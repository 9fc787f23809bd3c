import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteStore } from '@flightdeck/collector/store';
import { afterAll, describe, expect, it } from 'vitest';
import { parseDemoArgs, runDemoDataCli } from './cli';

const dir = mkdtempSync(join(tmpdir(), 'fd-demo-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function capture() {
  const io = { stdout: '', stderr: '' };
  return {
    io,
    sink: {
      out(t: string) {
        io.stdout += t;
      },
      err(t: string) {
        io.stderr += t;
      },
    },
  };
}

describe('npm run demo-data', () => {
  it('reads the options, with defaults for those not given', () => {
    expect(parseDemoArgs([])).toEqual({ hosts: 10, days: 7, intervalSeconds: 60, seed: 1, tenant: '1' });
    expect(
      parseDemoArgs(['--hosts', '3', '--days', '0.5', '--interval', '10', '--seed', '9', '--tenant', '4']),
    ).toEqual({ hosts: 3, days: 0.5, intervalSeconds: 10, seed: 9, tenant: '4' });
  });

  it.each([
    [['--hosts', 'ten'], /--hosts: expected a whole number/],
    [['--hosts', '0'], /--hosts/],
    [['--interval', '5'], /--interval: expected a whole number from 10/],
    [['--days', '-1'], /--days/],
    [['--tenant', 'acme'], /--tenant: expected a customer id/],
    [['--host', '3'], /Unknown option '--host'/],
    [['extra'], /Unexpected argument 'extra'/],
  ])('answers %j with the problem, the usage and exit code 2', async (argv, problem) => {
    const { io, sink } = capture();
    expect(await runDemoDataCli(argv, { DATA_DIR: dir }, sink)).toBe(2);
    expect(io.stderr).toMatch(problem);
    expect(io.stderr).toContain('Usage: npm run demo-data');
  });

  it('answers a bad environment with exit code 2, naming the variable', async () => {
    const { io, sink } = capture();
    expect(await runDemoDataCli(['--hosts', '1'], { DATA_DIR: dir, DATABASE_URL: 'mysql://x' }, sink)).toBe(
      2,
    );
    expect(io.stderr).toMatch(/DATABASE_URL/);
  });

  it('fills the stores under DATA_DIR, bootstrapping a first start, and prints a summary', async () => {
    const { io, sink } = capture();
    const env = {
      DATA_DIR: dir,
      FLIGHTDECK_ADMIN_EMAIL: 'ops@example.com',
      FLIGHTDECK_ADMIN_PASSWORD: 'long-password',
    };
    const code = await runDemoDataCli(['--hosts', '2', '--days', '1', '--interval', '600'], env, sink);
    expect(io.stderr).toBe('');
    expect(code).toBe(0);
    expect(io.stdout).toContain('First start: the system administrator was created.');
    expect(io.stdout).toMatch(/100 %/);
    expect(io.stdout).toMatch(/Wrote [\d,]+ samples of [\d,]+ series/);
    expect(io.stdout).toContain('Hosts registered for customer 1: web-01, db-01.');
    const store = createSqliteStore({ path: join(dir, 'metrics.db') });
    try {
      const latest = await store.latest({ tenant: '1', host: 'db-01', metric: 'system.uptime' });
      expect(latest).toHaveLength(1);
    } finally {
      await store.close();
    }
  });
});
