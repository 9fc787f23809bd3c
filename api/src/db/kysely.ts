import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresAdapter, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './types';

export type { Database } from './types';
export type Db = Kysely<Database>;
export type Engine = 'sqlite' | 'postgres';

const POSTGRES_URL_RE = /^postgres(ql)?:\/\//i;
const PG_INT8_OID = 20;

/** Which engine a database URL names: a postgres:// URL, or else a SQLite file path. */
export function engineOfUrl(databaseUrl: string): Engine {
  return POSTGRES_URL_RE.test(databaseUrl) ? 'postgres' : 'sqlite';
}

/** The engine behind a Kysely instance, for the few places (migrations) where SQL differs. */
export function engineOf(db: Kysely<unknown>): Engine {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/**
 * Opens the metadata DB. SQLite: the parent folder is created, WAL journal, foreign keys on.
 * PostgreSQL: a pg pool whose bigint columns (unix seconds, counts) come back as numbers, the same
 * as SQLite gives; the parser is set on this pool only, not on pg globally.
 */
export function createDb(databaseUrl: string): Db {
  if (engineOfUrl(databaseUrl) === 'postgres') {
    const pool = new pg.Pool({
      connectionString: databaseUrl,
      max: 10,
      // A server that does not answer fails the query instead of waiting forever.
      connectionTimeoutMillis: 10_000,
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
          oid === PG_INT8_OID && format !== 'binary'
            ? (v: string) => Number(v)
            : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
      },
    });
    // An idle connection the server closes (restart, failover, admin) is dropped from the pool
    // and replaced on the next query; without a listener pg would crash the process with it.
    pool.on('error', (err) => {
      process.emitWarning(`metadata DB: an idle connection was closed: ${err.message}`);
    });
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  const file = databaseUrl.replace(/^sqlite:(\/\/)?/i, '');
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const sqlite = new SqliteDatabase(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
}
