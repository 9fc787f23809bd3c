import type { PollerFailure, PostgresPollerConfig } from '@flightdeck/schemas';
import pg from 'pg';
import type { Poller, PollerFactory, PollerOptions, PollResult } from './contract';
import {
  errorCode,
  errorMessage,
  failure,
  hostPort,
  isFailure,
  isProgrammerError,
  networkFailure,
} from './failure';
import { type PgReading, pgExtras, pgSamples } from './postgres-metrics';
import {
  activitySql,
  bgwriterSql,
  DATABASE_SIZES_SQL,
  DATABASES_SQL,
  REPLICAS_SQL,
  readActivity,
  readBgwriter,
  readDatabase,
  readDatabaseSize,
  readReplica,
  readServer,
  readStandby,
  readTableSize,
  readWal,
  SERVER_SQL,
  standbySql,
  TABLE_SIZES_SQL,
  walSql,
} from './postgres-queries';
import { sniffEngine, wrongEngine } from './sniff';
import { SectionWarnings } from './warnings';

/** How the poller's sessions show in pg_stat_activity. */
export const PG_APPLICATION_NAME = 'flightdeck-poller';

/**
 * A connection idle this long is closed: well under the shortest interval, so between polls a
 * target holds no connection and a collector's open connections follow its polls in flight, not
 * its number of targets (many targets may live on one server with a small max_connections).
 */
export const PG_IDLE_CONNECTION_MS = 2_000;

/**
 * The failure for an error of the pg driver or the server: SQLSTATE classes 28 (authentication),
 * 3D000 (no such database), 53300 (no free connection slot), 57014 (statement time-out); the
 * driver's own time-outs; TLS refused; and the network errors of {@link networkFailure}.
 */
export function classifyPgError(err: unknown, config: PostgresPollerConfig): PollerFailure {
  const target = hostPort(config.host, config.port);
  const what = `PostgreSQL at ${target}`;
  const code = errorCode(err);
  const message = errorMessage(err);
  const auth = (why: string) =>
    failure(
      'auth_failed',
      `Authentication error at ${target} for user "${config.user}": ${why}. Check the service logs to find the cause.`,
    );
  switch (code) {
    case '28P01':
      return auth('the password was refused');
    case '28000':
      return auth(`${message}; check that pg_hba.conf lets this user connect from the collector's address`);
    case '42501':
      return auth(`${message}; grant the user the pg_monitor role`);
    case '3D000':
      return failure(
        'not_found',
        `Database "${config.database}" does not exist at ${target}. Check the database name.`,
      );
    case '53300':
    case '53400':
      return failure(
        'connection_failed',
        `Failed to connect to the pool at ${target}: the server has no free connection slot (${message}).`,
      );
    case '57P03':
      return failure('connection_failed', `Failed to connect to the pool at ${target}: ${message}.`);
    case '57014':
    case '55P03':
      return failure(
        'timeout',
        `A query to ${what} did not finish within ${config.query_timeout_ms} ms (${message}). The server may be overloaded.`,
      );
  }
  const network = networkFailure(err, what, config.host, config.connect_timeout_ms);
  if (network) return network;
  if (/timeout exceeded when trying to connect|connection timeout|timeout expired/i.test(message)) {
    return failure(
      'timeout',
      `${what} did not respond within ${config.connect_timeout_ms} ms. Check the host, the port and any firewall in between, then try again.`,
    );
  }
  if (/Query read timeout/i.test(message)) {
    return failure('timeout', `A query to ${what} did not finish within ${config.query_timeout_ms} ms.`);
  }
  if (/does not support SSL/i.test(message)) {
    return failure(
      'tls_error',
      `${what} does not accept TLS connections: turn TLS off for this target, or enable ssl on the server.`,
    );
  }
  if (/password|SASL|SCRAM/i.test(message)) return auth(message);
  return failure('connection_failed', `Failed to connect to the pool at ${target}: ${message}.`);
}

/**
 * How a connection to the target is opened: the config's credentials, TLS and connect time-out;
 * every statement the server's statement_timeout and the driver's query_timeout, and locks a
 * lock_timeout. `over` changes the database (a table of another database) or the application name.
 */
export function pgClientConfig(
  config: PostgresPollerConfig,
  over: { database?: string; application_name?: string; options?: string } = {},
): pg.ClientConfig {
  return {
    host: config.host,
    port: config.port,
    user: config.user,
    password: config.password,
    database: over.database ?? config.database,
    connectionTimeoutMillis: config.connect_timeout_ms,
    statement_timeout: config.query_timeout_ms,
    query_timeout: config.query_timeout_ms + 1000,
    lock_timeout: Math.min(config.query_timeout_ms, 2000),
    application_name: over.application_name ?? PG_APPLICATION_NAME,
    ...(over.options ? { options: over.options } : {}),
    keepAlive: true,
    ssl: config.tls.enabled
      ? {
          rejectUnauthorized: config.tls.reject_unauthorized,
          ...(config.tls.ca ? { ca: config.tls.ca } : {}),
        }
      : false,
  };
}

/**
 * Polls a PostgreSQL server through a pool of at most 2 connections. Every connection has the
 * config's connect time-out; every statement the server's statement_timeout and the driver's
 * query_timeout, and locks a lock_timeout, so a poll never waits on a busy table for long.
 */
export const createPostgresPoller: PollerFactory<'postgresql'> = (
  config: PostgresPollerConfig,
  { logger }: PollerOptions,
) => {
  const target = hostPort(config.host, config.port);
  const warnings = new SectionWarnings(logger, 'postgresql', target);
  let pool: pg.Pool | undefined;
  let previous: { at: number; reading: PgReading } | undefined;
  let sizesReadAt: number | undefined;

  function getPool(): pg.Pool {
    if (pool) return pool;
    pool = new pg.Pool({
      ...pgClientConfig(config),
      max: 2,
      idleTimeoutMillis: PG_IDLE_CONNECTION_MS,
      allowExitOnIdle: true,
    });
    // An idle connection the server closes (restart, idle time-out) must not crash the process.
    pool.on('error', (err) =>
      logger.warn({ service: 'postgresql', target, err: err.message }, 'idle connection lost'),
    );
    return pool;
  }

  async function rows(
    client: pg.PoolClient,
    sql: string,
    params?: unknown[],
  ): Promise<Record<string, unknown>[]> {
    return (await client.query(sql, params)).rows as Record<string, unknown>[];
  }

  /** An optional section: on error, a warning naming the target, and the poll goes on without it. */
  async function optional<T>(section: string, read: () => Promise<T>): Promise<T | undefined> {
    try {
      const value = await read();
      warnings.clear(section);
      return value;
    } catch (err) {
      warnings.warn(section, err);
      return undefined;
    }
  }

  async function read(client: pg.PoolClient, now: number): Promise<PgReading> {
    const serverRow = (await rows(client, SERVER_SQL))[0];
    if (!serverRow) throw new Error('the server answered no row to SELECT current_setting(...)');
    const server = readServer(serverRow);
    const databases = (await rows(client, DATABASES_SQL)).map(readDatabase);
    const activity = (await rows(client, activitySql(server.version_num))).map(readActivity);
    const reading: PgReading = { server, databases, activity };
    reading.bgwriter = await optional('bgwriter', async () => {
      const row = (await rows(client, bgwriterSql(server.version_num)))[0];
      return row ? readBgwriter(row) : undefined;
    });
    const wal = walSql(server.version_num, server.in_recovery);
    if (wal) {
      reading.wal = await optional('wal', async () => {
        const row = (await rows(client, wal))[0];
        return row ? readWal(row) : undefined;
      });
    }
    if (server.in_recovery) {
      reading.standby = await optional('replication', async () => {
        const row = (await rows(client, standbySql(server.version_num)))[0];
        return row ? readStandby(row) : undefined;
      });
    } else {
      reading.replicas = await optional('replication', async () =>
        (await rows(client, REPLICAS_SQL)).map(readReplica),
      );
    }
    if (sizesReadAt === undefined || now - sizesReadAt >= config.size_interval_s * 1000) {
      reading.sizes = await optional('sizes', async () => ({
        databases: (await rows(client, DATABASE_SIZES_SQL)).map(readDatabaseSize),
        tables:
          config.top_tables > 0
            ? (await rows(client, TABLE_SIZES_SQL, [config.top_tables])).map(readTableSize)
            : [],
      }));
      if (reading.sizes) sizesReadAt = now;
    }
    return reading;
  }

  /** Runs `work` on a pooled connection; a connection that failed is discarded, not reused. */
  async function withClient<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T | PollerFailure> {
    let client: pg.PoolClient;
    try {
      client = await getPool().connect();
    } catch (err) {
      return classifyPgError(err, config);
    }
    let broken: Error | undefined;
    // The pool listens for errors on idle clients only: a socket cut while this one is checked out
    // would be an unhandled 'error' event and end the process. The query in flight fails with it.
    const onError = (err: Error) => {
      broken = err;
      logger.warn({ service: 'postgresql', target, err: err.message }, 'connection lost during a poll');
    };
    client.on('error', onError);
    try {
      return await work(client);
    } catch (err) {
      broken = err instanceof Error ? err : new Error(String(err));
      if (isProgrammerError(err)) throw err;
      return classifyPgError(err, config);
    } finally {
      client.off('error', onError);
      client.release(broken);
    }
  }

  const poller: Poller = {
    service: 'postgresql',
    target,
    async testConnection() {
      const guess = await sniffEngine(config.host, config.port, config.connect_timeout_ms, 'PostgreSQL');
      if (isFailure(guess)) return guess;
      const wrong = wrongEngine(guess, 'postgresql', target, 'PostgreSQL');
      if (wrong) return wrong;
      const result = await withClient(async (client) =>
        readServer((await rows(client, SERVER_SQL))[0] ?? {}),
      );
      if (isFailure(result)) return result;
      return {
        ok: true,
        version: result.version,
        details: {
          engine: 'PostgreSQL',
          database: config.database,
          user: config.user,
          role: result.in_recovery ? 'replica' : 'primary',
          max_connections: result.max_connections,
          uptime_s: Math.round(result.uptime_s),
        },
      };
    },
    async poll(now): Promise<PollResult> {
      const reading = await withClient((client) => read(client, now));
      if (isFailure(reading)) return reading;
      const prev = previous;
      previous = { at: now, reading };
      const seconds = prev ? (now - prev.at) / 1000 : 0;
      return {
        ok: true,
        samples: pgSamples(reading, prev?.reading, seconds, config.long_query_s),
        extras: pgExtras(reading, config.long_query_s),
      };
    },
    async close() {
      const p = pool;
      pool = undefined;
      previous = undefined;
      await p
        ?.end()
        .catch((err: unknown) =>
          logger.warn({ service: 'postgresql', target, err: errorMessage(err) }, 'closing the pool failed'),
        );
    },
  };
  return poller;
};
