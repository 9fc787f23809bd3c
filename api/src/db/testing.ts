import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createDb, type Db, type Engine } from './kysely';

/** The server the PostgreSQL suites create their throw-away databases on. */
export const TEST_POSTGRES_ADMIN_URL =
  process.env.FD_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  engine: Engine;
  url: string;
  db: Db;
  /** Closes the connection and deletes the database (file or PostgreSQL database). */
  drop(): Promise<void>;
}

/**
 * A fresh, empty metadata DB for one suite: a SQLite file in a temp folder, or a new PostgreSQL
 * database `fd_test_<random>` that `drop()` removes after ending its connections.
 */
export async function createTestDatabase(engine: Engine): Promise<TestDatabase> {
  if (engine === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'fd-api-'));
    const url = join(dir, 'flightdeck.db');
    const db = createDb(url);
    return {
      engine,
      url,
      db,
      async drop() {
        await db.destroy();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `fd_test_${randomBytes(6).toString('hex')}`;
  await withAdmin((admin) => admin.query(`CREATE DATABASE ${name}`));
  const url = new URL(TEST_POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  const db = createDb(url.toString());
  return {
    engine,
    url: url.toString(),
    db,
    async drop() {
      await db.destroy();
      await withAdmin(async (admin) => {
        // pg's pool.end() resolves before its sockets are closed: wait for the backends to leave
        // on their own, because terminating a client that is still closing makes it emit an
        // uncaught error in the test process. Terminate only what is left after 5 s.
        const deadline = Date.now() + 5_000;
        for (;;) {
          const { rows } = await admin.query<{ n: string }>(
            'SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1',
            [name],
          );
          if (Number(rows[0]?.n ?? 0) === 0 || Date.now() > deadline) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [
          name,
        ]);
        await admin.query(`DROP DATABASE IF EXISTS ${name}`);
      });
    },
  };
}

async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
