import { createRequire } from 'node:module';
import { createServer, type Server } from 'node:tls';
import { OraclePollerConfig } from '@flightdeck/schemas';
import oracledb from 'oracledb';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { Poller, PollResult } from './contract';
import { TimeoutError } from './failure';
import {
  classifyOracleError,
  createOraclePoller,
  oracleConnectString,
  oracleErrorCodes,
  QueryTimeoutError,
} from './oracle';
import { freePort, silentServer, unansweredPort } from './testing/net';
import { selfSignedCertificate } from './testing/tls';

/**
 * The Oracle poller with the real node-oracledb driver (Thin mode) against what this machine has:
 * a port nobody listens on, servers that stay silent, the local PostgreSQL server, a TLS server.
 * What only an Oracle server can answer is in oracle.container.test.ts.
 */

const logger = pino({ level: 'silent' });
const opened: Poller[] = [];

function config(over: Record<string, unknown> = {}) {
  return OraclePollerConfig.parse({
    host: '127.0.0.1',
    user: 'monitor',
    password: 'secret',
    service_name: 'FREEPDB1',
    connect_timeout_ms: 1500,
    query_timeout_ms: 3000,
    ...over,
  });
}

function poller(over: Record<string, unknown> = {}): Poller {
  const p = createOraclePoller(config(over), { logger });
  opened.push(p);
  return p;
}

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await work();
  return { result, ms: performance.now() - started };
}

function failed(result: PollResult | Awaited<ReturnType<Poller['testConnection']>>) {
  if (result.ok) throw new Error('expected a failure');
  return result;
}

async function tlsServer(): Promise<{ port: number; close(): Promise<void> }> {
  const { cert, key } = await selfSignedCertificate(1);
  const server: Server = createServer({ cert, key }, (socket) => socket.on('error', () => {}));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((p) => p.close()));
});

describe('Oracle poller: failures with the real driver', () => {
  it('runs the driver in Thin mode: no Oracle Client libraries needed', () => {
    expect(oracledb.thin).toBe(true);
  });

  it('gives connection_failed at once for a port nobody listens on, in a poll too', async () => {
    const port = await freePort();
    const p = poller({ port });
    const { result, ms } = await timed(() => p.testConnection());
    const f = failed(result);
    expect(f.code).toBe('connection_failed');
    expect(f.message).toContain(`127.0.0.1:${port}`);
    expect(f.message).toContain('refused');
    expect(ms).toBeLessThan(1000);
    expect(failed(await p.poll(Date.now())).code).toBe('connection_failed');
  });

  it('gives timeout within the connect time-out for a server that accepts and stays silent', async () => {
    const silent = await silentServer();
    try {
      const p = poller({ port: silent.port, connect_timeout_ms: 1000 });
      const test = await timed(() => p.testConnection());
      expect(failed(test.result)).toMatchObject({ code: 'timeout' });
      expect(failed(test.result).message).toContain(`127.0.0.1:${silent.port}`);
      expect(test.ms).toBeGreaterThanOrEqual(900);
      expect(test.ms).toBeLessThan(2000);
      const poll = await timed(() => p.poll(Date.now()));
      expect(failed(poll.result).code).toBe('timeout');
      expect(poll.ms).toBeLessThan(2000);
    } finally {
      await silent.close();
    }
  });

  it('gives timeout within the connect time-out for a host that never answers', async () => {
    const unanswered = await unansweredPort();
    try {
      const { result, ms } = await timed(() => poller({ port: unanswered.port }).testConnection());
      expect(failed(result).code).toBe('timeout');
      expect(ms).toBeGreaterThanOrEqual(1400);
      expect(ms).toBeLessThan(2500);
    } finally {
      await unanswered.close();
    }
  });

  it('gives wrong_engine when the port is a PostgreSQL server', async () => {
    const result = failed(await poller({ port: 5432 }).testConnection());
    expect(result.code).toBe('wrong_engine');
    expect(result.message).toMatch(/127\.0\.0\.1:5432 answers as a PostgreSQL server/);
  });

  it('gives tls_error when TLS is on and the server does not speak it', async () => {
    const result = failed(await poller({ port: 5432, tls: { enabled: true } }).testConnection());
    expect(result.code).toBe('tls_error');
    expect(result.message).toContain('127.0.0.1:5432');
  });

  it('gives tls_error for a certificate no trusted authority signed, and points a plain connect to TCPS', async () => {
    const server = await tlsServer();
    try {
      const on = failed(await poller({ port: server.port, tls: { enabled: true } }).testConnection());
      expect(on.code).toBe('tls_error');
      expect(on.message).toMatch(/self-signed certificate/);
      // A TLS server hangs up on a plain connect without a word: the message points at TCPS.
      const off = failed(await poller({ port: server.port }).testConnection());
      expect(off.code).toBe('connection_failed');
      expect(off.message).toContain('turn TLS on');
    } finally {
      await server.close();
    }
  });

  it('gives not_found for a host name that does not resolve', async () => {
    const result = failed(await poller({ host: 'no-such-host.invalid' }).testConnection());
    expect(result.code).toBe('not_found');
    expect(result.message).toContain('"no-such-host.invalid"');
  });
});

describe('classifyOracleError', () => {
  // Errors made by the driver's own factories: server errors as its protocol layer raises them
  // (message and errorNum, then transformErr), driver errors with getErr. Messages are 23ai's.
  const require = createRequire(import.meta.url);
  const driverErrors = require('oracledb/lib/errors.js') as {
    getErr(num: number, ...args: unknown[]): Error;
    transformErr(err: Error): Error;
    ERR_INVALID_SERVICE_NAME: number;
    ERR_INVALID_SID: number;
    ERR_CALL_TIMEOUT_EXCEEDED: number;
    ERR_CONNECTION_TIMEDOUT: number;
  };
  const server = (errorNum: number, message: string) =>
    driverErrors.transformErr(Object.assign(new Error(message), { errorNum, offset: 0 }));
  const cfg = config({ port: 1521 });
  const classify = (err: unknown) => classifyOracleError(err, cfg);

  it('turns refused credentials and missing privileges into auth_failed, naming the user and target', () => {
    const refused = classify(server(1017, 'ORA-01017: invalid credential or not authorized; logon denied'));
    expect(refused).toEqual({
      ok: false,
      code: 'auth_failed',
      message:
        'Authentication error at 127.0.0.1:1521 for user "monitor": the user or the password was refused. Check the service logs to find the cause.',
    });
    expect(classify(server(28000, 'ORA-28000: The account is locked.')).message).toContain(
      'account is locked',
    );
    const noView = classify(server(942, 'ORA-00942: table or view "SYS"."V_$SESSION" does not exist'));
    expect(noView.code).toBe('auth_failed');
    expect(noView.message).toContain('SELECT_CATALOG_ROLE');
    expect(noView.message).not.toContain('Help:');
  });

  it('reads the server code the driver put behind its own (ORA-03113 becomes NJS-500)', () => {
    const eof = server(3113, 'ORA-03113: end-of-file on communication channel');
    expect(oracleErrorCodes(eof)).toEqual(['NJS-500', 'ORA-03113']);
    expect(classify(eof).code).toBe('connection_failed');
  });

  it('gives not_found for a service or SID the listener does not know', () => {
    const service = classify(
      driverErrors.getErr(driverErrors.ERR_INVALID_SERVICE_NAME, 'FREEPDB1', '127.0.0.1', 1521, 'id'),
    );
    expect(service.code).toBe('not_found');
    expect(service.message).toContain(
      'Service "FREEPDB1" is not registered with the listener at 127.0.0.1:1521',
    );
    const sid = classifyOracleError(
      driverErrors.getErr(driverErrors.ERR_INVALID_SID, 'ORCL', '127.0.0.1', 1521, 'id'),
      config({ service_name: '', sid: 'ORCL' }),
    );
    expect(sid).toMatchObject({ code: 'not_found' });
    expect(sid.message).toContain('SID "ORCL"');
  });

  it('gives timeout for the connect and call time-outs and a cancelled call', () => {
    expect(
      classify(
        driverErrors.getErr(
          driverErrors.ERR_CONNECTION_TIMEDOUT,
          '127.0.0.1',
          1521,
          'connectTimeout',
          2,
          'id',
        ),
      ),
    ).toMatchObject({ code: 'timeout', message: expect.stringContaining('within 1500 ms') });
    expect(classify(driverErrors.getErr(driverErrors.ERR_CALL_TIMEOUT_EXCEEDED, 3000))).toMatchObject({
      code: 'timeout',
      message: expect.stringContaining('did not finish within 3000 ms'),
    });
    expect(classify(server(1013, 'ORA-01013: User requested cancel of current operation.')).code).toBe(
      'timeout',
    );
    expect(classify(new TimeoutError(1500)).code).toBe('timeout');
    expect(classify(new QueryTimeoutError(4000))).toMatchObject({
      code: 'timeout',
      message: expect.stringContaining('A query to Oracle at 127.0.0.1:1521 did not finish'),
    });
  });

  it('gives connection_failed for a database without a free session or not open', () => {
    const full = classify(server(20, 'ORA-00020: maximum number of processes (300) exceeded'));
    expect(full.code).toBe('connection_failed');
    expect(full.message).toContain('no free session or process');
    const closed = classify(server(1033, 'ORA-01033: ORACLE initialization or shutdown in progress'));
    expect(closed.message).toContain('not open to connections');
  });
});

describe('oracleConnectString', () => {
  it('connects by service name or SID, over TCPS when TLS is on', () => {
    expect(oracleConnectString(config({ port: 1522 }))).toBe(
      '(DESCRIPTION=(ADDRESS=(PROTOCOL=TCP)(HOST=127.0.0.1)(PORT=1522))(CONNECT_DATA=(SERVICE_NAME=FREEPDB1)))',
    );
    expect(oracleConnectString(config({ service_name: '', sid: 'ORCL', tls: { enabled: true } }))).toBe(
      '(DESCRIPTION=(ADDRESS=(PROTOCOL=TCPS)(HOST=127.0.0.1)(PORT=1521))(CONNECT_DATA=(SID=ORCL)))',
    );
  });
});
