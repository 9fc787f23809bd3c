import type { MssqlPollerConfig, PollerFailure } from '@flightdeck/schemas';
import sql from 'mssql';
import { errorMessage, failure, hostPort, isFailure, networkFailure } from './failure';
import { probeTds } from './mssql-prelogin';
import { sniffEngine, wrongEngine } from './sniff';

/**
 * What the SQL Server poller and inspections share about the mssql driver (tedious underneath):
 * its config for a target, SQL Server's error numbers and the failure each error gives, and the
 * PRELOGIN check that SQL Server is what answers.
 */

/** Longest a poll's statement waits for a lock (SET LOCK_TIMEOUT), so a busy catalog never holds it. */
const LOCK_TIMEOUT_MS = 2_000;

/**
 * Error numbers of SQL Server (sys.messages) the poller and the inspector tell apart. tedious puts
 * a request's number on the error; a login's only on its connection's `errorMessage` event, which
 * {@link LoginErrors} keeps.
 */
export const MSSQL_ERRORS = {
  LOGIN_FAILED: 18456,
  UNTRUSTED_DOMAIN: 18452,
  LOGIN_DISABLED: 18470,
  LOGIN_LOCKED: 18486,
  PASSWORD_EXPIRED: 18487,
  PASSWORD_MUST_CHANGE: 18488,
  CANNOT_OPEN_DATABASE: 4060,
  CANNOT_OPEN_DEFAULT_DATABASE: 4064,
  NO_FREE_CONNECTION: 17809,
  NO_PERMISSION: 297,
  VIEW_SERVER_STATE_DENIED: 300,
  OBJECT_PERMISSION_DENIED: 229,
  DATABASE_PERMISSION_DENIED: 262,
  SERVER_PRINCIPAL_CANNOT_ACCESS: 916,
  LOCK_TIMEOUT: 1222,
} as const;

const PERMISSION_NUMBERS: ReadonlySet<number> = new Set([
  MSSQL_ERRORS.NO_PERMISSION,
  MSSQL_ERRORS.VIEW_SERVER_STATE_DENIED,
  MSSQL_ERRORS.OBJECT_PERMISSION_DENIED,
  MSSQL_ERRORS.DATABASE_PERMISSION_DENIED,
  MSSQL_ERRORS.SERVER_PRINCIPAL_CANNOT_ACCESS,
]);

/** Whether an error is SQL Server refusing a permission: an optional section then goes without it. */
export function isPermissionError(err: unknown): boolean {
  const n = (err as { number?: unknown } | null)?.number;
  return typeof n === 'number' && PERMISSION_NUMBERS.has(n);
}

/**
 * The error numbers of failed logins, by message. tedious turns a login's ERROR token into an
 * `ELOGIN` error with the message alone, after emitting the token (number included) on the
 * connection: listening there keeps the number for {@link classifyMssqlError}.
 */
export class LoginErrors {
  private readonly numbers = new Map<string, number>();

  /** For the driver's `beforeConnect`: listens to one tedious connection. */
  readonly listen = (connection: sql.Connection): void => {
    connection.on('errorMessage', (token) => {
      this.numbers.delete(token.message);
      this.numbers.set(token.message, token.number);
      // Only the latest few are ever looked up.
      if (this.numbers.size > 16) this.numbers.delete(this.numbers.keys().next().value as string);
    });
  };

  /** The number of a login error seen on a connection, if any. */
  numberOf(err: unknown): number | undefined {
    return this.numbers.get(errorMessage(err));
  }
}

/** Every error of a chain: the driver's wrapper, tedious' error, its cause, an AggregateError's errors. */
function errorChain(err: unknown): unknown[] {
  const chain: unknown[] = [];
  const visit = (e: unknown, depth: number) => {
    if (e === null || e === undefined || depth > 5 || chain.includes(e)) return;
    chain.push(e);
    const x = e as { originalError?: unknown; cause?: unknown; errors?: unknown };
    visit(x.originalError, depth + 1);
    visit(x.cause, depth + 1);
    if (Array.isArray(x.errors)) for (const inner of x.errors) visit(inner, depth + 1);
  };
  visit(err, 0);
  return chain;
}

/** The SQL Server error number of an error, from the request error or the login's token. */
function errorNumber(err: unknown, logins?: LoginErrors): number | undefined {
  for (const e of errorChain(err)) {
    const n = (e as { number?: unknown }).number;
    if (typeof n === 'number') return n;
  }
  return logins?.numberOf(err);
}

/**
 * The failure for an error of the mssql driver (tedious underneath) or of SQL Server: refused
 * logins and permissions by error number, unknown database, no free connection, connect and
 * request time-outs, TLS refused or untrusted, and network errors found anywhere in the chain.
 */
export function classifyMssqlError(
  err: unknown,
  config: MssqlPollerConfig,
  logins?: LoginErrors,
): PollerFailure {
  const target = hostPort(config.host, config.port);
  const what = `SQL Server at ${target}`;
  const message = errorMessage(err);
  const code = (err as { code?: unknown } | null)?.code;
  const auth = (why: string) =>
    failure(
      'auth_failed',
      `Authentication error at ${target} for login "${config.user}": ${why}. Check the service logs to find the cause.`,
    );
  switch (errorNumber(err, logins)) {
    case MSSQL_ERRORS.LOGIN_FAILED:
      return auth('the login or the password was refused (error 18456)');
    case MSSQL_ERRORS.UNTRUSTED_DOMAIN:
    case MSSQL_ERRORS.LOGIN_DISABLED:
    case MSSQL_ERRORS.LOGIN_LOCKED:
    case MSSQL_ERRORS.PASSWORD_EXPIRED:
    case MSSQL_ERRORS.PASSWORD_MUST_CHANGE:
    case MSSQL_ERRORS.CANNOT_OPEN_DEFAULT_DATABASE:
      return auth(message.replace(/\.$/, ''));
    case MSSQL_ERRORS.CANNOT_OPEN_DATABASE:
      return failure(
        'not_found',
        `Database "${config.database}" does not exist at ${target}, or the login "${config.user}" may not open it. Check the database name and the login's access.`,
      );
    case MSSQL_ERRORS.NO_PERMISSION:
    case MSSQL_ERRORS.VIEW_SERVER_STATE_DENIED:
      return auth(
        `${message.replace(/\.$/, '')}; grant the login VIEW SERVER STATE (VIEW SERVER PERFORMANCE STATE is enough on SQL Server 2022)`,
      );
    case MSSQL_ERRORS.OBJECT_PERMISSION_DENIED:
    case MSSQL_ERRORS.DATABASE_PERMISSION_DENIED:
    case MSSQL_ERRORS.SERVER_PRINCIPAL_CANNOT_ACCESS:
      return auth(message.replace(/\.$/, ''));
    case MSSQL_ERRORS.NO_FREE_CONNECTION:
      return failure(
        'connection_failed',
        `Failed to connect to the pool at ${target}: the instance has no free user connection (${message}).`,
      );
    case MSSQL_ERRORS.LOCK_TIMEOUT:
      return failure(
        'timeout',
        `A query to ${what} waited too long for a lock (${message}). The server may be busy.`,
      );
  }
  if (code === 'ELOGIN') return auth(message.replace(/\.$/, ''));
  if (code === 'EENCRYPT') {
    return failure(
      'tls_error',
      `${what} requires encrypted connections: turn TLS on for this target (and give its authority, or accept its certificate).`,
    );
  }
  if (code === 'ETIMEOUT') {
    return err instanceof sql.RequestError
      ? failure(
          'timeout',
          `A query to ${what} did not finish within ${config.query_timeout_ms} ms. The server may be overloaded.`,
        )
      : failure(
          'timeout',
          `${what} did not respond within ${config.connect_timeout_ms} ms. Check the host, the port and any firewall in between, then try again.`,
        );
  }
  for (const e of errorChain(err)) {
    const network = networkFailure(e, what, config.host, config.connect_timeout_ms);
    if (network) return network;
  }
  return failure('connection_failed', `Failed to connect to the pool at ${target}: ${message}.`);
}

/** The driver's config of a target: its time-outs, TLS and a pool of at most `max` connections. */
export function mssqlDriverConfig(
  config: MssqlPollerConfig,
  options: { max: number; idleMs: number; appName: string; logins: LoginErrors },
): sql.config {
  return {
    server: config.host,
    port: config.port,
    user: config.user,
    password: config.password,
    database: config.database,
    connectionTimeout: config.connect_timeout_ms,
    requestTimeout: config.query_timeout_ms,
    // One login per connection; checking the socket before reuse costs no round trip.
    validateConnection: 'socket',
    pool: {
      max: options.max,
      min: 0,
      idleTimeoutMillis: options.idleMs,
      acquireTimeoutMillis: config.connect_timeout_ms + 1_000,
    },
    options: {
      appName: options.appName,
      encrypt: config.tls.enabled,
      trustServerCertificate: config.tls.enabled && !config.tls.reject_unauthorized,
      ...(config.tls.ca ? { cryptoCredentialsDetails: { ca: config.tls.ca } } : {}),
      // A cancelled statement must let go of its connection within the connect time-out.
      cancelTimeout: config.connect_timeout_ms,
    },
    beforeConnect: options.logins.listen,
  };
}

/** Statements of a poll wait at most this long for a lock, then fail on their own. */
export function withLockTimeout(statement: string, ms = LOCK_TIMEOUT_MS): string {
  return `SET LOCK_TIMEOUT ${Math.round(ms)};\n${statement}`;
}

/**
 * Whether the PRELOGIN answer lets the test go on: SQL Server (with TLS as configured), or a
 * server the probe does not know (the driver says more). Anything else is a failure naming what
 * answers instead.
 */
export async function checkSqlServerAnswers(config: MssqlPollerConfig): Promise<PollerFailure | undefined> {
  const target = hostPort(config.host, config.port);
  const probe = await probeTds(config.host, config.port, config.connect_timeout_ms, config.tls.enabled);
  if (isFailure(probe)) return probe;
  if (probe.engine === 'mssql') {
    if (config.tls.enabled && probe.encryption === 'not_supported') {
      return failure(
        'tls_error',
        `SQL Server at ${target} does not support encryption: turn TLS off for this target, or give the instance a certificate.`,
      );
    }
    return undefined;
  }
  if (probe.engine === 'closed') {
    // PostgreSQL closes on a TDS packet without a word; its answer to an SSLRequest tells it apart.
    const guess = await sniffEngine(config.host, config.port, config.connect_timeout_ms, 'SQL Server');
    if (!isFailure(guess) && guess.engine !== 'other') {
      const wrong = wrongEngine(guess, 'other', target, 'SQL Server');
      if (wrong) return wrong;
    }
    return failure(
      'connection_failed',
      `Failed to connect to SQL Server at ${target}: the server closed the connection without answering. Check the port and the service logs.`,
    );
  }
  // The answer is not TDS: whatever it is, it is not SQL Server.
  const known = probe.engine === 'other' ? undefined : wrongEngine(probe, 'other', target, 'SQL Server');
  return (
    known ??
    failure(
      'wrong_engine',
      `${target} answers as another kind of server${probe.detail ? ` (${probe.detail})` : ''}, not SQL Server. Check the port.`,
    )
  );
}
