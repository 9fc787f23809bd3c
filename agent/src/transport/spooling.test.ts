import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Bus, createNatsBus } from '@flightdeck/collector/bus';
import { startOwnNatsServer } from '@flightdeck/collector/testing';
import type { Heartbeat, MetricBatch } from '@flightdeck/schemas';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { openSpool } from '../spool';
import { createBusTransport } from './bus';
import { type Transport, TransportError, TransportRejectedError } from './contract';
import { createHttpTransport } from './http';
import { createSpoolingTransport } from './spooling';

const logger = pino({ level: 'silent' });
const silentBusLogger = { warn() {}, error() {} };
const dirs: string[] = [];
function spoolDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'fd-spooling-test-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const T0 = 1_767_225_600_000;
function batch(i: number): MetricBatch {
  return {
    v: 1,
    tenant: 'acme',
    host: 'web-01',
    source: 'agent',
    ts: T0 + i,
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
  ts: T0,
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function waitFor(check: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** A transport that is up or down as the test says, and refuses the batches it is told to. */
function fakeTransport(name: string) {
  const got: number[] = [];
  const heartbeats: Heartbeat[] = [];
  const state = { up: true, refuse: new Set<number>() };
  const transport: Transport = {
    async publishMetrics(b) {
      if (!state.up) throw new TransportError(`${name} down`);
      if (state.refuse.has(b.samples[0]!.v)) throw new TransportRejectedError(`${name} refuses`);
      got.push(b.samples[0]!.v);
    },
    async publishHeartbeat(hb) {
      if (!state.up) throw new TransportError(`${name} down`);
      heartbeats.push(hb);
    },
    backlog: () => ({ depth: 0, dropped: 0 }),
    async close() {},
  };
  return { transport, got, heartbeats, state };
}

describe('spooling transport', () => {
  it('uses the first transport that answers, in order', async () => {
    const nats = fakeTransport('nats');
    const http = fakeTransport('http');
    const spool = openSpool({ dir: spoolDir() });
    const t = createSpoolingTransport({ transports: [nats.transport, http.transport], spool, logger });
    await t.publishMetrics(batch(1));
    nats.state.up = false;
    await t.publishMetrics(batch(2));
    await t.publishHeartbeat(heartbeat);
    expect(nats.got).toEqual([1]);
    expect(http.got).toEqual([2]);
    expect(http.heartbeats).toHaveLength(1);
    expect(t.backlog()).toEqual({ depth: 0, dropped: 0 });
    await t.close();
  });

  it('spools what no transport takes and replays it in order before newer batches', async () => {
    const nats = fakeTransport('nats');
    const spool = openSpool({ dir: spoolDir() });
    const t = createSpoolingTransport({
      transports: [nats.transport],
      spool,
      logger,
      retryBaseMs: 50,
      retryMaxMs: 100,
    });
    nats.state.up = false;
    for (let i = 0; i < 5; i++) await t.publishMetrics(batch(i));
    // Heartbeats are not spooled: they fail.
    await expect(t.publishHeartbeat(heartbeat)).rejects.toThrow(TransportError);
    expect(t.backlog()).toEqual({ depth: 5, dropped: 0 });
    nats.state.up = true;
    // Published while the replay is due: goes behind the spool.
    await t.publishMetrics(batch(5));
    await t.drained();
    await t.publishMetrics(batch(6));
    expect(nats.got).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(t.backlog().depth).toBe(0);
    await t.close();
  });

  it('drops a spooled batch refused for good and goes on with the rest', async () => {
    const nats = fakeTransport('nats');
    const spool = openSpool({ dir: spoolDir() });
    const t = createSpoolingTransport({ transports: [nats.transport], spool, logger, retryBaseMs: 20 });
    nats.state.up = false;
    for (let i = 0; i < 4; i++) await t.publishMetrics(batch(i));
    nats.state.refuse.add(1);
    nats.state.up = true;
    await t.drained();
    expect(nats.got).toEqual([0, 2, 3]);
    expect(t.rejected).toBe(1);
    // A batch refused when sent directly is not spooled; the agent sees the refusal.
    await expect(t.publishMetrics(batch(1))).rejects.toThrow(TransportRejectedError);
    expect(t.backlog().depth).toBe(0);
    await t.close();
  });

  it('replays on the next start what a previous run spooled', async () => {
    const dir = spoolDir();
    const down = fakeTransport('nats');
    down.state.up = false;
    const first = createSpoolingTransport({
      transports: [down.transport],
      spool: openSpool({ dir }),
      logger,
    });
    for (let i = 0; i < 3; i++) await first.publishMetrics(batch(i));
    await first.close();

    const up = fakeTransport('nats');
    const second = createSpoolingTransport({ transports: [up.transport], spool: openSpool({ dir }), logger });
    expect(second.backlog().depth).toBe(3);
    await second.publishMetrics(batch(3));
    await second.drained();
    expect(up.got).toEqual([0, 1, 2, 3]);
    await second.close();
  });
});

describe('spooling transport over HTTP (local server answering 500, then 202, one batch 400)', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((r) => (server ? server.close(r) : r(undefined)));
    server = undefined;
  });

  it('keeps batches through 500s, drops the one the api refuses, delivers the rest in order', async () => {
    const accepted: number[] = [];
    let failing = true;
    server = createServer((req, res) => {
      let text = '';
      req.on('data', (c) => {
        text += c;
      });
      req.on('end', () => {
        const body = JSON.parse(text) as { batches: MetricBatch[] };
        res.setHeader('content-type', 'application/json');
        if (failing) {
          res.writeHead(500).end(JSON.stringify({ status: 'error', message: 'down', code: 'internal' }));
          return;
        }
        const bad = body.batches.findIndex((b) => b.samples[0]!.v === 3);
        if (bad >= 0) {
          res.writeHead(400).end(
            JSON.stringify({
              status: 'error',
              message: `batches[${bad}].samples[0].v: no`,
              code: 'validation',
            }),
          );
          return;
        }
        accepted.push(...body.batches.map((b) => b.samples[0]!.v));
        res.writeHead(202).end(JSON.stringify({ status: 'ok', data: { accepted: body.batches.length } }));
      });
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const spool = openSpool({ dir: spoolDir() });
    const http = createHttpTransport({ url, accessKey: 'key-123456', timeoutMs: 2_000 });
    const t = createSpoolingTransport({ transports: [http], spool, logger, retryBaseMs: 30, retryMaxMs: 60 });
    for (let i = 0; i < 8; i++) await t.publishMetrics(batch(i));
    expect(t.backlog().depth).toBe(8);
    failing = false;
    await t.drained();
    expect(accepted).toEqual([0, 1, 2, 4, 5, 6, 7]);
    expect(t.rejected).toBe(1);
    await t.close();
  });
});

/**
 * The fault "NATS stopped for 60 s: the agent spools and replays" (FD_FAULT_OUTAGE_MS shortens it
 * while working on the code), against a nats-server of its own: publishing
 * every 50 ms, the server is stopped, then started again on the same port and store. Every batch
 * must reach the stream, in the order published.
 */
const OUTAGE_MS = Number(process.env.FD_FAULT_OUTAGE_MS ?? 60_000);

describe('spooling transport against an own nats-server that is stopped and restarted', () => {
  it(
    `loses nothing and keeps the order through a ${OUTAGE_MS} ms NATS outage`,
    async () => {
      const nats = await startOwnNatsServer();
      const buses: Bus[] = [];
      try {
        const common = {
          servers: nats.url,
          stream: 'FD_METRICS_FAULT',
          subjectPrefix: 'fdfault',
          logger: silentBusLogger,
          connectTimeoutMs: 3_000,
        };
        const agentBus = await createNatsBus({ ...common, name: 'agent' });
        buses.push(agentBus);
        const spool = openSpool({ dir: spoolDir() });
        const t = createSpoolingTransport({
          transports: [createBusTransport(agentBus, { publishTimeoutMs: 1_000 })],
          spool,
          logger,
          retryBaseMs: 100,
          retryMaxMs: 500,
        });

        let published = 0;
        let maxDepth = 0;
        const publishFor = async (ms: number) => {
          const until = Date.now() + ms;
          while (Date.now() < until) {
            await t.publishMetrics(batch(published++));
            maxDepth = Math.max(maxDepth, t.backlog().depth);
            await sleep(50);
          }
        };
        await publishFor(500);
        await nats.stop();
        await publishFor(OUTAGE_MS);
        expect(t.backlog().depth).toBeGreaterThan(0);
        await nats.start();
        await publishFor(1_000);
        await t.drained();
        expect(t.backlog()).toEqual({ depth: 0, dropped: 0 });
        expect(maxDepth).toBeGreaterThan(OUTAGE_MS / 100);

        // Read the whole stream back through a collector's consumer, one at a time so order shows.
        const collectorBus = await createNatsBus({ ...common, name: 'collector' });
        buses.push(collectorBus);
        const seen: number[] = [];
        const sub = await collectorBus.consumeMetrics(
          async (b) => {
            seen.push(b.samples[0]!.v);
          },
          { concurrency: 1 },
        );
        const firsts = () => [...new Set(seen)];
        await waitFor(() => firsts().length >= published, `${published} batches on the stream`);
        await sub.unsubscribe();
        // A publish given up on during the disconnect may still be flushed by the client: a duplicate,
        // never a loss or a reordering (the store absorbs it). First arrivals are in publish order.
        expect(firsts()).toEqual(Array.from({ length: published }, (_, i) => i));
        await t.close();
      } finally {
        await Promise.allSettled(buses.map((b) => b.close()));
        await nats.dispose();
      }
    },
    OUTAGE_MS + 60_000,
  );
});
