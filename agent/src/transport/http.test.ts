import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Heartbeat, MetricBatch } from '@flightdeck/schemas';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TransportError, TransportRejectedError } from './contract';
import { createHttpTransport } from './http';

function batch(i: number): MetricBatch {
  return {
    v: 1,
    tenant: 'acme',
    host: 'web-01',
    source: 'agent',
    ts: 1_767_225_600_000 + i,
    samples: [{ m: 'cpu.user', v: i }],
  };
}
const heartbeat: Heartbeat = {
  v: 1,
  tenant: 'acme',
  host: 'web-01',
  agent_version: '0.1.0',
  interval_s: 10,
  spool_depth: 0,
  spool_dropped: 0,
  ts: 1_767_225_600_000,
};

interface Received {
  path: string;
  authorization: string | undefined;
  body: { batches: MetricBatch[]; heartbeat?: Heartbeat };
}

/** A real HTTP server that answers as the test says: 202, 500, 400 with the api's envelope, or never. */
describe('HTTP transport against a local server', () => {
  let server: Server;
  let url: string;
  const received: Received[] = [];
  let answer: { status: number; body: unknown } | 'hang' = { status: 202, body: {} };

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res) => {
      let text = '';
      req.on('data', (c) => {
        text += c;
      });
      req.on('end', () => {
        received.push({
          path: req.url ?? '',
          authorization: req.headers.authorization,
          body: JSON.parse(text),
        });
        if (answer === 'hang') return;
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  beforeEach(() => {
    received.length = 0;
  });

  it('posts batches and heartbeats to /api/ingest with the access key', async () => {
    answer = { status: 202, body: { status: 'ok', data: { accepted: 1 } } };
    const t = createHttpTransport({ url, accessKey: 'key-123456' });
    await t.publishMetrics(batch(1));
    await t.publishHeartbeat(heartbeat);
    expect(received).toEqual([
      { path: '/api/ingest', authorization: 'Bearer key-123456', body: { batches: [batch(1)] } },
      { path: '/api/ingest', authorization: 'Bearer key-123456', body: { batches: [], heartbeat } },
    ]);
    await t.close();
  });

  it('sends many batches in requests of at most 100', async () => {
    answer = { status: 202, body: { status: 'ok', data: { accepted: 100 } } };
    const t = createHttpTransport({ url, accessKey: 'key-123456' });
    await t.publishMetricsMany!(Array.from({ length: 250 }, (_, i) => batch(i)));
    expect(received.map((r) => r.body.batches.length)).toEqual([100, 100, 50]);
    expect(received.flatMap((r) => r.body.batches.map((b) => b.samples[0]!.v))).toEqual(
      Array.from({ length: 250 }, (_, i) => i),
    );
    await t.close();
  });

  it('fails on a 5xx so a spool keeps the batch', async () => {
    answer = { status: 500, body: { status: 'error', message: 'store down', code: 'internal' } };
    const t = createHttpTransport({ url, accessKey: 'key-123456' });
    const err = await t.publishMetrics(batch(1)).catch((e) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect(err).not.toBeInstanceOf(TransportRejectedError);
    expect(err.message).toContain('store down');
    await t.close();
  });

  it('refuses for good on a 4xx, with the server message and the field path', async () => {
    answer = {
      status: 400,
      body: {
        status: 'error',
        message: 'batches[0].samples[0].v: expected a finite number',
        code: 'validation',
      },
    };
    const warnings: string[] = [];
    const t = createHttpTransport({
      url,
      accessKey: 'key-123456',
      logger: { warn: (_o: object, msg?: string) => warnings.push(msg ?? '') } as never,
    });
    const err = await t.publishMetrics(batch(1)).catch((e) => e);
    expect(err).toBeInstanceOf(TransportRejectedError);
    expect(err.message).toContain('batches[0].samples[0].v');
    expect(warnings.join()).toContain('batches[0].samples[0].v');
    await t.close();
  });

  it('keeps the batch (spoolable failure) when the access key is refused, and says so', async () => {
    answer = { status: 401, body: { status: 'error', message: 'Unknown access key.', code: 'unauthorized' } };
    const errors: string[] = [];
    const t = createHttpTransport({
      url,
      accessKey: 'key-123456',
      logger: { warn: () => {}, error: (_o: object, msg?: string) => errors.push(msg ?? '') } as never,
    });
    const err = await t.publishMetrics(batch(1)).catch((e) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect(err).not.toBeInstanceOf(TransportRejectedError);
    expect(errors.join()).toContain('AGENT_ACCESS_KEY');
    await t.close();
  });

  it('fails when the server does not answer in time, or nobody listens', async () => {
    answer = 'hang';
    const t = createHttpTransport({ url, accessKey: 'key-123456', timeoutMs: 200 });
    const err = await t.publishMetrics(batch(1)).catch((e) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect(err.message).toContain('no answer within 200 ms');
    const nobody = createHttpTransport({ url: 'http://127.0.0.1:9', accessKey: 'key-123456' });
    const refused = await nobody.publishMetrics(batch(1)).catch((e) => e);
    expect(refused).toBeInstanceOf(TransportError);
    expect(refused).not.toBeInstanceOf(TransportRejectedError);
    await t.close();
    await nobody.close();
    await expect(t.publishMetrics(batch(2))).rejects.toThrow(/closed/);
  });
});
