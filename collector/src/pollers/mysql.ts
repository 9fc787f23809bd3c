import type { MysqlPollerConfig, PollerFailure } from '@flightdeck/schemas';
import mysql from 'mysql2/promise';
import type { Poller, PollerFactory, PollerOptions, PollResult } from './contract';
import {
  errorCode,
  errorMessage,
  failure,
  hostPort,
  isFailure,
  isProgrammerError,
  networkFailure,
  withTimeout,
} from './failure';
import { type MysqlReading, type MysqlVariables, mysqlExtras, mysqlSamples } from './mysql-metrics';
import {
  lockWaitsSql,
  processlistSql,
  readGlobalStatus,
  readLockWait,
  readProcess,
  readReplicaStatus,
  readSchemaSize,
  readTableSize,
  readVariables,
  SCHEMA_SIZES_SQL,
  TABLE_SIZES_SQL,
  VARIABLES_SQL,
} from './mysql-queries';
import { sniffEngine, wrongEngine } from './sniff';
import { SectionWarnings } from './warnings';

type Row = Record<string, unknown>;

/**
 * A connection idle this long is closed (mysql2 checks every second): well under the shortest
 * interval, so between polls a target holds no connection and a collector's open connections follow
 * its polls in flight, not its number of targets.
 */
export const MYSQL_IDLE_CONNECTION_MS = 2_000;

/**
 * The failure for an error of mysql2 or the server: refused credentials and privileges, unknown
 * database, no free connection, statement and driver time-outs, TLS refused, network errors.
 */
export function classifyMysqlError(err: unknown, config: MysqlPollerConfig): PollerFailure {
  const target = hostPort(config.host, config.port);
  const what = `MySQL at ${target}`;
  const message = errorMessage(err);
  const auth = (why: string) =>
    failure(
      'auth_failed',
      `Authentication error at ${target} for user "${config.user}": ${why}. Check the service logs to find the cause.`,
    );
  switch (errorCode(err)) {
    case 'ER_ACCESS_DENIED_ERROR':
      return auth('the user or the password was refused');
    case 'ER_DBACCESS_DENIED_ERROR':
    case 'ER_HOST_NOT_PRIVILEGED':
    case 'ER_SPECIFIC_ACCESS_DENIED_ERROR':
    case 'ER_TABLEACCESS_DENIED_ERROR':
      return auth(message);
    case 'ER_BAD_DB_ERROR':
      return failure(
        'not_found',
        `Database "${config.database}" does not exist at ${target}. Check the database name.`,
      );
    case 'ER_CON_COUNT_ERROR':
    case 'ER_TOO_MANY_USER_CONNECTIONS':
    case 'ER_HOST_IS_BLOCKED':
      return failure('connection_failed', `Failed to connect to the pool at ${target}: ${message}.`);
    case 'PROTOCOL_SEQUENCE_TIMEOUT':
    case 'ER_STATEMENT_TIMEOUT':
    case 'ER_QUERY_TIMEOUT':
      return failure(
        'timeout',
        `A query to ${what} did not finish within ${config.query_timeout_ms} ms. The server may be overloaded.`,
      );
    case 'HANDSHAKE_NO_SSL_SUPPORT':
      return failure(
        'tls_error',
        `${what} does not accept TLS connections: turn TLS off for this target, or enable TLS on the server.`,
      );
  }
  return (
    networkFailure(err, what, config.host, config.connect_timeout_ms) ??
    failure('connection_failed', `Failed to connect to the pool at ${target}: ${message}.`)
  );
}

/** How a connection to the target is opened: the config's credentials, database, TLS and connect time-out. */
export function mysqlConnectionOptions(config: MysqlPollerConfig): mysql.ConnectionOptions {
  return {
    host: config.host,
    port: config.port,
    user: config.user,
    password: config.password,
    ...(config.database ? { database: config.database } : {}),
    connectTimeout: config.connect_timeout_ms,
    enableKeepAlive: true,
    supportBigNumbers: true,
    decimalNumbers: true,
    dateStrings: true,
    ...(config.tls.enabled
      ? {
          ssl: {
            rejectUnauthorized: config.tls.reject_unauthorized,
            ...(config.tls.ca ? { ca: config.tls.ca } : {}),
          },
        }
      : {}),
  };
}

/**
 * The statements that set a session's server-side statement time-out: MariaDB's
 * max_statement_time (seconds) first, and MySQL's max_execution_time (ms, SELECT only) where
 * the first is unknown.
 */
export function mysqlStatementTimeouts(queryTimeoutMs: number): [mariadb: string, mysql: string] {
  return [
    `SET SESSION max_statement_time = ${queryTimeoutMs / 1000}`,
    `SET SESSION max_execution_time = ${queryTimeoutMs}`,
  ];
}

/**
 * Polls a MySQL or MariaDB server through a pool of at most 2 connections. Each connection has the
 * config's connect time-out and a server-side statement time-out (MariaDB max_statement_time,
 * MySQL max_execution_time); each query a driver time-out after which its connection is dropped.
 * Without the PROCESS privilege the process list holds only the poller's own threads.
 */
export const createMysqlPoller: PollerFactory<'mysql'> = (
  config: MysqlPollerConfig,
  { logger }: PollerOptions,
) => {
  const target = hostPort(config.host, config.port);
  const warnings = new SectionWarnings(logger, 'mysql', target);
  let pool: mysql.Pool | undefined;
  let previous: { at: number; reading: MysqlReading } | undefined;
  let sizesReadAt: number | undefined;
  /** Which statement shows replica status: MySQL 8.4 dropped SHOW SLAVE STATUS, old servers lack REPLICA. */
  let replicaStatement = 'SHOW REPLICA STATUS';

  function getPool(): mysql.Pool {
    if (pool) return pool;
    pool = mysql.createPool({
      ...mysqlConnectionOptions(config),
      connectionLimit: 2,
      // Below connectionLimit, or mysql2 never closes an idle connection whatever idleTimeout says.
      maxIdle: 1,
      idleTimeout: MYSQL_IDLE_CONNECTION_MS,
    });
    const [mariadbTimeout, mysqlTimeout] = mysqlStatementTimeouts(config.query_timeout_ms);
    // The core (callback) connection: set the server-side statement time-out before any query runs.
    pool.on('connection', (conn) => {
      const core = conn as unknown as {
        query(sql: string, cb: (err: Error | null) => void): void;
        on(event: 'error', listener: (err: Error) => void): void;
      };
      // A connection the server closes while idle must not crash the process.
      core.on('error', (err) =>
        logger.warn({ service: 'mysql', target, err: err.message }, 'connection lost'),
      );
      core.query(mariadbTimeout, (err) => {
        if (!err) return;
        core.query(mysqlTimeout, (err2) => {
          if (err2) warnings.warn('statement time-out', err2);
        });
      });
    });
    return pool;
  }

  async function withConnection<T>(
    work: (conn: mysql.PoolConnection) => Promise<T>,
  ): Promise<T | PollerFailure> {
    let conn: mysql.PoolConnection;
    const pending = getPool().getConnection();
    try {
      // Only waits when both connections are busy; connecting itself has connectTimeout.
      conn = await withTimeout(pending, config.connect_timeout_ms + 1000);
    } catch (err) {
      // Hand back a connection that arrives after the wait gave up; its failure was reported above.
      pending.then(
        (late) => late.release(),
        () => {},
      );
      return classifyMysqlError(err, config);
    }
    try {
      const result = await work(conn);
      conn.release();
      return result;
    } catch (err) {
      // A timed-out query may still answer later: the connection cannot be reused.
      conn.destroy();
      if (isProgrammerError(err)) throw err;
      return classifyMysqlError(err, config);
    }
  }

  async function rows(conn: mysql.PoolConnection, sql: string, values?: unknown[]): Promise<Row[]> {
    const [result] = await conn.query({ sql, timeout: config.query_timeout_ms }, values);
    return result as Row[];
  }

  async function optional<T>(section: string, read: () => Promise<T>): Promise<T | undefined> {
    try {
      const value = await read();
      warnings.clear(section);
      return value;
    } catch (err) {
      if (errorCode(err) === 'PROTOCOL_SEQUENCE_TIMEOUT') throw err;
      warnings.warn(section, err);
      return undefined;
    }
  }

  async function variables(conn: mysql.PoolConnection): Promise<MysqlVariables> {
    return readVariables((await rows(conn, VARIABLES_SQL))[0] ?? {});
  }

  async function readReplica(conn: mysql.PoolConnection) {
    try {
      const row = (await rows(conn, replicaStatement))[0];
      return row ? readReplicaStatus(row) : null;
    } catch (err) {
      if (errorCode(err) !== 'ER_PARSE_ERROR' || replicaStatement === 'SHOW SLAVE STATUS') throw err;
      replicaStatement = 'SHOW SLAVE STATUS';
      const row = (await rows(conn, replicaStatement))[0];
      return row ? readReplicaStatus(row) : null;
    }
  }

  async function read(conn: mysql.PoolConnection, now: number): Promise<MysqlReading> {
    const status = readGlobalStatus(await rows(conn, 'SHOW GLOBAL STATUS'));
    const vars = await variables(conn);
    const mariadb = /mariadb/i.test(vars.version);
    const processes = (await rows(conn, processlistSql(mariadb))).map(readProcess);
    const reading: MysqlReading = { status, variables: vars, processes };
    reading.lockWaits = await optional('lock waits', async () =>
      (await rows(conn, lockWaitsSql(vars.version))).map(readLockWait),
    );
    reading.replica = await optional('replication', () => readReplica(conn));
    if (sizesReadAt === undefined || now - sizesReadAt >= config.size_interval_s * 1000) {
      reading.sizes = await optional('sizes', async () => ({
        databases: (await rows(conn, SCHEMA_SIZES_SQL)).map(readSchemaSize),
        tables:
          config.top_tables > 0
            ? (await rows(conn, TABLE_SIZES_SQL, [config.top_tables])).map(readTableSize)
            : [],
      }));
      if (reading.sizes) sizesReadAt = now;
    }
    return reading;
  }

  const poller: Poller = {
    service: 'mysql',
    target,
    async testConnection() {
      const guess = await sniffEngine(config.host, config.port, config.connect_timeout_ms, 'MySQL', 300);
      if (isFailure(guess)) return guess;
      const wrong = wrongEngine(guess, 'mysql', target, 'MySQL or MariaDB');
      if (wrong) return wrong;
      const server = await withConnection(variables);
      if (isFailure(server)) return server;
      return {
        ok: true,
        version: server.version,
        details: {
          engine: /mariadb/i.test(server.version) ? 'MariaDB' : 'MySQL',
          version_comment: server.version_comment,
          database: config.database ?? null,
          user: config.user,
          max_connections: server.max_connections,
        },
      };
    },
    async poll(now): Promise<PollResult> {
      const reading = await withConnection((conn) => read(conn, now));
      if (isFailure(reading)) return reading;
      const prev = previous;
      previous = { at: now, reading };
      const seconds = prev ? (now - prev.at) / 1000 : 0;
      return {
        ok: true,
        samples: mysqlSamples(reading, prev?.reading, seconds, config.long_query_s),
        extras: mysqlExtras(reading, config.long_query_s),
      };
    },
    async close() {
      const p = pool;
      pool = undefined;
      previous = undefined;
      await p
        ?.end()
        .catch((err: unknown) =>
          logger.warn({ service: 'mysql', target, err: errorMessage(err) }, 'closing the pool failed'),
        );
    },
  };
  return poller;
};
