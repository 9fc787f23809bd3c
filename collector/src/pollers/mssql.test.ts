import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import { createServer as createTlsServer, connect as tlsConnect } from 'node:tls';
import { MssqlPollerConfig, POLLER_DEFAULT_CONFIGS } from '@flightdeck/schemas';
import sql from 'mssql';
import pino from 'pino';
import { Connection, ConnectionError as TdsConnectionError, RequestError as TdsRequestError } from 'tedious';
import { ErrorMessageToken } from 'tedious/lib/token/token';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Poller } from './contract';
import { createMssqlPoller } from './mssql';
import { classifyMssqlError, LoginErrors, MSSQL_ERRORS, mssqlDriverConfig } from './mssql-client';
import { freePort, silentServer, unansweredPort } from './testing/net';
import { selfSignedCertificate } from './testing/tls';

/**
 * The SQL Server poller's failures, through the real mssql driver (tedious) against servers of this
 * machine that are not SQL Server: a refused port, silent and unanswering ones, PostgreSQL,
 * MariaDB and an HTTP server. SQL Server's own refusals are the driver's error objects as tedious
 * builds them from the server's ERROR token.
 */

const logger = pino({ level: 'silent' });
const opened: Poller[] = [];

function config(over: Record<string, unknown> = {}): MssqlPollerConfig {
  return MssqlPollerConfig.parse({
    host: '127.0.0.1',
    port: 1433,
    user: 'flightdeck',
    password: 'x',
    connect_timeout_ms: 1500,
    query_timeout_ms: 2000,
    ...over,
  });
}

function poller(over: Record<string, unknown> = {}): Poller {
  const p = createMssqlPoller(config(over), { logger });
  opened.push(p);
  return p;
}

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await work();
  return { result, ms: performance.now() - started };
}

/** What the driver throws when connecting with `over` fails. */
async function driverError(over: Record<string, unknown>): Promise<unknown> {
  const pool = new sql.ConnectionPool(
    mssqlDriverConfig(config(over), { max: 1, idleMs: 1000, appName: 'test', logins: new LoginErrors() }),
  );
  pool.on('error', () => {});
  try {
    await pool.connect();
  } catch (err) {
    return err;
  } finally {
    await pool.close().catch(() => {});
  }
  throw new Error('the driver connected');
}

/** A tedious connection that never connects: the server's tokens are emitted on it as tedious does. */
function unconnected(): Connection {
  return new Connection({ server: '127.0.0.1', options: { port: 1 } });
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((p) => p.close()));
});

describe('SQL Server config', () => {
  it('defaults to port 1433 and the master database, and refuses a named instance in the host', () => {
    expect(POLLER_DEFAULT_CONFIGS.mssql).toMatchObject({ port: 1433, database: 'master', user: 'sa' });
    const named = MssqlPollerConfig.safeParse({ host: 'db1\\SQLEXPRESS', user: 'sa' });
    expect(named.success).toBe(false);
  });

  it('asks the driver for TLS as configured', () => {
    const logins = new LoginErrors();
    const options = (tls: Record<string, unknown>) =>
      mssqlDriverConfig(config({ tls }), { max: 2, idleMs: 2000, appName: 'a', logins }).options;
    expect(options({ enabled: false })).toMatchObject({ encrypt: false, trustServerCertificate: false });
    expect(options({ enabled: true })).toMatchObject({ encrypt: true, trustServerCertificate: false });
    expect(options({ enabled: true, reject_unauthorized: false })).toMatchObject({
      encrypt: true,
      trustServerCertificate: true,
    });
    expect(options({ enabled: true, ca: 'PEM' })).toMatchObject({ cryptoCredentialsDetails: { ca: 'PEM' } });
  });
});

describe('SQL Server poller: connection test against what is not SQL Server', () => {
  let http: Server;
  let httpPort: number;
  beforeAll(async () => {
    http = createHttpServer((_, res) => res.end('ok'));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    httpPort = (http.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => http.close(() => resolve())));

  it('gives connection_failed at once for a port nobody listens on, naming host:port', async () => {
    const port = await freePort();
    const { result, ms } = await timed(() => poller({ port }).testConnection());
    expect(result).toMatchObject({ ok: false, code: 'connection_failed' });
    if (!result.ok) expect(result.message).toContain(`127.0.0.1:${port}`);
    expect(ms).toBeLessThan(1000);
  });

  it('gives timeout within the connect time-out for a host that never answers', async () => {
    const unanswered = await unansweredPort();
    try {
      const { result, ms } = await timed(() => poller({ port: unanswered.port }).testConnection());
      expect(result).toMatchObject({ ok: false, code: 'timeout' });
      if (!result.ok) expect(result.message).toContain(`127.0.0.1:${unanswered.port}`);
      expect(ms).toBeGreaterThanOrEqual(1400);
      expect(ms).toBeLessThan(2500);
    } finally {
      await unanswered.close();
    }
  });

  it('gives timeout, not a hang, for a server that accepts and stays silent, in a poll too', async () => {
    const silent = await silentServer();
    try {
      const p = poller({ port: silent.port, connect_timeout_ms: 1000 });
      const test = await timed(() => p.testConnection());
      expect(test.result).toMatchObject({ ok: false, code: 'timeout' });
      expect(test.ms).toBeLessThan(2000);
      const poll = await timed(() => p.poll(Date.now()));
      expect(poll.result).toMatchObject({ ok: false, code: 'timeout' });
      if (!poll.result.ok) expect(poll.result.message).toContain(`127.0.0.1:${silent.port}`);
      expect(poll.ms).toBeLessThan(2500);
    } finally {
      await silent.close();
    }
  });

  it('gives wrong_engine when the port is PostgreSQL, which closes on a TDS packet', async () => {
    const result = await poller({ port: 5432 }).testConnection();
    expect(result).toMatchObject({ ok: false, code: 'wrong_engine' });
    if (!result.ok) expect(result.message).toMatch(/127\.0\.0\.1:5432 answers as a PostgreSQL server/);
  });

  it('gives wrong_engine when the port is MariaDB, naming its version', async () => {
    const result = await poller({ port: 3306 }).testConnection();
    expect(result).toMatchObject({ ok: false, code: 'wrong_engine' });
    if (!result.ok)
      expect(result.message).toMatch(/127\.0\.0\.1:3306 answers as a MySQL or MariaDB server \(.*MariaDB/);
  });

  it('gives wrong_engine when the port is an HTTP server', async () => {
    const result = await poller({ port: httpPort }).testConnection();
    expect(result).toMatchObject({ ok: false, code: 'wrong_engine' });
    if (!result.ok) expect(result.message).toContain('answers as an HTTP server (HTTP/1.1 400 Bad Request)');
  });

  it('gives connection_failed for a server that closes every connection without a word', async () => {
    const closer = createTcpServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => closer.listen(0, '127.0.0.1', resolve));
    const port = (closer.address() as { port: number }).port;
    try {
      const result = await poller({ port }).testConnection();
      expect(result).toMatchObject({ ok: false, code: 'connection_failed' });
      if (!result.ok) expect(result.message).toContain('closed the connection without answering');
    } finally {
      await new Promise<void>((resolve) => closer.close(() => resolve()));
    }
  });

  it('gives connection_failed when a poll reaches PostgreSQL instead', async () => {
    const p = poller({ port: 5432 });
    const result = await p.poll(Date.now());
    expect(result).toMatchObject({ ok: false, code: 'connection_failed' });
    if (!result.ok) expect(result.message).toContain('127.0.0.1:5432');
  });
});

describe('classifyMssqlError on the driver errors', () => {
  const cfg = config();

  it('classifies the real driver errors of a refused port and of silence', async () => {
    const refused = await driverError({ port: await freePort() });
    expect(refused).toBeInstanceOf(sql.ConnectionError);
    expect(classifyMssqlError(refused, cfg)).toMatchObject({ code: 'connection_failed' });
    const silent = await silentServer();
    try {
      const quiet = await driverError({ port: silent.port, connect_timeout_ms: 500 });
      expect((quiet as { code?: string }).code).toBe('ETIMEOUT');
      const f = classifyMssqlError(quiet, cfg);
      expect(f).toMatchObject({ code: 'timeout' });
      expect(f.message).toContain('did not respond within 1500 ms');
    } finally {
      await silent.close();
    }
  });

  it('gives auth_failed for login error 18456, its number taken from the ERROR token', () => {
    const logins = new LoginErrors();
    const message = "Login failed for user 'flightdeck'.";
    // tedious emits the server's ERROR token on the connection, then throws ELOGIN with its message.
    const tedious = unconnected();
    logins.listen(tedious);
    tedious.emit(
      'errorMessage',
      new ErrorMessageToken({
        number: MSSQL_ERRORS.LOGIN_FAILED,
        state: 8,
        class: 14,
        message,
        serverName: 'SQLPROD01',
        procName: '',
        lineNumber: 1,
      }),
    );
    const err = new sql.ConnectionError(new TdsConnectionError(message, 'ELOGIN'));
    const f = classifyMssqlError(err, cfg, logins);
    expect(f).toMatchObject({ ok: false, code: 'auth_failed' });
    expect(f.message).toBe(
      'Authentication error at 127.0.0.1:1433 for login "flightdeck": the login or the password was refused (error 18456). Check the service logs to find the cause.',
    );
  });

  it('gives not_found for a database the login cannot open (4060) and auth_failed for another ELOGIN', () => {
    const logins = new LoginErrors();
    const tedious = unconnected();
    logins.listen(tedious);
    const open = 'Cannot open database "sales" requested by the login. The login failed.';
    tedious.emit(
      'errorMessage',
      new ErrorMessageToken({
        number: MSSQL_ERRORS.CANNOT_OPEN_DATABASE,
        state: 1,
        class: 11,
        message: open,
        serverName: 'SQLPROD01',
        procName: '',
        lineNumber: 1,
      }),
    );
    const notFound = classifyMssqlError(
      new sql.ConnectionError(new TdsConnectionError(open, 'ELOGIN')),
      config({ database: 'sales' }),
      logins,
    );
    expect(notFound).toMatchObject({ code: 'not_found' });
    expect(notFound.message).toContain('Database "sales" does not exist at 127.0.0.1:1433');
    const unknown = classifyMssqlError(
      new sql.ConnectionError(new TdsConnectionError('Login failed.', 'ELOGIN')),
      cfg,
    );
    expect(unknown).toMatchObject({ code: 'auth_failed' });
  });

  it('gives auth_failed with the permission to grant for VIEW SERVER STATE (error 300)', () => {
    const tds = new TdsRequestError(
      "VIEW SERVER STATE permission was denied on object 'server', database 'master'.",
      'EREQUEST',
    );
    (tds as unknown as { info: object }).info = {
      number: MSSQL_ERRORS.VIEW_SERVER_STATE_DENIED,
      state: 1,
      class: 14,
    };
    const err = new sql.RequestError(tds);
    expect(err.number).toBe(300);
    const f = classifyMssqlError(err, cfg);
    expect(f).toMatchObject({ code: 'auth_failed' });
    expect(f.message).toContain('grant the login VIEW SERVER STATE');
  });

  it('tells a query time-out from a connect time-out', () => {
    const query = new sql.RequestError(
      new TdsRequestError('Timeout: Request failed to complete in 2000ms', 'ETIMEOUT'),
    );
    expect(classifyMssqlError(query, cfg).message).toBe(
      'A query to SQL Server at 127.0.0.1:1433 did not finish within 2000 ms. The server may be overloaded.',
    );
  });

  it('gives tls_error for a server that forces encryption while TLS is off', () => {
    const err = new sql.ConnectionError(
      new TdsConnectionError("Server requires encryption, set 'encrypt' config option to true.", 'EENCRYPT'),
    );
    const f = classifyMssqlError(err, cfg);
    expect(f).toMatchObject({ code: 'tls_error' });
    expect(f.message).toContain('turn TLS on');
  });

  it('gives tls_error for an untrusted certificate, found in the chain of causes', async () => {
    const { cert, key } = await selfSignedCertificate(1);
    const server = createTlsServer({ cert, key }, (s) => s.end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const tlsError = await new Promise<Error>((resolve) => {
        const socket = tlsConnect({ host: '127.0.0.1', port, servername: 'localhost' });
        socket.once('error', resolve);
        socket.once('secureConnect', () => resolve(new Error('trusted')));
      });
      // tedious wraps a socket error of the TLS negotiation this way (wrapSocketError).
      const wrapped = new TdsConnectionError(
        `Failed to connect to 127.0.0.1:${port} - ${tlsError.message}`,
        'ESOCKET',
        {
          cause: tlsError,
        },
      );
      const f = classifyMssqlError(new sql.ConnectionError(wrapped), config({ port }));
      expect(f).toMatchObject({ code: 'tls_error' });
      expect(f.message).toContain(`SQL Server at 127.0.0.1:${port}`);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
