import { createServer as createTlsServer, type TLSSocket, type Server as TlsServer } from 'node:tls';
import { MongodbPollerConfig } from '@flightdeck/schemas';
import { BSON, MongoClient, MongoServerError } from 'mongodb';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Poller } from './contract';
import { classifyMongoError, createMongodbPoller, mongoClientOptions, mongoUrl } from './mongodb';
import { helloMessage, isMongoReply, OP_MSG } from './mongodb-probe';
import { freePort, silentServer, unansweredPort } from './testing/net';
import { selfSignedCertificate } from './testing/tls';
import { type OwnWebServer, startNginx } from './testing/web-servers';

/**
 * What the MongoDB poller says about targets that are not a working MongoDB server, with the
 * driver's real errors: a refused port, servers that stay silent, the PostgreSQL and MariaDB
 * servers and an nginx of this machine, a TLS server with a self-signed certificate. Server-side
 * errors (authentication, privileges, time limits) are the driver's error class built from the
 * error documents MongoDB 7.0 documents for them.
 */

const logger = pino({ level: 'silent' });
const opened: Poller[] = [];

function config(over: Record<string, unknown> = {}) {
  return MongodbPollerConfig.parse({
    host: '127.0.0.1',
    connect_timeout_ms: 1000,
    query_timeout_ms: 2000,
    ...over,
  });
}

function poller(over: Record<string, unknown> = {}): Poller {
  const p = createMongodbPoller(config(over), { logger });
  opened.push(p);
  return p;
}

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await work();
  return { result, ms: performance.now() - started };
}

/** What the driver itself throws when connecting to `port` with the poller's options. */
async function driverError(over: Record<string, unknown>): Promise<unknown> {
  const c = config(over);
  const client = new MongoClient(mongoUrl(c), mongoClientOptions(c));
  try {
    await client.connect();
    return undefined;
  } catch (err) {
    return err;
  } finally {
    await client.close();
  }
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((p) => p.close()));
});

describe('MongoDB probe', () => {
  it('sends a hello as an OP_MSG and knows a reply to it', () => {
    const message = helloMessage(42);
    expect(message.readInt32LE(0)).toBe(message.length);
    expect(message.readInt32LE(4)).toBe(42);
    expect(message.readInt32LE(12)).toBe(OP_MSG);
    expect(BSON.deserialize(message.subarray(21))).toEqual({ hello: 1, $db: 'admin' });
    const reply = Buffer.alloc(16);
    reply.writeInt32LE(312, 0);
    reply.writeInt32LE(9001, 4);
    reply.writeInt32LE(42, 8);
    reply.writeInt32LE(OP_MSG, 12);
    expect(isMongoReply(reply, 42)).toBe(true);
    expect(isMongoReply(reply, 43)).toBe(false);
    expect(isMongoReply(reply.subarray(0, 12), 42)).toBeUndefined();
    expect(isMongoReply(Buffer.from('HTTP/1.1 400 Bad Request\r\n'), 42)).toBe(false);
  });
});

describe('MongoDB poller: targets that do not answer as MongoDB', () => {
  let nginx: OwnWebServer;
  beforeAll(async () => {
    nginx = await startNginx();
  }, 20_000);
  afterAll(async () => {
    await nginx?.stop();
  });

  it('gives connection_failed at once for a port nobody listens on, in a poll too', async () => {
    const port = await freePort();
    const p = poller({ port });
    const { result, ms } = await timed(() => p.testConnection());
    expect(result).toMatchObject({ ok: false, code: 'connection_failed' });
    if (!result.ok) expect(result.message).toContain(`MongoDB at 127.0.0.1:${port}`);
    expect(ms).toBeLessThan(1000);
    expect(await p.poll(Date.now())).toMatchObject({ ok: false, code: 'connection_failed' });
  });

  it('gives timeout within the connect time-out for a server that accepts and stays silent', async () => {
    const silent = await silentServer();
    try {
      const p = poller({ port: silent.port });
      const test = await timed(() => p.testConnection());
      expect(test.result).toMatchObject({ ok: false, code: 'timeout' });
      if (!test.result.ok) expect(test.result.message).toContain(`127.0.0.1:${silent.port}`);
      expect(test.ms).toBeGreaterThanOrEqual(900);
      expect(test.ms).toBeLessThan(2000);
      const poll = await timed(() => p.poll(Date.now()));
      expect(poll.result).toMatchObject({ ok: false, code: 'timeout' });
      expect(poll.ms).toBeLessThan(2000);
    } finally {
      await silent.close();
    }
  });

  it('gives timeout within the connect time-out for a host that never answers', async () => {
    const unanswered = await unansweredPort();
    try {
      const { result, ms } = await timed(() => poller({ port: unanswered.port }).testConnection());
      expect(result).toMatchObject({ ok: false, code: 'timeout' });
      expect(ms).toBeLessThan(2000);
    } finally {
      await unanswered.close();
    }
  });

  it('gives wrong_engine for the PostgreSQL server of this machine', async () => {
    const result = await poller({ port: 5432 }).testConnection();
    expect(result).toMatchObject({ ok: false, code: 'wrong_engine' });
    if (!result.ok) expect(result.message).toMatch(/127\.0\.0\.1:5432 answers as a PostgreSQL server/);
  });

  it('gives wrong_engine for the MariaDB server of this machine, before the driver reads its greeting', async () => {
    const { result, ms } = await timed(() => poller({ port: 3306 }).testConnection());
    expect(result).toMatchObject({ ok: false, code: 'wrong_engine' });
    if (!result.ok) expect(result.message).toMatch(/answers as a MySQL or MariaDB server \(.*MariaDB/);
    expect(ms).toBeLessThan(1000);
    expect(await poller({ port: 3306 }).poll(Date.now())).toMatchObject({ ok: false, code: 'wrong_engine' });
  });

  it('gives wrong_engine for a web server', async () => {
    const result = await poller({ port: nginx.port }).testConnection();
    expect(result).toMatchObject({ ok: false, code: 'wrong_engine' });
    if (!result.ok) expect(result.message).toMatch(/answers as an HTTP server \(HTTP\/1\.1 400/);
  });

  it('gives tls_error when TLS is on and the port answers in plain text', async () => {
    const result = await poller({ port: nginx.port, tls: { enabled: true } }).testConnection();
    expect(result).toMatchObject({ ok: false, code: 'tls_error' });
    if (!result.ok) expect(result.message).toContain(`MongoDB at 127.0.0.1:${nginx.port}`);
  });
});

describe("MongoDB poller: the driver's errors", () => {
  let tlsServer: TlsServer;
  let tlsPort: number;
  const sockets = new Set<TLSSocket>();
  beforeAll(async () => {
    const { cert, key } = await selfSignedCertificate(30);
    // It completes TLS handshakes and then says nothing, like a hung service behind TLS.
    tlsServer = createTlsServer({ cert, key }, (socket) => {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve));
    tlsPort = (tlsServer.address() as { port: number }).port;
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => tlsServer.close(resolve));
  });

  it('classifies a refused connection the driver reports through server selection', async () => {
    const port = await freePort();
    const err = await driverError({ port });
    expect((err as Error).name).toBe('MongoServerSelectionError');
    expect(classifyMongoError(err, config({ port }))).toMatchObject({ code: 'connection_failed' });
  });

  it('classifies a server selection that timed out against a silent server', async () => {
    const silent = await silentServer();
    try {
      const err = await driverError({ port: silent.port });
      expect((err as Error).message).toMatch(/timed out/);
      const result = classifyMongoError(err, config({ port: silent.port }));
      expect(result).toMatchObject({ code: 'timeout' });
      expect(result.message).toContain('did not respond within 1000 ms');
    } finally {
      await silent.close();
    }
  });

  it('classifies a certificate no authority signed as a TLS error, and connects past it when told to', async () => {
    const strict = await driverError({ port: tlsPort, tls: { enabled: true } });
    const result = classifyMongoError(strict, config({ port: tlsPort, tls: { enabled: true } }));
    expect(result).toMatchObject({ code: 'tls_error' });
    expect(result.message).toMatch(/self-signed certificate/);
    // Past the certificate check the TLS server says nothing: selection times out instead.
    const lax = await driverError({ port: tlsPort, tls: { enabled: true, reject_unauthorized: false } });
    expect(
      classifyMongoError(lax, config({ port: tlsPort, tls: { enabled: true, reject_unauthorized: false } })),
    ).toMatchObject({ code: 'timeout' });
  });

  it('classifies refused credentials, a missing privilege and a time limit the server reports', () => {
    const c = config({ user: 'monitor', password: 'x', auth_source: 'ops' });
    const refused = classifyMongoError(
      new MongoServerError({
        ok: 0,
        errmsg: 'Authentication failed.',
        code: 18,
        codeName: 'AuthenticationFailed',
      }),
      c,
    );
    expect(refused).toMatchObject({ code: 'auth_failed' });
    expect(refused.message).toBe(
      'Authentication error at 127.0.0.1:27017 for user "monitor": the user or the password was refused (authentication database "ops"). Check the service logs to find the cause.',
    );
    const privilege = classifyMongoError(
      new MongoServerError({
        ok: 0,
        errmsg: 'not authorized on admin to execute command { replSetGetStatus: 1, $db: "admin" }',
        code: 13,
        codeName: 'Unauthorized',
      }),
      c,
    );
    expect(privilege).toMatchObject({ code: 'auth_failed' });
    expect(privilege.message).toMatch(/grant the user the clusterMonitor role/);
    const anonymous = classifyMongoError(
      new MongoServerError({
        ok: 0,
        errmsg: 'command serverStatus requires authentication',
        code: 13,
        codeName: 'Unauthorized',
      }),
      config(),
    );
    expect(anonymous.message).toMatch(/requires authentication .*give a user/);
    expect(
      classifyMongoError(
        new MongoServerError({
          ok: 0,
          errmsg: 'operation exceeded time limit',
          code: 50,
          codeName: 'MaxTimeMSExpired',
        }),
        c,
      ),
    ).toMatchObject({ code: 'timeout' });
  });
});

describe('MongoDB poller config', () => {
  it('fills the defaults from the host alone: port 27017, admin as the authentication database, one member', () => {
    expect(MongodbPollerConfig.parse({ host: 'db1' })).toMatchObject({
      port: 27017,
      auth_source: 'admin',
      direct_connection: true,
      password: '',
    });
  });

  it('takes an empty user or replica set as not given, and refuses a password without its user', () => {
    const blank = MongodbPollerConfig.parse({ host: 'db1', user: '', replica_set: ' ' });
    expect([blank.user, blank.replica_set]).toEqual([undefined, undefined]);
    expect(MongodbPollerConfig.safeParse({ host: 'db1', password: 'x' }).success).toBe(false);
    expect(MongodbPollerConfig.safeParse({ host: 'db1', direct_connection: false }).success).toBe(false);
    expect(
      MongodbPollerConfig.safeParse({ host: 'db1', direct_connection: false, replica_set: 'rs0' }).success,
    ).toBe(true);
    expect(MongodbPollerConfig.safeParse({ host: 'db1', auth_source: 'a.b' }).success).toBe(false);
  });

  it('gives the driver credentials, TLS and time-outs from the config', () => {
    const options = mongoClientOptions(
      config({ user: 'monitor', password: 's3cret', replica_set: 'rs0', tls: { enabled: true, ca: 'PEM' } }),
    );
    expect(options).toMatchObject({
      auth: { username: 'monitor', password: 's3cret' },
      authSource: 'admin',
      replicaSet: 'rs0',
      directConnection: true,
      tls: true,
      tlsAllowInvalidCertificates: false,
      ca: 'PEM',
      connectTimeoutMS: 1000,
      serverSelectionTimeoutMS: 1000,
      socketTimeoutMS: 3000,
      appName: 'flightdeck-poller',
    });
    expect(mongoClientOptions(config())).not.toHaveProperty('auth');
    expect(mongoUrl(config({ host: '::1' }))).toBe('mongodb://[::1]:27017/');
  });
});
