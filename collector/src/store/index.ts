import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { MetricStore } from './contract';
import { createQuestdbStore, type QuestdbStoreOptions } from './questdb';
import { createSqliteStore } from './sqlite';

export * from './contract';
export { createQuestdbStore, type QuestdbStoreOptions } from './questdb';
export { createSqliteStore, type SqliteStoreOptions } from './sqlite';

/**
 * Reads a `METRICS_STORE` value (DESIGN section 2) into QuestDB store options.
 *
 * Form: `questdb:http::addr=HOST:9000;pg=HOST:8812[;key=value...]`, the part after `questdb:` being
 * a QuestDB client config string (`http` or `https`) with these keys:
 * - `addr` (required): ILP over HTTP endpoint, `host[:port]` (port 9000 by default);
 * - `username`, `password`: HTTP basic auth of the ILP endpoint;
 * - `pg`: PostgreSQL wire endpoint for reads, `host[:port]` (default: the addr host, port 8812);
 * - `pg_user`, `pg_password`, `pg_database`: default `admin`, `quest`, `qdb`;
 * - `table`: default `metrics`.
 *
 * Example: `questdb:http::addr=questdb:9000;pg=questdb:8812;pg_password=secret`.
 */
export function parseQuestdbConfig(config: string): QuestdbStoreOptions {
  const body = config.replace(/^questdb:/, '');
  const m = /^(https?)::(.*)$/.exec(body);
  if (!m) throw new Error('METRICS_STORE: expected questdb:http::addr=host:9000;pg=host:8812');
  const values = new Map<string, string>();
  for (const part of m[2]!.split(';')) {
    if (!part.trim()) continue;
    const eq = part.indexOf('=');
    if (eq <= 0) throw new Error(`METRICS_STORE: "${part}" is not key=value`);
    values.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  const known = new Set([
    'addr',
    'username',
    'password',
    'pg',
    'pg_user',
    'pg_password',
    'pg_database',
    'table',
  ]);
  for (const key of values.keys())
    if (!known.has(key)) throw new Error(`METRICS_STORE: unknown key "${key}"`);
  const addr = values.get('addr');
  if (!addr) throw new Error('METRICS_STORE: questdb config needs addr=host:port');
  const http = new URL(`${m[1]}://${addr}`);
  if (values.has('username')) {
    http.username = values.get('username')!;
    http.password = values.get('password') ?? '';
  }
  const [pgHost, pgPort] = (values.get('pg') ?? http.hostname).split(':');
  const port = pgPort ? Number(pgPort) : 8812;
  if (!Number.isInteger(port) || port <= 0 || port > 65_535)
    throw new Error(`METRICS_STORE: bad pg port "${pgPort}"`);
  const options: QuestdbStoreOptions = {
    httpUrl: http.toString().replace(/\/$/, ''),
    pg: {
      host: pgHost || http.hostname,
      port,
      user: values.get('pg_user') ?? 'admin',
      password: values.get('pg_password') ?? 'quest',
      database: values.get('pg_database') ?? 'qdb',
    },
  };
  const table = values.get('table');
  if (table) options.table = table;
  return options;
}

/**
 * Opens the metric store named by a `METRICS_STORE` value:
 * - `questdb:http::addr=host:9000;pg=host:8812` (see {@link parseQuestdbConfig}) -> QuestDB;
 * - `sqlite:<path>` or a bare file path -> SQLite (the embedded default).
 */
export async function createMetricStore(config: string): Promise<MetricStore> {
  const value = config.trim();
  if (value.startsWith('questdb:')) return createQuestdbStore(parseQuestdbConfig(value));
  const path = value.startsWith('sqlite:') ? value.slice('sqlite:'.length) : value;
  if (!path) throw new Error('METRICS_STORE: expected a SQLite file path');
  mkdirSync(dirname(path), { recursive: true });
  return createSqliteStore({ path });
}

/**
 * Checks a `METRICS_STORE` value without opening anything, for the config schemas: the problem
 * (without the variable name) or null when the value is usable.
 */
export function metricsStoreProblem(config: string): string | null {
  const value = config.trim();
  if (!value.startsWith('questdb:')) {
    const path = value.startsWith('sqlite:') ? value.slice('sqlite:'.length) : value;
    return path ? null : 'expected a SQLite file path or questdb:http::addr=host:9000;pg=host:8812';
  }
  try {
    parseQuestdbConfig(value);
    return null;
  } catch (err) {
    return (err as Error).message.replace(/^METRICS_STORE: /, '');
  }
}
