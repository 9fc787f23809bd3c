import { ApachePollerConfig, NginxPollerConfig } from '@flightdeck/schemas';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApachePoller } from './apache';
import { createNginxPoller } from './nginx';
import { outsideCatalogue, sampleValue } from './testing/catalogue';
import { freePort } from './testing/net';
import { ok } from './testing/poll';
import { type OwnWebServer, startApache, startNginx } from './testing/web-servers';

/** Debian's nginx and apache2, each started on a free port with a config of this suite's own. */

const logger = pino({ level: 'silent' });
let nginx: OwnWebServer;
let apache: OwnWebServer;

beforeAll(async () => {
  [nginx, apache] = await Promise.all([startNginx(), startApache()]);
}, 30_000);

afterAll(async () => {
  await Promise.all([nginx?.stop(), apache?.stop()]);
});

const nginxPoller = (over: Record<string, unknown> = {}) =>
  createNginxPoller(
    NginxPollerConfig.parse({ host: '127.0.0.1', port: nginx.port, timeout_ms: 2000, ...over }),
    {
      logger,
    },
  );
const apachePoller = (over: Record<string, unknown> = {}) =>
  createApachePoller(
    ApachePollerConfig.parse({ host: '127.0.0.1', port: apache.port, timeout_ms: 2000, ...over }),
    {
      logger,
    },
  );

async function requests(port: number, path: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const res = await fetch(`http://127.0.0.1:${port}${path}`);
    await res.arrayBuffer();
  }
}

describe('Nginx poller', () => {
  it('tests the connection and reads the version from the Server header', async () => {
    const result = await nginxPoller().testConnection();
    expect(result).toMatchObject({ ok: true, details: { server: expect.stringMatching(/^nginx\//) } });
    if (result.ok) expect(result.version).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('publishes connections, then request rates that follow the requests made in between', async () => {
    const p = nginxPoller();
    const t0 = Date.now();
    const first = ok(await p.poll(t0));
    expect(outsideCatalogue(first.samples)).toEqual([]);
    expect(sampleValue(first.samples, 'nginx.connections_active')).toBeGreaterThanOrEqual(1);
    expect(sampleValue(first.samples, 'nginx.connections_writing')).toBeGreaterThanOrEqual(1);
    expect(sampleValue(first.samples, 'nginx.requests_rate')).toBeUndefined();
    await requests(nginx.port, '/index.html', 20);
    const t1 = t0 + 2000;
    const second = ok(await p.poll(t1));
    expect(outsideCatalogue(second.samples)).toEqual([]);
    // 20 page requests and the second status request, over the 2 s the poller was told passed.
    expect(sampleValue(second.samples, 'nginx.requests_rate')).toBe(10.5);
    expect(sampleValue(second.samples, 'nginx.connections_accepted_rate')).toBeGreaterThan(0);
    expect(sampleValue(second.samples, 'nginx.connections_dropped_rate')).toBe(0);
  });

  it('gives not_found for a wrong path and wrong_engine for a page that is not stub_status', async () => {
    const missing = await nginxPoller({ path: '/no_such_status' }).testConnection();
    expect(missing).toMatchObject({ ok: false, code: 'not_found' });
    if (!missing.ok) expect(missing.message).toContain(`127.0.0.1:${nginx.port}/no_such_status`);
    const page = await nginxPoller({ path: '/index.html' }).poll(Date.now());
    expect(page).toMatchObject({ ok: false, code: 'wrong_engine' });
  });

  it('gives wrong_engine pointed at an Apache status page, and Apache pointed at nginx', async () => {
    expect(await nginxPoller({ port: apache.port, path: '/server-status' }).testConnection()).toMatchObject({
      ok: false,
      code: 'wrong_engine',
    });
    expect(await apachePoller({ port: nginx.port, path: '/nginx_status' }).testConnection()).toMatchObject({
      ok: false,
      code: 'wrong_engine',
    });
  });

  it('gives connection_failed for a closed port and tls_error for https on a plain port', async () => {
    expect(await nginxPoller({ port: await freePort() }).testConnection()).toMatchObject({
      code: 'connection_failed',
    });
    expect(await nginxPoller({ tls: { enabled: true } }).testConnection()).toMatchObject({
      code: 'tls_error',
    });
  });
});

describe('Apache poller', () => {
  it('tests the connection and reads the version and MPM from ?auto', async () => {
    const result = await apachePoller().testConnection();
    expect(result).toMatchObject({ ok: true, details: { mpm: 'event', extended_status: true } });
    if (result.ok) expect(result.version).toMatch(/^2\.4\.\d+$/);
  });

  it('publishes workers and scoreboard, then request and traffic rates after requests', async () => {
    const p = apachePoller();
    const t0 = Date.now();
    const first = ok(await p.poll(t0));
    expect(outsideCatalogue(first.samples)).toEqual([]);
    expect(sampleValue(first.samples, 'apache.workers_busy')).toBeGreaterThanOrEqual(1);
    expect(sampleValue(first.samples, 'apache.workers_idle')).toBeGreaterThanOrEqual(1);
    expect(sampleValue(first.samples, 'apache.scoreboard', { state: 'sending' })).toBeGreaterThanOrEqual(1);
    expect(sampleValue(first.samples, 'apache.uptime')).toBeGreaterThanOrEqual(0);
    expect(sampleValue(first.samples, 'apache.requests_rate')).toBeUndefined();
    await requests(apache.port, '/index.html', 20);
    const second = ok(await p.poll(t0 + 2000));
    expect(outsideCatalogue(second.samples)).toEqual([]);
    // 20 page requests and the first status request over 2 s. Apache counts a request after its
    // response is sent, so the last page request may land after this reading.
    const rate = sampleValue(second.samples, 'apache.requests_rate');
    expect(rate).toBeGreaterThanOrEqual(10);
    expect(rate).toBeLessThanOrEqual(10.5);
    expect(sampleValue(second.samples, 'apache.sent_bytes_rate')).toBeGreaterThan(0);
    expect(sampleValue(second.samples, 'apache.request_duration_ms')).toBeGreaterThanOrEqual(0);
    expect(sampleValue(second.samples, 'apache.cpu_pct')).toBeGreaterThanOrEqual(0);
  });

  it('gives not_found for a wrong path', async () => {
    expect(await apachePoller({ path: '/no-such-status' }).testConnection()).toMatchObject({
      code: 'not_found',
    });
  });
});
