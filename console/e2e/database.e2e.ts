import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import pg from 'pg';
import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import enFeatures from '../src/i18n/en.features.json';
import { scrollsSideways, signInThroughApi, test, waitForShell } from './support/fixtures';

const shots = `${import.meta.dirname}/screenshots`;

/** Seconds between two polls of the targets the tests register (the lowest the form accepts). */
const INTERVAL_S = 10;
/** A statement running this long is a long query for the registered targets. */
const LONG_QUERY_S = 5;
/** Two poll intervals, and room for the page's own status poll and the chart requests. */
const LIVE_WITHIN_MS = 2 * INTERVAL_S * 1000 + 15_000;

/** A statement that runs for five minutes unless killed, started from the test's own connection. */
interface LongQuery {
  /** A word only this statement holds (its column alias), to find it in the process list. */
  marker: string;
  startedAt: number;
  stop(): Promise<void>;
}

async function postgresLongQuery(): Promise<LongQuery> {
  const marker = `fd_e2e_${randomBytes(4).toString('hex')}`;
  const client = new pg.Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database: 'postgres' });
  await client.connect();
  const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid;
  if (!pid) throw new Error('PostgreSQL did not tell the backend pid');
  const running = client.query(`SELECT pg_sleep(300) AS ${marker}`).then(
    () => new Error('pg_sleep(300) ended before the test stopped it'),
    (error: unknown) => error,
  );
  return {
    marker,
    startedAt: Date.now(),
    async stop() {
      const admin = new pg.Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database: 'postgres' });
      await admin.connect();
      try {
        await admin.query('SELECT pg_cancel_backend($1)', [pid]);
      } finally {
        await admin.end();
      }
      const outcome = await running;
      await client.end();
      // Cancelled by the test, as planned: "canceling statement due to user request".
      expect(String(outcome)).toMatch(/cancel/i);
    },
  };
}

async function mariadbLongQuery(): Promise<LongQuery> {
  const marker = `fd_e2e_${randomBytes(4).toString('hex')}`;
  const connection = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root' });
  const threadId = connection.threadId;
  const running = connection.query(`SELECT SLEEP(300) AS ${marker}`).then(
    () => undefined,
    (error: unknown) => error,
  );
  return {
    marker,
    startedAt: Date.now(),
    async stop() {
      const admin = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root' });
      try {
        // KILL QUERY ends the statement and keeps the connection, so it closes cleanly below.
        await admin.query(`KILL QUERY ${Number(threadId)}`);
      } finally {
        await admin.end();
      }
      // A killed SLEEP() returns 1 on MariaDB instead of failing; either way it has ended.
      const outcome = await running;
      if (outcome !== undefined) expect(String(outcome)).toMatch(/interrupt|kill/i);
      await connection.end();
    },
  };
}

/** A table the test makes on the target, to find in the Tables tab; dropped at the end. */
interface TestTable {
  /** What the search box finds it by. */
  name: string;
  drop(): Promise<void>;
}

async function postgresTable(): Promise<TestTable> {
  const name = `fd_e2e_orders_${randomBytes(4).toString('hex')}`;
  const client = new pg.Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database: 'postgres' });
  await client.connect();
  try {
    await client.query(
      `CREATE TABLE public.${name} (id serial PRIMARY KEY, note text NOT NULL DEFAULT 'new', created_at timestamptz DEFAULT now())`,
    );
    await client.query(`CREATE INDEX ${name}_note ON public.${name} (note)`);
    await client.query(`INSERT INTO public.${name} (note) SELECT 'row ' || g FROM generate_series(1, 500) g`);
    await client.query(`ANALYZE public.${name}`);
  } finally {
    await client.end();
  }
  return {
    name,
    async drop() {
      const admin = new pg.Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database: 'postgres' });
      await admin.connect();
      try {
        await admin.query(`DROP TABLE IF EXISTS public.${name}`);
      } finally {
        await admin.end();
      }
    },
  };
}

async function mariadbTable(): Promise<TestTable> {
  const schema = `fd_e2e_${randomBytes(4).toString('hex')}`;
  const connection = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root' });
  try {
    await connection.query(`CREATE DATABASE ${schema}`);
    await connection.query(
      `CREATE TABLE ${schema}.orders (id INT AUTO_INCREMENT PRIMARY KEY, note VARCHAR(100) NOT NULL DEFAULT 'new', KEY orders_note (note)) ENGINE=InnoDB`,
    );
    await connection.query(
      `INSERT INTO ${schema}.orders (note) SELECT CONCAT('row ', seq) FROM ${schema}.seq_1_to_500`,
    );
  } finally {
    await connection.end();
  }
  return {
    name: `${schema}.orders`,
    async drop() {
      const admin = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root' });
      try {
        await admin.query(`DROP DATABASE IF EXISTS ${schema}`);
      } finally {
        await admin.end();
      }
    },
  };
}

/**
 * Registers a target through /deploy/agentless/{service}: the form's values, polled every
 * {@link INTERVAL_S} seconds with long queries from {@link LONG_QUERY_S}, a passing connection test,
 * then Register. Returns the new server's page.
 */
async function registerThroughForm(
  page: Page,
  service: 'postgresql' | 'mysql',
  name: string,
  fields: Record<string, string>,
): Promise<{ href: string; registeredAt: number }> {
  await page.goto(`/deploy/agentless/${service}`);
  await waitForShell(page);
  await page.getByTestId('agentless-form').waitFor();
  await page.getByTestId('agentless-name').fill(name);
  for (const [field, value] of Object.entries(fields)) {
    await page.getByTestId(`agentless-field-${field}`).fill(value);
  }
  await page.getByTestId('agentless-field-interval_s').fill(String(INTERVAL_S));
  await page.getByTestId('agentless-advanced-toggle').click();
  await page.getByTestId('agentless-field-long_query_s').fill(String(LONG_QUERY_S));
  await page.getByTestId('agentless-test').click();
  await page.getByTestId('agentless-test-ok').waitFor({ timeout: 30_000 });
  await page.getByTestId('agentless-register').click();
  await page.getByTestId('agentless-done').waitFor();
  const registeredAt = Date.now();
  const href = (await page.getByTestId('agentless-server-link').getAttribute('href')) ?? '';
  expect(href).toMatch(new RegExp(`^/flightdeck/services/\\d+/${service}$`));
  return { href, registeredAt };
}

/** Waits, without reloading, until a chart of the service holds a drawn uPlot canvas. */
async function waitForLiveChart(page: Page, deadline: number) {
  const charts = page.getByTestId('service-charts');
  for (;;) {
    const card = charts.getByTestId('chart-card').first();
    if (await card.isVisible()) {
      await card.scrollIntoViewIfNeeded();
      const canvas = charts.locator('.uplot canvas').first();
      if (await canvas.isVisible()) return;
    }
    if (Date.now() > deadline) {
      throw new Error(`no chart with data within ${LIVE_WITHIN_MS / 1000} s of the registration`);
    }
    await page.waitForTimeout(500);
  }
}

/** Scrolls the page down and back so every chart has been half on screen once (they draw then). */
async function scrollThrough(page: Page) {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  for (let y = 0; y < height; y += 300) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    await page.waitForTimeout(60);
  }
  await page.evaluate(() => window.scrollTo(0, 0));
}

/**
 * The service page shows, within two poll intervals of the registration and without a reload, the
 * service up, a chart with data and the test's statement in the process list marked as a long query.
 */
async function checkLivePage(
  page: Page,
  query: LongQuery,
  table: TestTable,
  withDdl: boolean,
  registeredAt: number,
  shotName: string,
) {
  const deadline = registeredAt + LIVE_WITHIN_MS;
  const remaining = () => Math.max(1_000, deadline - Date.now());
  await page.getByTestId('database-page').waitFor();

  await waitForLiveChart(page, deadline);
  await page.locator('[data-testid="service-status"][data-status="up"]').waitFor({ timeout: remaining() });
  const tiles = page.getByTestId('service-tiles');
  expect(await tiles.locator('[data-tile]').count()).toBe(7);
  expect(await page.getByTestId('service-last-sample').textContent()).toMatch(/^Last sample/);

  // The process list, read live from the target: the test's statement, marked long, with the threshold.
  const list = page.getByTestId('process-list');
  await page.getByTestId('process-filter').fill(query.marker);
  const row = list.locator('[data-testid="session-row"]').filter({ hasText: query.marker });
  await row.first().waitFor({ timeout: remaining() });
  expect(await row.count()).toBe(1);
  // The list was read when the page opened; the refresh button reads it again.
  await page.getByTestId('process-refresh').click();
  await expect.poll(() => row.getAttribute('data-long'), { timeout: remaining() }).toBe('true');
  expect(await row.getByTestId('long-badge').textContent()).toBe(enFeatures.database.process.long);
  expect(await page.getByTestId('long-query-threshold').textContent()).toContain(String(LONG_QUERY_S));
  expect(Date.now()).toBeLessThanOrEqual(deadline);

  // Keyboard: Enter on the row's button opens the full statement.
  await row.getByTestId('session-expand').focus();
  await page.keyboard.press('Enter');
  expect(await list.getByTestId('session-full-query').first().textContent()).toContain(query.marker);

  // The filter cleared: the list holds other sessions too, longest first.
  await page.getByTestId('process-filter').fill('');
  expect(await page.getByTestId('sort-duration').getAttribute('data-direction')).toBe('desc');

  await scrollThrough(page);
  await page.screenshot({ path: `${shots}/${shotName}-1280.png`, fullPage: true });
  await checkTablesAndHealth(page, table, withDdl, shotName);

  // A wall screen: the charts and tiles spread over more columns, nothing scrolls sideways.
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.waitForTimeout(300);
  expect(await scrollsSideways(page)).toBe(false);
  await scrollThrough(page);
  await page.screenshot({ path: `${shots}/${shotName}-1920.png`, fullPage: true });

  await page.setViewportSize({ width: 360, height: 780 });
  await page.getByTestId('database-page').waitFor();
  await page.waitForTimeout(300);
  expect(await scrollsSideways(page)).toBe(false);
  await scrollThrough(page);
  await page.screenshot({ path: `${shots}/${shotName}-360.png`, fullPage: true });
  await page.getByTestId('tab-health').click();
  await page.getByTestId('health-panel').waitFor({ timeout: 30_000 });
  expect(await scrollsSideways(page)).toBe(false);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${shots}/${shotName}-health-360.png`, fullPage: true });
}

/**
 * The Tables tab finds the test's table and opens its side panel (columns, indexes, counters, and
 * the DDL where the engine prints it); the Health tab shows the checks and the databases.
 */
async function checkTablesAndHealth(page: Page, table: TestTable, withDdl: boolean, shotName: string) {
  await page.getByTestId('tab-tables').click();
  await page.getByTestId('tables-search').fill(table.name);
  const row = page.locator('[data-testid="table-row"]').filter({ hasText: table.name });
  await row.first().waitFor({ timeout: 30_000 });
  expect(await row.count()).toBe(1);
  // Keyboard: the table's name is a button.
  await row.getByRole('button').focus();
  await page.keyboard.press('Enter');
  const columns = page.getByTestId('table-columns');
  await columns.waitFor({ timeout: 30_000 });
  for (const column of ['id', 'note']) expect(await columns.textContent()).toContain(column);
  await page.getByTestId('table-indexes').waitFor();
  expect(await page.getByTestId('table-indexes').textContent()).toContain('note');
  const counters = page.getByTestId('table-counters');
  await counters.waitFor({ timeout: 30_000 });
  expect(await counters.locator('tr').count()).toBeGreaterThan(0);
  if (withDdl) expect(await page.getByTestId('table-ddl').textContent()).toMatch(/CREATE TABLE/i);
  await page.screenshot({ path: `${shots}/${shotName}-table-1280.png` });
  await page.keyboard.press('Escape');
  await columns.waitFor({ state: 'detached' });

  await page.getByTestId('tab-health').click();
  const health = page.getByTestId('health-panel');
  await health.waitFor({ timeout: 30_000 });
  expect(await health.locator('[data-check]').count()).toBeGreaterThan(0);
  expect(await health.locator('[data-database]').count()).toBeGreaterThan(0);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${shots}/${shotName}-health-1280.png`, fullPage: true });
  await page.getByTestId('tab-process').click();
  await page.getByTestId('process-list').waitFor();
}

describe('database screen', () => {
  test('PostgreSQL registered through the form shows live charts and the long query in its process list', async ({
    page,
  }) => {
    await signInThroughApi(page);
    const table = await postgresTable();
    const query = await postgresLongQuery();
    try {
      const { href, registeredAt } = await registerThroughForm(page, 'postgresql', 'E2E DB PostgreSQL', {
        host: '127.0.0.1',
        port: '5432',
        user: 'postgres',
        database: 'postgres',
      });
      await page.getByTestId('agentless-server-link').click();
      await page.waitForURL(`**${href}`);
      expect(await page.getByTestId('service-name').textContent()).toBeTruthy();
      await checkLivePage(page, query, table, false, registeredAt, 'database--postgresql');

      // The server's page links to its database service, and back.
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.getByTestId('service-back').click();
      await page.getByTestId('host-page').waitFor();
      await page.locator('[data-testid="service-link"][data-service="postgresql"]').click();
      await page.waitForURL(`**${href}`);
      await page.getByTestId('database-page').waitFor();
    } finally {
      await query.stop();
      await table.drop();
    }
  }, 180_000);

  test('MariaDB registered through the form shows live charts and the long query in its process list', async ({
    page,
  }) => {
    await signInThroughApi(page);
    const table = await mariadbTable();
    const query = await mariadbLongQuery();
    try {
      const { href, registeredAt } = await registerThroughForm(page, 'mysql', 'E2E DB MariaDB', {
        host: '127.0.0.1',
        port: '3306',
        user: 'root',
      });
      await page.getByTestId('agentless-server-link').click();
      await page.waitForURL(`**${href}`);
      await checkLivePage(page, query, table, true, registeredAt, 'database--mariadb');
    } finally {
      await query.stop();
      await table.drop();
    }
  }, 180_000);
});
