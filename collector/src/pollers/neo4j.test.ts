import type { Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { Neo4jPollerConfig } from '@flightdeck/schemas';
import { Neo4jError } from 'neo4j-driver';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { Poller } from './contract';
import { TimeoutError } from './failure';
import { classifyNeo4jError, createNeo4jPoller } from './neo4j';
import { freePort, ownConnectionsTo, silentServer, unansweredPort, waitFor } from './testing/net';
import { selfSignedCertificate } from './testing/tls';

/**
 * The Neo4j poller with the real neo4j-driver against what runs on this machine: ports nobody
 * listens on, servers that stay silent, PostgreSQL (5432) and MariaDB (3306) where Bolt is
 * expected, a TLS server with a certificate nobody signed. A real Neo4j runs in
 * neo4j.container.test.ts where a Docker engine answers.
 */

const logger = pino({ level: 'silent' });
const opened: Poller[] = [];

function config(over: Record<string, unknown> = {}): Neo4jPollerConfig {
  return Neo4jPollerConfig.parse({
    host: '127.0.0.1',
    user: 'neo4j',
    password: 'secret',
    connect_timeout_ms: 1500,
    query_timeout_ms: 2000,
    ...over,
  });
}

function poller(over: Record<string, unknown> = {}): Poller {
  const p = createNeo4jPoller(config(over), { logger });
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

describe('Neo4j poller: connection test with the real driver', () => {
  it('gives connection_failed at once for a port nobody listens on, naming host:port', async () => {
    const port = await freePort();
    const { result, ms } = await timed(() => poller({ port }).testConnection());
    expect(result).toMatchObject({ ok: false, code: 'connection_failed' });
    if (!result.ok) expect(result.message).toContain(`Neo4j at 127.0.0.1:${port}`);
    expect(ms).toBeLessThan(1000);
  });

  it('gives wrong_engine for the PostgreSQL port', async () => {
    const result = await poller({ port: 5432 }).testConnection();
    expect(result).toMatchObject({ ok: false, code: 'wrong_engine' });
    if (!result.ok)
      expect(result.message).toMatch(/127\.0\.0\.1:5432 answers as a PostgreSQL server.*not Neo4j/);
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
      if (!refused.ok) expect(refused.message).toMatch(/TLS connection to Neo4j at 127\.0\.0\.1:\d+ failed/);
      // This server closes a connection that does not start with TLS, without a word.
      const plain = await poller({ port }).testConnection();
      expect(plain).toMatchObject({ ok: false, code: 'wrong_engine' });
      if (!plain.ok) expect(plain.message).toContain('whether the server wants TLS');
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

  it('holds no connection once closed after a failed poll', async () => {
    const silent = await silentServer();
    try {
      const p = poller({ port: silent.port });
      await p.poll(Date.now());
      await p.close();
      await waitFor(() => ownConnectionsTo(silent.port) === 0, 2000, 'the driver to close its sockets');
    } finally {
      await silent.close();
    }
  });
});

describe('Neo4j failures', () => {
  const c = config({ port: 7687 });

  it('read the server status codes of the driver errors', () => {
    const unauthorized = new Neo4jError(
      'The client is unauthorized due to authentication failure.',
      'Neo.ClientError.Security.Unauthorized',
      '42NFF',
      'error: permission/access denied',
    );
    expect(classifyNeo4jError(unauthorized, c)).toMatchObject({
      code: 'auth_failed',
      message: expect.stringContaining('Authentication error at 127.0.0.1:7687 for user "neo4j"'),
    });
    const expired = new Neo4jError(
      'The credentials you provided were valid, but must be changed before you can use this instance.',
      'Neo.ClientError.Security.CredentialsExpired',
      '42NFF',
      'error: permission/access denied',
    );
    expect(classifyNeo4jError(expired, c)).toMatchObject({ code: 'auth_failed' });
    const missing = new Neo4jError(
      'Graph not found: nosuchdb',
      'Neo.ClientError.Database.DatabaseNotFound',
      '22N51',
      'error: data exception - graph reference not found',
    );
    expect(classifyNeo4jError(missing, c)).toMatchObject({
      code: 'not_found',
      message: expect.stringContaining('Database "neo4j" does not exist at 127.0.0.1:7687'),
    });
    const slow = new Neo4jError(
      'The transaction has been terminated. Retry your operation in a new transaction, and you should see a successful result. The transaction has not completed within the timeout specified at its start by the client. You may want to retry with a longer timeout. ',
      'Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration',
      '25N06',
      'error: invalid transaction state',
    );
    expect(classifyNeo4jError(slow, c)).toMatchObject({ code: 'timeout' });
    expect(classifyNeo4jError(new TimeoutError(3000), c)).toMatchObject({
      code: 'timeout',
      message: expect.stringContaining('within 3000 ms'),
    });
  });
});
