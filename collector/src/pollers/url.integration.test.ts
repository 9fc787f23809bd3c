import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Socket } from 'node:net';
import { PollerExtras, UrlPollerConfig } from '@flightdeck/schemas';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outsideCatalogue, sampleValue } from './testing/catalogue';
import { freePort } from './testing/net';
import { ok } from './testing/poll';
import { selfSignedCertificate } from './testing/tls';
import { createUrlPoller } from './url';

/** A local HTTP server and an HTTPS server with a self-signed certificate valid for 30 days. */

const logger = pino({ level: 'silent' });
let http: Server;
let https: Server;
let httpUrl: string;
let httpsUrl: string;
let cert: string;
const sockets = new Set<Socket>();

function routes(req: IncomingMessage, res: ServerResponse): void {
  switch (req.url) {
    case '/ok':
      res.writeHead(200, { 'content-type': 'text/plain', server: 'fd-test/1.0' }).end('hello flightdeck');
      return;
    case '/missing':
      res.writeHead(404).end('not here');
      return;
    case '/error':
      res.writeHead(500).end('broken');
      return;
    case '/redirect':
      res.writeHead(302, { location: '/ok' }).end();
      return;
    case '/loop':
      res.writeHead(302, { location: '/loop' }).end();
      return;
    case '/to-https':
      res.writeHead(301, { location: `${httpsUrl}/ok` }).end();
      return;
    case '/slow':
      // Never answers; the client gives up.
      return;
    default:
      res.writeHead(404).end();
  }
}

async function listen(server: Server): Promise<number> {
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

beforeAll(async () => {
  const pair = await selfSignedCertificate(30);
  cert = pair.cert;
  http = createHttpServer(routes);
  https = createHttpsServer({ cert: pair.cert, key: pair.key }, routes);
  httpUrl = `http://127.0.0.1:${await listen(http)}`;
  httpsUrl = `https://localhost:${await listen(https)}`;
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await Promise.all([new Promise((r) => http.close(r)), new Promise((r) => https.close(r))]);
});

const urlPoller = (over: Record<string, unknown>) =>
  createUrlPoller(UrlPollerConfig.parse({ timeout_ms: 2000, ...over }), { logger });

describe('URL poller over http', () => {
  it('measures status, response time and a keyword found in the body', async () => {
    const result = ok(await urlPoller({ url: `${httpUrl}/ok`, keyword: 'flightdeck' }).poll(Date.now()));
    expect(outsideCatalogue(result.samples)).toEqual([]);
    expect(sampleValue(result.samples, 'url.status_code')).toBe(200);
    expect(sampleValue(result.samples, 'url.up')).toBe(1);
    expect(sampleValue(result.samples, 'url.keyword_found')).toBe(1);
    expect(sampleValue(result.samples, 'url.response_time_ms')).toBeGreaterThan(0);
    expect(sampleValue(result.samples, 'url.cert_days_left')).toBeUndefined();
    expect(PollerExtras.safeParse(result.extras).success).toBe(true);
    expect(result.extras?.url).toMatchObject({ final_url: `${httpUrl}/ok`, redirects: 0, certificate: null });
  });

  it('is down when the keyword is missing or the status is not the expected one', async () => {
    const noKeyword = ok(await urlPoller({ url: `${httpUrl}/ok`, keyword: 'Flightdeck' }).poll(Date.now()));
    expect(sampleValue(noKeyword.samples, 'url.keyword_found')).toBe(0);
    expect(sampleValue(noKeyword.samples, 'url.up')).toBe(0);
    const error = ok(await urlPoller({ url: `${httpUrl}/error` }).poll(Date.now()));
    expect(sampleValue(error.samples, 'url.status_code')).toBe(500);
    expect(sampleValue(error.samples, 'url.up')).toBe(0);
    const expected404 = ok(
      await urlPoller({ url: `${httpUrl}/missing`, expected_status: [404] }).poll(Date.now()),
    );
    expect(sampleValue(expected404.samples, 'url.up')).toBe(1);
  });

  it('follows redirects up to 5 and counts a redirect loop as down', async () => {
    const redirected = ok(await urlPoller({ url: `${httpUrl}/redirect` }).poll(Date.now()));
    expect(redirected.extras?.url).toMatchObject({
      final_url: `${httpUrl}/ok`,
      redirects: 1,
      status_code: 200,
      up: true,
    });
    const loop = ok(await urlPoller({ url: `${httpUrl}/loop` }).poll(Date.now()));
    expect(loop.extras?.url).toMatchObject({ redirects: 5, status_code: 302, up: false });
    const notFollowed = ok(
      await urlPoller({ url: `${httpUrl}/redirect`, follow_redirects: false }).poll(Date.now()),
    );
    expect(notFollowed.extras?.url).toMatchObject({ redirects: 0, status_code: 302, up: true });
  });

  it('answers a connection test with the server, and not_found for a 404', async () => {
    const result = await urlPoller({ url: `${httpUrl}/ok` }).testConnection();
    expect(result).toMatchObject({
      ok: true,
      version: 'fd-test/1.0',
      details: { status_code: 200, up: true },
    });
    expect(await urlPoller({ url: `${httpUrl}/missing` }).testConnection()).toMatchObject({
      code: 'not_found',
    });
  });

  it('gives timeout within the time-out and connection_failed for a closed port', async () => {
    const started = performance.now();
    const slow = await urlPoller({ url: `${httpUrl}/slow`, timeout_ms: 800 }).poll(Date.now());
    const ms = performance.now() - started;
    expect(slow).toMatchObject({ ok: false, code: 'timeout' });
    expect(ms).toBeGreaterThanOrEqual(750);
    expect(ms).toBeLessThan(1500);
    const port = await freePort();
    const closed = await urlPoller({ url: `http://127.0.0.1:${port}/` }).poll(Date.now());
    expect(closed).toMatchObject({ ok: false, code: 'connection_failed' });
    if (!closed.ok) expect(closed.message).toContain(`127.0.0.1:${port}`);
  });

  it('never shows a password written in the URL in its messages or target', async () => {
    const port = await freePort();
    const p = urlPoller({ url: `http://watcher:s3cret-word@127.0.0.1:${port}/status` });
    expect(p.target).not.toContain('s3cret-word');
    expect(p.target).toContain('watcher:***@127.0.0.1');
    const closed = await p.poll(Date.now());
    expect(closed).toMatchObject({ ok: false, code: 'connection_failed' });
    expect(JSON.stringify(closed)).not.toContain('s3cret-word');
  });

  it('gives not_found for a host name that does not resolve', async () => {
    expect(await urlPoller({ url: 'http://no-such-host.invalid/' }).poll(Date.now())).toMatchObject({
      code: 'not_found',
    });
  });
});

describe('URL poller over https', () => {
  it('refuses a self-signed certificate with tls_error unless told to trust it', async () => {
    const refused = await urlPoller({ url: `${httpsUrl}/ok` }).poll(Date.now());
    expect(refused).toMatchObject({ ok: false, code: 'tls_error' });
    if (!refused.ok) expect(refused.message).toMatch(/self-signed/);
  });

  it('reads the days the certificate has left, trusted through the given authority', async () => {
    const result = ok(await urlPoller({ url: `${httpsUrl}/ok`, tls: { ca: cert } }).poll(Date.now()));
    expect(outsideCatalogue(result.samples)).toEqual([]);
    const days = sampleValue(result.samples, 'url.cert_days_left')!;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
    expect(result.extras?.url?.certificate).toMatchObject({ subject: 'CN=localhost', trusted: true });
  });

  it('accepts an untrusted certificate when asked, and says it is not trusted', async () => {
    const result = ok(
      await urlPoller({ url: `${httpsUrl}/ok`, tls: { reject_unauthorized: false } }).poll(Date.now()),
    );
    expect(sampleValue(result.samples, 'url.up')).toBe(1);
    expect(result.extras?.url?.certificate?.trusted).toBe(false);
  });

  it('keeps the certificate of the https answer an http URL redirects to', async () => {
    const result = ok(await urlPoller({ url: `${httpUrl}/to-https`, tls: { ca: cert } }).poll(Date.now()));
    expect(result.extras?.url).toMatchObject({ final_url: `${httpsUrl}/ok`, redirects: 1, status_code: 200 });
    expect(sampleValue(result.samples, 'url.cert_days_left')).toBeGreaterThan(29.9);
  });
});
