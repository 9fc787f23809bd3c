import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Socket } from 'node:net';
import { ElasticsearchPollerConfig } from '@flightdeck/schemas';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Poller } from './contract';
import { createElasticsearchPoller, esClientOptions, esEndpoint } from './elasticsearch';
import { freePort, silentServer, unansweredPort } from './testing/net';
import { selfSignedCertificate } from './testing/tls';
import { type OwnWebServer, startNginx } from './testing/web-servers';

/**
 * What the Elasticsearch poller says about targets that are not a working Elasticsearch node, with
 * the client's real errors: a refused port, servers that stay silent, the PostgreSQL and MariaDB
 * servers and an nginx of this machine, TLS mismatches. Refused credentials and privileges come
 * from a local HTTP server that answers the 401 and 403 bodies Elasticsearch 8.15 documents for
 * its security errors, with its product header.
 */

const logger = pino({ level: 'silent' });
const opened: Poller[] = [];

function config(over: Record<string, unknown> = {}) {
  return ElasticsearchPollerConfig.parse({
    host: '127.0.0.1',
    connect_timeout_ms: 1000,
    query_timeout_ms: 1000,
    ...over,
  });
}

function poller(over: Record<string, unknown> = {}): Poller {
  const p = createElasticsearchPoller(config(over), { logger });
  opened.push(p);
  return p;
}

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await work();
  return { result, ms: performance.now() - started };
}

/** Elasticsearch 8's answer to a request its security layer refuses. */
function securityError(res: ServerResponse, status: 401 | 403, reason: string) {
  res.writeHead(status, {
    'content-type': 'application/json',
    'x-elastic-product': 'Elasticsearch',
    ...(status === 401 ? { 'www-authenticate': 'Basic realm="security", charset="UTF-8", ApiKey' } : {}),
  });
  res.end(
    JSON.stringify({
      error: {
        root_cause: [{ type: 'security_exception', reason }],
        type: 'security_exception',
        reason,
        ...(status === 401
          ? { header: { 'WWW-Authenticate': ['Basic realm="security", charset="UTF-8"', 'ApiKey'] } }
          : {}),
      },
      status,
    }),
  );
}

/** Refuses every credential but `monitor:right` with 401; that user may not read cluster health (403). */
function securedNode(req: IncomingMessage, res: ServerResponse) {
  const right = `Basic ${Buffer.from('monitor:right').toString('base64')}`;
  if (req.headers.authorization !== right) {
    return securityError(res, 401, `unable to authenticate user [monitor] for REST request [${req.url}]`);
  }
  if (req.url?.startsWith('/_cluster/health')) {
    return securityError(
      res,
      403,
      'action [cluster:monitor/health] is unauthorized for user [monitor] with effective roles [], this action is granted by the cluster privileges [monitor,manage,all]',
    );
  }
  res.writeHead(200, { 'content-type': 'application/json', 'x-elastic-product': 'Elasticsearch' });
  res.end(JSON.stringify({ name: 'es-1', cluster_name: 'logs-prod', version: { number: '8.15.3' } }));
}

async function listen(server: Server): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((p) => p.close()));
});

describe('Elasticsearch poller: targets that are not a working node', () => {
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
    if (!result.ok) {
      expect(result.message).toContain(`Elasticsearch at 127.0.0.1:${port}`);
      expect(result.message).toContain('the connection was refused');
    }
    expect(ms).toBeLessThan(1000);
    expect(await p.poll(Date.now())).toMatchObject({ ok: false, code: 'connection_failed' });
  });

  it('gives timeout for a server that accepts and never answers', async () => {
    const silent = await silentServer();
    try {
      const { result, ms } = await timed(() => poller({ port: silent.port }).testConnection());
      expect(result).toMatchObject({ ok: false, code: 'timeout' });
      if (!result.ok)
        expect(result.message).toContain(`127.0.0.1:${silent.port} did not respond within 1000 ms`);
      expect(ms).toBeGreaterThanOrEqual(900);
      expect(ms).toBeLessThan(2500);
    } finally {
      await silent.close();
    }
  });

  it('gives timeout for a host that never answers the connection', async () => {
    const unanswered = await unansweredPort();
    try {
      const { result, ms } = await timed(() => poller({ port: unanswered.port }).testConnection());
      expect(result).toMatchObject({ ok: false, code: 'timeout' });
      expect(ms).toBeLessThan(2500);
    } finally {
      await unanswered.close();
    }
  });

  it('gives wrong_engine for a web server that is not Elasticsearch, naming it', async () => {
    const p = poller({ port: nginx.port });
    const result = await p.testConnection();
    expect(result).toMatchObject({ ok: false, code: 'wrong_engine' });
    if (!result.ok)
      expect(result.message).toMatch(/answers as an HTTP server \(nginx\/[\d.]+\), not Elasticsearch/);
    expect(await p.poll(Date.now())).toMatchObject({ ok: false, code: 'wrong_engine' });
  });

  it('gives wrong_engine for an error page of a web server at a URL path', async () => {
    const result = await poller({ host: '', url: `http://127.0.0.1:${nginx.port}/es/` }).testConnection();
    expect(result).toMatchObject({ ok: false, code: 'wrong_engine' });
    if (!result.ok)
      expect(result.message).toContain(
        `http://127.0.0.1:${nginx.port}/es answers as an HTTP server (status 404)`,
      );
  });

  it('gives wrong_engine for the PostgreSQL and MariaDB servers of this machine', async () => {
    const pg = await poller({ port: 5432 }).testConnection();
    expect(pg).toMatchObject({ ok: false, code: 'wrong_engine' });
    if (!pg.ok) expect(pg.message).toMatch(/127\.0\.0\.1:5432 answers as a PostgreSQL server/);
    const mariadb = await poller({ port: 3306 }).testConnection();
    expect(mariadb).toMatchObject({ ok: false, code: 'wrong_engine' });
    if (!mariadb.ok) expect(mariadb.message).toMatch(/answers as a MySQL or MariaDB server/);
  });

  it('gives tls_error when https is asked of a plain-http port', async () => {
    const result = await poller({ port: nginx.port, tls: { enabled: true } }).testConnection();
    expect(result).toMatchObject({ ok: false, code: 'tls_error' });
    if (!result.ok) expect(result.message).toMatch(/turn TLS off/);
  });
});

describe('Elasticsearch poller: security and TLS', () => {
  let plain: { port: number; close(): Promise<void> };
  let secure: { port: number; close(): Promise<void> };
  let cert: string;
  beforeAll(async () => {
    const pair = await selfSignedCertificate(30);
    cert = pair.cert;
    plain = await listen(createHttpServer(securedNode));
    secure = await listen(createHttpsServer({ cert: pair.cert, key: pair.key }, securedNode));
  });
  afterAll(async () => {
    await plain?.close();
    await secure?.close();
  });

  it('gives auth_failed for refused credentials, naming the user', async () => {
    const result = await poller({ port: plain.port, user: 'monitor', password: 'wrong' }).testConnection();
    expect(result).toMatchObject({ ok: false, code: 'auth_failed' });
    if (!result.ok) {
      expect(result.message).toContain(`Authentication error at 127.0.0.1:${plain.port} for user "monitor"`);
      expect(result.message).toContain('unable to authenticate user [monitor]');
    }
  });

  it('gives auth_failed for a refused API key and for a cluster that wants credentials', async () => {
    const key = await poller({
      port: plain.port,
      api_key: 'VnVhQ2ZHY0JDZGJrUW0tZTVhT3g6dWkybHAyYXhUTm1zeWFrdzl0dk5udw==',
    }).testConnection();
    expect(key).toMatchObject({ ok: false, code: 'auth_failed' });
    if (!key.ok) expect(key.message).toMatch(/for the API key: the API key was refused/);
    const none = await poller({ port: plain.port }).testConnection();
    expect(none).toMatchObject({ ok: false, code: 'auth_failed' });
    if (!none.ok)
      expect(none.message).toMatch(/requires authentication.*give a user and password or an API key/);
  });

  it('gives auth_failed with the privilege to grant when the user may not read cluster health', async () => {
    const result = await poller({ port: plain.port, user: 'monitor', password: 'right' }).testConnection();
    expect(result).toMatchObject({ ok: false, code: 'auth_failed' });
    if (!result.ok) expect(result.message).toMatch(/grant the monitor cluster privilege/);
  });

  it('refuses a self-signed certificate unless its authority is given', async () => {
    const strict = await poller({ port: secure.port, tls: { enabled: true } }).testConnection();
    expect(strict).toMatchObject({ ok: false, code: 'tls_error' });
    if (!strict.ok) expect(strict.message).toMatch(/self-signed certificate/);
    // With the certificate as the authority the TLS connection holds and the node answers.
    const trusted = await poller({
      port: secure.port,
      user: 'monitor',
      password: 'wrong',
      tls: { enabled: true, ca: cert },
    }).testConnection();
    expect(trusted).toMatchObject({ ok: false, code: 'auth_failed' });
    const lax = await poller({
      url: `https://localhost:${secure.port}`,
      host: '',
      user: 'monitor',
      password: 'wrong',
      tls: { reject_unauthorized: false },
    }).testConnection();
    expect(lax).toMatchObject({ ok: false, code: 'auth_failed' });
  });
});

describe('Elasticsearch poller config', () => {
  it('fills the defaults from the host alone: port 9200, plain http, no credentials', () => {
    const c = ElasticsearchPollerConfig.parse({ host: 'es1' });
    expect(c).toMatchObject({ host: 'es1', port: 9200, password: '', top_tables: 10 });
    expect(esEndpoint(c)).toMatchObject({ target: 'es1:9200', host: 'es1', port: 9200 });
    expect(esEndpoint(c).url.toString()).toBe('http://es1:9200/');
    expect(esEndpoint({ ...c, tls: { ...c.tls, enabled: true } }).url.toString()).toBe('https://es1:9200/');
  });

  it('takes a URL with a path instead of the host, and names the target by it', () => {
    const c = ElasticsearchPollerConfig.parse({ host: '', url: 'https://search.example.com/es/' });
    expect(esEndpoint(c)).toMatchObject({
      target: 'https://search.example.com/es',
      host: 'search.example.com',
      port: 443,
    });
    expect(esClientOptions(c).node).toBe('https://search.example.com/es/');
  });

  it('wants the host or the URL, not both, and one kind of credentials', () => {
    expect(ElasticsearchPollerConfig.safeParse({ host: 'es1', url: 'http://es1:9200' }).success).toBe(false);
    expect(ElasticsearchPollerConfig.safeParse({}).success).toBe(false);
    expect(ElasticsearchPollerConfig.safeParse({ url: 'ftp://es1/' }).success).toBe(false);
    expect(ElasticsearchPollerConfig.safeParse({ url: 'http://elastic:pw@es1:9200' }).success).toBe(false);
    expect(ElasticsearchPollerConfig.safeParse({ host: 'es1', user: 'u', api_key: 'k' }).success).toBe(false);
    expect(ElasticsearchPollerConfig.safeParse({ host: 'es1', password: 'pw' }).success).toBe(false);
    expect(ElasticsearchPollerConfig.safeParse({ host: 'es1', api_key: 'k' }).success).toBe(true);
  });

  it('gives the client no retries, the time-outs and the credentials of the config', () => {
    const options = esClientOptions(
      config({ user: 'monitor', password: 'pw', tls: { enabled: true, ca: 'PEM' } }),
    );
    expect(options).toMatchObject({
      node: 'https://127.0.0.1:9200/',
      maxRetries: 0,
      requestTimeout: 1000,
      auth: { username: 'monitor', password: 'pw' },
      tls: { timeout: 1000, rejectUnauthorized: true, ca: 'PEM' },
    });
    expect(esClientOptions(config({ api_key: 'k' })).auth).toEqual({ apiKey: 'k' });
  });
});
