import type { MssqlPollerConfig, PollerFailure } from '@flightdeck/schemas';
import sql from 'mssql';
import type { Poller, PollerFactory, PollerOptions, PollResult } from './contract';
import { errorMessage, hostPort, isFailure, isProgrammerError, withTimeout } from './failure';
import {
  checkSqlServerAnswers,
  classifyMssqlError,
  LoginErrors,
  mssqlDriverConfig,
  withLockTimeout,
} from './mssql-client';
import { type MssqlReading, mssqlExtras, mssqlSamples } from './mssql-metrics';
import {
  COUNTERS_SQL,
  DATABASE_FILES_SQL,
  LOG_SPACE_SQL,
  REPLICAS_SQL,
  readCounters,
  readDatabaseFiles,
  readLogSpace,
  readReplica,
  readServer,
  readSessions,
  readTableSize,
  SERVER_SQL,
  SESSIONS_SQL,
  TABLE_SIZES_SQL,
  UPTIME_SQL,
} from './mssql-queries';
import { SectionWarnings } from './warnings';

type Row = Record<string, unknown>;

/** How the poller's sessions show in sys.dm_exec_sessions.program_name. */
export const MSSQL_APPLICATION_NAME = 'flightdeck-poller';

/**
 * A connection idle this long is closed: well under the shortest interval, so between polls a
 * target holds no connection and a collector's open connections follow its polls in flight.
 */
export const MSSQL_IDLE_CONNECTION_MS = 2_000;

/**
 * Polls a SQL Server instance through a pool of at most 2 connections. Each connection has the
 * config's connect time-out; each statement the driver's request time-out (the statement is then
 * cancelled on the server) and a lock time-out. The login needs VIEW SERVER STATE; what it may not
 * read besides (file sizes, the database's tables) is warned about and left out.
 */
export const createMssqlPoller: PollerFactory<'mssql'> = (
  config: MssqlPollerConfig,
  { logger }: PollerOptions,
) => {
  const target = hostPort(config.host, config.port);
  const warnings = new SectionWarnings(logger, 'mssql', target);
  const logins = new LoginErrors();
  let pool: sql.ConnectionPool | undefined;
  let previous: { at: number; reading: MssqlReading } | undefined;
  let sizesReadAt: number | undefined;

  let connecting: Promise<sql.ConnectionPool> | undefined;

  /** The connected pool, made on first use; a test and a poll at once share one attempt. */
  function getPool(): Promise<sql.ConnectionPool> {
    if (pool) return Promise.resolve(pool);
    connecting ??= connectPool().finally(() => {
      connecting = undefined;
    });
    return connecting;
  }

  async function connectPool(): Promise<sql.ConnectionPool> {
    const created = new sql.ConnectionPool(
      mssqlDriverConfig(config, {
        max: 2,
        idleMs: MSSQL_IDLE_CONNECTION_MS,
        appName: MSSQL_APPLICATION_NAME,
        logins,
      }),
    );
    // A connection that fails after it was made (the server restarts) must not crash the process.
    created.on('error', (err: unknown) =>
      logger.warn({ service: 'mssql', target, err: errorMessage(err) }, 'connection error'),
    );
    try {
      // connect() logs in once to check the settings, then keeps a pool that connects on demand.
      await withTimeout(created.connect(), config.connect_timeout_ms + 1_000);
    } catch (err) {
      created
        .close()
        .catch((closeErr: unknown) =>
          logger.warn({ service: 'mssql', target, err: errorMessage(closeErr) }, 'closing the pool failed'),
        );
      throw err;
    }
    pool = created;
    return created;
  }

  async function rows(statement: string, inputs: Record<string, number> = {}): Promise<Row[]> {
    const request = (await getPool()).request();
    for (const [name, value] of Object.entries(inputs)) request.input(name, sql.Int, value);
    // The driver cancels a statement at requestTimeout; this only guarantees the answer comes.
    const result = await withTimeout(
      request.query(withLockTimeout(statement)),
      config.query_timeout_ms + config.connect_timeout_ms,
    );
    return (result.recordset ?? []) as Row[];
  }

  async function optional<T>(section: string, read: () => Promise<T>): Promise<T | undefined> {
    try {
      const value = await read();
      warnings.clear(section);
      return value;
    } catch (err) {
      // A target that stopped answering fails the whole poll; a refused or failed section does not.
      if (!(err instanceof sql.RequestError) || (err as { code?: unknown }).code === 'ETIMEOUT') throw err;
      warnings.warn(section, err);
      return undefined;
    }
  }

  async function read(now: number): Promise<MssqlReading> {
    const server = readServer((await rows(SERVER_SQL))[0] ?? {});
    const uptime = (await rows(UPTIME_SQL))[0]?.uptime_s;
    const reading: MssqlReading = {
      server,
      uptime_s: typeof uptime === 'number' ? uptime : null,
      counters: readCounters(await rows(COUNTERS_SQL)),
      sessions: readSessions(await rows(SESSIONS_SQL)),
    };
    reading.logSpace = await optional('log space', async () => (await rows(LOG_SPACE_SQL)).map(readLogSpace));
    reading.replicas = server.hadr_enabled
      ? await optional('availability groups', async () => (await rows(REPLICAS_SQL)).map(readReplica))
      : null;
    if (sizesReadAt === undefined || now - sizesReadAt >= config.size_interval_s * 1000) {
      reading.files = await optional('database sizes', async () =>
        (await rows(DATABASE_FILES_SQL)).map(readDatabaseFiles),
      );
      if (config.top_tables > 0) {
        reading.tables = await optional('table sizes', async () =>
          (await rows(TABLE_SIZES_SQL, { top: config.top_tables })).map(readTableSize),
        );
      }
      if (reading.files) sizesReadAt = now;
    }
    return reading;
  }

  async function attempt<T>(work: () => Promise<T>): Promise<T | PollerFailure> {
    try {
      return await work();
    } catch (err) {
      if (isProgrammerError(err)) throw err;
      return classifyMssqlError(err, config, logins);
    }
  }

  const poller: Poller = {
    service: 'mssql',
    target,
    async testConnection() {
      const refused = await checkSqlServerAnswers(config);
      if (refused) return refused;
      const server = await attempt(async () => readServer((await rows(SERVER_SQL))[0] ?? {}));
      if (isFailure(server)) return server;
      return {
        ok: true,
        version: server.version,
        details: {
          engine: 'SQL Server',
          product_version: server.product_version,
          product_level: server.product_level,
          update_level: server.product_update_level,
          edition: server.edition,
          server_name: server.server_name,
          database: server.database,
          user: config.user,
          max_connections: server.max_connections,
          always_on: server.hadr_enabled,
        },
      };
    },
    async poll(now): Promise<PollResult> {
      const reading = await attempt(() => read(now));
      if (isFailure(reading)) return reading;
      const prev = previous;
      previous = { at: now, reading };
      const seconds = prev ? (now - prev.at) / 1000 : 0;
      return {
        ok: true,
        samples: mssqlSamples(reading, prev?.reading, seconds, config.long_query_s),
        extras: mssqlExtras(reading, config.long_query_s),
      };
    },
    async close() {
      // A pool still connecting is closed once it is made.
      const p = pool ?? (await connecting?.catch(() => undefined));
      pool = undefined;
      previous = undefined;
      await p
        ?.close()
        .catch((err: unknown) =>
          logger.warn({ service: 'mssql', target, err: errorMessage(err) }, 'closing the pool failed'),
        );
    },
  };
  return poller;
};
