import type { Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { CassandraPollerConfig } from '@flightdeck/schemas';
import { errors, types } from 'cassandra-driver';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { classifyCassandraError, createCassandraPoller } from './cassandra';
import type { Poller } from './contract';
import { TimeoutError } from './failure';
import { freePort, ownConnectionsTo, silentServer, unansweredPort, waitFor } from './testing/net';
import { selfSignedCertificate } from './testing/tls';

/**
 * The Cassandra poller with the real cassandra-driver against what runs on this machine: ports
 * nobody listens on, servers that stay silent, PostgreSQL (5432) and MariaDB (3306) where CQL is
 * expected, a TLS server with a certificate nobody signed. A real Cassandra runs in
 * cassandra.container.test.ts where a Docker engine answers.
 */

const logger = pino({ level: 'silent' });
const opened: Poller[] = [];

function config(over: Record<string, unknown> = {}): CassandraPollerConfig {
  return CassandraPollerConfig.parse({
    host: '127.0.0.1',
    connect_timeout_ms: 1500,
    query_timeout_ms: 2000,
    ...over,
  });
}

function poller(over: Record<string, unknown> = {}): Poller {
  const p = createCassandraPoller(config(over), { logger });
  opened.push(p);
  return p;
}

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await work();
  return { result, ms: performance.now() - started };
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((p) => p.close()));
});

describe('Cassandra poller: connection test with the real driver', () => {
  it('gives connection_failed at once for a port nobody listens on, naming host:port', async () => {
    const port = await freePort();
    const { result, ms } = await timed(() => poller({ port }).testConnection());
    expect(result).toMatchObject({ ok: false, code: 'connection_failed' });
    if (!result.ok) expect(result.message).toContain(`Cassandra at 127.0.0.1:${port}`);
    expect(ms).toBeLessThan(1000);
  });

  it('gives wrong_engine for the PostgreSQL port, where the driver alone would wait', async () => {
    const { result, ms } = await timed(() => poller({ port: 5432 }).testConnection());
    expect(result).toMatchObject({ ok: false, code: 'wrong_engine' });
    if (!result.ok)
      expect(result.message).toMatch(/127\.0\.0\.1:5432 answers as a PostgreSQL server.*not Cassandra/);
    expect(ms).toBeLessThan(1000);
  });

  it('gives wrong_engine for the MariaDB port, with what the server said', async () => {
    const result = await poller({ port: 3306 }).testConnection();
    expect(result).toMatchObject({ ok: false, code: 'wrong_engine' });
    if (!result.ok) expect(result.message).toMatch(/127\.0\.0\.1:3306 answers as a MySQL or MariaDB server/);
  });

  it('gives timeout within the connect time-out for a server that accepts and stays silent, in a poll too', async () => {
    const silent = await silentServer();
    try {
      const p = poller({ port: silent.port });
      const test = await timed(() => p.testConnection());
      expect(test.result).toMatchObject({ ok: false, code: 'timeout' });
      if (!test.result.ok) expect(test.result.message).toContain(`127.0.0.1:${silent.port}`);
      expect(test.ms).toBeGreaterThanOrEqual(1400);
      expect(test.ms).toBeLessThan(2500);
      const poll = await timed(() => p.poll(Date.now()));
      expect(poll.result).toMatchObject({ ok: false, code: 'timeout' });
      expect(poll.ms).toBeLessThan(2500);
      await p.close();
      await waitFor(() => ownConnectionsTo(silent.port) === 0, 2000, 'the client to close its sockets');
    } finally {
      await silent.close();
    }
  });

  it('gives timeout within the connect time-out for a host that never answers', async () => {
    const unanswered = await unansweredPort();
    try {
      const { result, ms } = await timed(() => poller({ port: unanswered.port }).testConnection());
      expect(result).toMatchObject({ ok: false, code: 'timeout' });
      expect(ms).toBeLessThan(2500);
    } finally {
      await unanswered.close();
    }
  });

  it('gives tls_error for a certificate nobody trusted, and timeout once it is accepted but the server is silent', async () => {
    const { cert, key } = await selfSignedCertificate(30);
    const sockets = new Set<Socket>();
    const server = createTlsServer({ cert, key }, (socket) => socket.on('error', () => {}));
    server.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      const refused = await poller({ port, tls: { enabled: true } }).testConnection();
      expect(refused).toMatchObject({ ok: false, code: 'tls_error' });
      if (!refused.ok)
        expect(refused.message).toMatch(/TLS connection to Cassandra at 127\.0\.0\.1:\d+ failed/);
      const accepted = await poller({
        port,
        tls: { enabled: true, reject_unauthorized: false },
      }).testConnection();
      expect(accepted).toMatchObject({ ok: false, code: 'timeout' });
      const trusted = await poller({ port, tls: { enabled: true, ca: cert } }).testConnection();
      expect(trusted).toMatchObject({ ok: false, code: 'timeout' });
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('Cassandra failures', () => {
  const c = config({ user: 'monitor', password: 'wrong' });

  it('read the error inside the driver NoHostAvailableError: credentials refused or missing', () => {
    const refused = new errors.NoHostAvailableError({
      '10.0.0.5:9042': new errors.AuthenticationError(
        'Provided username monitor and/or password are incorrect',
      ),
    });
    expect(classifyCassandraError(refused, c)).toMatchObject({
      code: 'auth_failed',
      message: expect.stringContaining('Authentication error at 127.0.0.1:9042 for user "monitor"'),
    });
    const missing = new errors.NoHostAvailableError({
      '10.0.0.5:9042': new errors.AuthenticationError(
        'Host 10.0.0.5:9042 requires authentication, but no authenticator found in the options',
      ),
    });
    expect(classifyCassandraError(missing, config())).toMatchObject({
      code: 'auth_failed',
      message: expect.stringContaining('requires a user and a password'),
    });
  });

  it('read the node response errors by their protocol code, and the driver time-outs', () => {
    const denied = new errors.ResponseError(
      types.responseErrorCodes.unauthorized,
      'User monitor has no SELECT permission on <table system_views.clients> or any of its parents',
    );
    expect(classifyCassandraError(denied, c)).toMatchObject({ code: 'auth_failed' });
    const noKeyspace = new errors.ResponseError(
      types.responseErrorCodes.invalid,
      "Keyspace 'shop' does not exist",
    );
    expect(classifyCassandraError(noKeyspace, config({ keyspace: 'shop' }))).toMatchObject({
      code: 'not_found',
      message: expect.stringContaining('Keyspace "shop" does not exist at 127.0.0.1:9042'),
    });
    const readTimeout = new errors.ResponseError(
      types.responseErrorCodes.readTimeout,
      'Operation timed out - received only 0 responses.',
    );
    expect(classifyCassandraError(readTimeout, c)).toMatchObject({ code: 'timeout' });
    const silent = new errors.NoHostAvailableError({
      '127.0.0.1:9042': new errors.OperationTimedOutError(
        'The host 127.0.0.1:9042 did not reply before timeout 2000 ms',
      ),
    });
    expect(classifyCassandraError(silent, c)).toMatchObject({ code: 'timeout' });
    expect(classifyCassandraError(new TimeoutError(1500), c)).toMatchObject({
      code: 'timeout',
      message: expect.stringContaining('within 1500 ms'),
    });
    const dc = new errors.ArgumentError('Datacenter datacenter1 was not found. Available DCs are: [dc1]');
    expect(classifyCassandraError(dc, c)).toMatchObject({
      code: 'not_found',
      message: expect.stringContaining('Data center "datacenter1" was not found'),
    });
  });
});
