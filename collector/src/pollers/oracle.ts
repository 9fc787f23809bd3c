import type { OraclePollerConfig, PollerFailure } from '@flightdeck/schemas';
import oracledb, { type Connection } from 'oracledb';
import type { Poller, PollerFactory, PollerOptions, PollResult } from './contract';
import {
  errorCode,
  errorMessage,
  failure,
  hostPort,
  isFailure,
  isProgrammerError,
  networkFailure,
  TimeoutError,
  withTimeout,
} from './failure';
import { isStandby, type OracleReading, oracleExtras, oracleSamples } from './oracle-metrics';
import {
  COUNTS_SQL,
  DATABASE_SQL,
  DATAGUARD_SQL,
  INSTANCE_SQL,
  INSTANCE_SQL_12C,
  MEMORY_SQL,
  PARAMETERS_SQL,
  readCounts,
  readDatabase,
  readDataguard,
  readInstance,
  readLimits,
  readMemory,
  readSchemaSize,
  readSession,
  readStandby,
  readSysstat,
  readTableSize,
  readTablespace,
  readWaitClasses,
  SCHEMA_SIZES_SQL,
  SESSIONS_SQL,
  STANDBYS_SQL,
  SYSSTAT_SQL,
  TABLE_SIZES_SQL,
  TABLESPACES_SQL,
  WAIT_CLASSES_SQL,
} from './oracle-queries';
import { sniffEngine, wrongEngine } from './sniff';
import { SectionWarnings } from './warnings';

type Row = Record<string, unknown>;

/** How the poller's sessions show in V$SESSION.MODULE. */
export const ORACLE_MODULE = 'flightdeck-poller';

/** Longest wait for a connection's logoff: a server that stopped answering must not hold a poll. */
const CLOSE_TIMEOUT_MS = 2_000;

/**
 * The connect descriptor of a target. A descriptor rather than an Easy Connect string, so a
 * service name or a SID of any spelling the schema allows reads the same, and TLS is a protocol.
 */
export function oracleConnectString(config: OraclePollerConfig): string {
  const protocol = config.tls.enabled ? 'TCPS' : 'TCP';
  const data = config.service_name ? `(SERVICE_NAME=${config.service_name})` : `(SID=${config.sid})`;
  return `(DESCRIPTION=(ADDRESS=(PROTOCOL=${protocol})(HOST=${config.host})(PORT=${config.port}))(CONNECT_DATA=${data}))`;
}

/** The ORA- and NJS- codes of an error: its own and those the driver put in its message. */
export function oracleErrorCodes(err: unknown): string[] {
  const codes = new Set<string>();
  const code = errorCode(err);
  if (code) codes.add(code);
  for (const m of errorMessage(err).matchAll(/\b(?:ORA-\d{5}|NJS-\d{3})\b/g)) codes.add(m[0]);
  return [...codes];
}

/** The driver's message without its connection id and help link, on one line. */
function driverDetail(err: unknown): string {
  return errorMessage(err)
    .split('\n')
    .filter((line) => !line.startsWith('Help: '))
    .join(' ')
    .replace(/\s*\(CONNECTION_ID=[^)]*\)/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\.$/, '');
}

/** The socket errors {@link networkFailure} knows, as the driver quotes them in NJS-503. */
const SOCKET_CODE =
  /\b(ECONNREFUSED|ECONNRESET|EPIPE|ENOTFOUND|EAI_AGAIN|EAI_NONAME|EHOSTUNREACH|ENETUNREACH|EADDRNOTAVAIL|ETIMEDOUT)\b/;

/** A call that outlived the query time-out without the driver ending it. */
export class QueryTimeoutError extends Error {
  readonly code = 'FD_QUERY_TIMEOUT';
  constructor(readonly ms: number) {
    super(`no answer to a query within ${ms} ms`);
    this.name = 'QueryTimeoutError';
  }
}

/** Codes of the driver when the server answered something that is not Oracle Net, or hung up. */
const NOT_ORACLE_NET = ['NJS-500', 'NJS-501', 'NJS-509', 'NJS-521', 'NJS-102', 'NJS-103'];

/**
 * The failure for an error of node-oracledb or the database: refused credentials and missing
 * privileges, an unknown service or SID, no free session or process, a database that is not open,
 * the driver's connect and call time-outs, TLS, and the network errors of {@link networkFailure}.
 */
export function classifyOracleError(err: unknown, config: OraclePollerConfig): PollerFailure {
  const target = hostPort(config.host, config.port);
  const what = `Oracle at ${target}`;
  const codes = oracleErrorCodes(err);
  const has = (...wanted: string[]) => wanted.some((c) => codes.includes(c));
  const detail = driverDetail(err);
  const auth = (why: string) =>
    failure(
      'auth_failed',
      `Authentication error at ${target} for user "${config.user}": ${why}. Check the service logs to find the cause.`,
    );
  if (has('ORA-01017')) return auth('the user or the password was refused');
  if (has('ORA-28000')) return auth('the account is locked');
  if (has('ORA-28001')) return auth('the password has expired');
  if (has('ORA-01045')) return auth('the user lacks the CREATE SESSION privilege');
  if (has('ORA-00942', 'ORA-01031')) {
    return auth(`${detail}; grant the user SELECT_CATALOG_ROLE so it can read the V$ and DBA_ views`);
  }
  if (has('NJS-518', 'ORA-12514')) {
    return failure(
      'not_found',
      `Service "${config.service_name}" is not registered with the listener at ${target}. Check the service name (lsnrctl services lists them).`,
    );
  }
  if (has('NJS-519', 'ORA-12505')) {
    return failure(
      'not_found',
      `SID "${config.sid}" is not registered with the listener at ${target}. Check the SID, or connect with a service name.`,
    );
  }
  if (has('NJS-530')) {
    return failure(
      'not_found',
      `The host name "${config.host}" could not be resolved. Check the host of ${what}.`,
    );
  }
  if (has('ORA-12516', 'ORA-12519', 'ORA-12520', 'ORA-00018', 'ORA-00020')) {
    return failure(
      'connection_failed',
      `Failed to connect to the pool at ${target}: the database has no free session or process (${detail}).`,
    );
  }
  if (has('ORA-01033', 'ORA-01034', 'ORA-01109', 'ORA-12526', 'ORA-12527', 'ORA-12528')) {
    return failure(
      'connection_failed',
      `Failed to connect to the pool at ${target}: the database is not open to connections (${detail}).`,
    );
  }
  if (has('NJS-510')) {
    return failure(
      'timeout',
      `${what} did not respond within ${config.connect_timeout_ms} ms. Check the host, the port and any firewall in between, then try again.`,
    );
  }
  if (has('NJS-123', 'ORA-01013', 'FD_QUERY_TIMEOUT')) {
    return failure(
      'timeout',
      `A query to ${what} did not finish within ${config.query_timeout_ms} ms. The database may be overloaded.`,
    );
  }
  if (has('NJS-505', 'NJS-506', 'NJS-507', 'NJS-508')) {
    return failure('tls_error', `The TLS connection to ${what} failed: ${detail}.`);
  }
  // NJS-503 carries the socket's error in its message: "connect ECONNREFUSED 127.0.0.1:1521".
  const socketCode = SOCKET_CODE.exec(errorMessage(err))?.[1];
  const network =
    networkFailure(err, what, config.host, config.connect_timeout_ms) ??
    (socketCode
      ? networkFailure({ code: socketCode }, what, config.host, config.connect_timeout_ms)
      : undefined);
  if (network) return network;
  if (has(...NOT_ORACLE_NET)) {
    return failure(
      'connection_failed',
      `Failed to connect to ${what}: the server closed the connection without an Oracle Net answer (${detail}). Check the port and the listener logs; if the listener uses TCPS, turn TLS on.`,
    );
  }
  return failure('connection_failed', `Failed to connect to the pool at ${target}: ${detail}.`);
}

/**
 * Polls an Oracle Database with node-oracledb in Thin mode (pure JavaScript, no Oracle Client). Each
 * poll opens one connection and closes it at the end, so between polls a target holds no session.
 * Connecting has the config's connect time-out; every round trip the call time-out (the driver
 * sends a break when it passes). Sections a user may not read (DBA_ views, Data Guard) are warned
 * about and left out.
 */
export const createOraclePoller: PollerFactory<'oracle'> = (
  config: OraclePollerConfig,
  { logger }: PollerOptions,
) => {
  const target = hostPort(config.host, config.port);
  const warnings = new SectionWarnings(logger, 'oracle', target);
  const closing = new Set<Promise<void>>();
  let previous: { at: number; reading: OracleReading } | undefined;
  let sizesReadAt: number | undefined;
  /** 12c has no V$INSTANCE.VERSION_FULL: the first ORA-00904 switches to VERSION for good. */
  let instanceSql = INSTANCE_SQL;

  function close(conn: Connection): void {
    const done: Promise<void> = withTimeout(conn.close(), CLOSE_TIMEOUT_MS)
      .catch((err: unknown) =>
        logger.warn({ service: 'oracle', target, err: errorMessage(err) }, 'closing the connection failed'),
      )
      .finally(() => closing.delete(done));
    closing.add(done);
  }

  /** Opens a connection; throws the driver's error, or a TimeoutError once the connect time-out passed. */
  async function connect(): Promise<Connection> {
    const seconds = Math.max(1, Math.ceil(config.connect_timeout_ms / 1000));
    const pending = oracledb.getConnection({
      user: config.user,
      password: config.password,
      connectString: oracleConnectString(config),
      connectTimeout: seconds,
      transportConnectTimeout: seconds,
      stmtCacheSize: 0,
    });
    try {
      // The driver counts whole seconds; this answers on time when the setting has a fraction.
      const conn = await withTimeout(pending, config.connect_timeout_ms);
      conn.callTimeout = config.query_timeout_ms;
      conn.module = ORACLE_MODULE;
      return conn;
    } catch (err) {
      // A connection that opens after the wait gave up is closed; the caller reports the time-out.
      pending.then(close, () => {});
      throw err;
    }
  }

  /** Runs `work` on a new connection, closed once it is done; throws what the driver threw. */
  async function session<T>(work: (conn: Connection) => Promise<T>): Promise<T> {
    const conn = await connect();
    try {
      return await work(conn);
    } finally {
      close(conn);
    }
  }

  /** {@link session}, with errors turned into failures. */
  async function withConnection<T>(work: (conn: Connection) => Promise<T>): Promise<T | PollerFailure> {
    try {
      return await session(work);
    } catch (err) {
      if (isProgrammerError(err)) throw err;
      return classifyOracleError(err, config);
    }
  }

  async function rows(conn: Connection, sql: string, binds: Record<string, unknown> = {}) {
    // callTimeout ends a round trip the server does not answer; this bounds the whole call.
    const limit = config.query_timeout_ms + 1000;
    try {
      const result = await withTimeout(
        conn.execute<Row>(sql, binds, { outFormat: oracledb.OUT_FORMAT_OBJECT }),
        limit,
      );
      return result.rows ?? [];
    } catch (err) {
      throw err instanceof TimeoutError ? new QueryTimeoutError(limit) : err;
    }
  }

  async function one(conn: Connection, sql: string): Promise<Row> {
    const row = (await rows(conn, sql))[0];
    if (!row) throw new Error(`the database answered no row to ${sql.split('\n')[0]}`);
    return row;
  }

  async function optional<T>(section: string, read: () => Promise<T>): Promise<T | undefined> {
    try {
      const value = await read();
      warnings.clear(section);
      return value;
    } catch (err) {
      if (isProgrammerError(err)) throw err;
      warnings.warn(section, err);
      return undefined;
    }
  }

  async function server(conn: Connection) {
    let instanceRow: Row;
    try {
      instanceRow = await one(conn, instanceSql);
    } catch (err) {
      if (!oracleErrorCodes(err).includes('ORA-00904') || instanceSql === INSTANCE_SQL_12C) throw err;
      instanceSql = INSTANCE_SQL_12C;
      instanceRow = await one(conn, instanceSql);
    }
    return {
      instance: readInstance(instanceRow),
      database: readDatabase(await one(conn, DATABASE_SQL)),
      limits: readLimits(await rows(conn, PARAMETERS_SQL)),
    };
  }

  async function read(conn: Connection, now: number): Promise<OracleReading> {
    const reading: OracleReading = {
      ...(await server(conn)),
      counts: readCounts(await one(conn, COUNTS_SQL)),
      stats: readSysstat(await rows(conn, SYSSTAT_SQL)),
      sessions: (await rows(conn, SESSIONS_SQL)).map(readSession),
    };
    reading.waits = await optional('wait classes', async () =>
      readWaitClasses(await rows(conn, WAIT_CLASSES_SQL)),
    );
    reading.memory = await optional('memory', async () => readMemory(await one(conn, MEMORY_SQL)));
    if (isStandby(reading.database)) {
      reading.dataguard = await optional('replication', async () =>
        readDataguard(await rows(conn, DATAGUARD_SQL)),
      );
    } else {
      reading.standbys = await optional('replication', async () =>
        (await rows(conn, STANDBYS_SQL)).map(readStandby),
      );
    }
    if (sizesReadAt === undefined || now - sizesReadAt >= config.size_interval_s * 1000) {
      reading.tablespaces = await optional('tablespaces', async () =>
        (await rows(conn, TABLESPACES_SQL)).map(readTablespace),
      );
      const database = reading.instance.container ?? reading.database.name;
      reading.sizes = await optional('sizes', async () => ({
        schemas: (await rows(conn, SCHEMA_SIZES_SQL)).map(readSchemaSize),
        tables:
          config.top_tables > 0
            ? (await rows(conn, TABLE_SIZES_SQL, { top_tables: config.top_tables })).map((r) =>
                readTableSize(r, database),
              )
            : [],
      }));
      if (reading.tablespaces || reading.sizes) sizesReadAt = now;
    }
    return reading;
  }

  /**
   * After the driver failed in a way a server of another kind causes (it hung up, or answered
   * something that is not Oracle Net), what listens on the port, if the sniffer can tell.
   */
  async function otherEngine(failed: PollerFailure): Promise<PollerFailure> {
    const guess = await sniffEngine(config.host, config.port, config.connect_timeout_ms, 'Oracle', 300);
    if (isFailure(guess)) return failed;
    // The sniffer has no Oracle kind: anything it names is not Oracle, and "other" says nothing more.
    return wrongEngine(guess, 'other', target, 'an Oracle listener') ?? failed;
  }

  const poller: Poller = {
    service: 'oracle',
    target,
    async testConnection() {
      let facts: Awaited<ReturnType<typeof server>>;
      try {
        facts = await session(server);
      } catch (err) {
        if (isProgrammerError(err)) throw err;
        const failed = classifyOracleError(err, config);
        const hungUp = oracleErrorCodes(err).some((c) => NOT_ORACLE_NET.includes(c));
        return hungUp && !config.tls.enabled ? otherEngine(failed) : failed;
      }
      const { instance, database, limits } = facts;
      return {
        ok: true,
        version: instance.version,
        details: {
          engine: 'Oracle Database',
          instance: instance.instance_name,
          database: database.name,
          container: instance.container,
          user: config.user,
          role: database.role,
          open_mode: database.open_mode,
          sessions_limit: limits.sessions_limit,
          uptime_s: instance.uptime_s,
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
        samples: oracleSamples(reading, prev?.reading, seconds, config.long_query_s),
        extras: oracleExtras(reading, config.long_query_s),
      };
    },
    async close() {
      previous = undefined;
      await Promise.all([...closing]);
    },
  };
  return poller;
};
