import {
  type AlertEvent,
  type CommandRequest,
  type Heartbeat,
  InvalidBatchError,
  type MetricBatch,
} from '@flightdeck/schemas';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Bus, CommandTimeoutError } from './contract';
import { createInProcessBus } from './in-process';
import { createNatsBus } from './nats';
import { BusClosedError, type BusLogger } from './shared';

const NATS_URL = process.env.NATS_TEST_URL ?? 'nats://127.0.0.1:4222';
const silentLogger: BusLogger = { warn() {}, error() {} };

/** One test's bus world: every bus `open()` returns shares the same metrics queue. */
interface BusWorld {
  /** A bus on this world: in-process, the one bus of the process; NATS, a new connection. */
  open(): Promise<Bus>;
  /** Puts a message on the metrics subject the way a foreign producer could, without validation. */
  injectRaw(value: unknown): Promise<void>;
}

function batch(i: number, over: Partial<MetricBatch> = {}): MetricBatch {
  return {
    v: 1,
    tenant: 't1',
    host: 'h1',
    source: 'agent',
    ts: 1_700_000_000_000 + i,
    samples: [
      { m: 'cpu.user', v: i },
      { m: 'disk.used_pct', l: { mount: '/' }, v: 50.5, t: 1_700_000_000_500 + i },
    ],
    ...over,
  };
}

async function waitFor(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

const heartbeat = (host: string): Heartbeat => ({
  v: 1,
  tenant: 't1',
  host,
  agent_version: '1.0.0',
  interval_s: 10,
  spool_depth: 0,
  spool_dropped: 0,
  ts: Date.now(),
});

const alertEvent = (tenant: string, id: number): AlertEvent => ({
  v: 1,
  kind: 'alert',
  tenant,
  event: 'new',
  alert: { id, server_id: 1, type_id: 1, status: 'R', text: 'cpu high', date_enter: 1 },
  ts: Date.now(),
});

const command = (id: string, deadlineInMs: number): CommandRequest => ({
  v: 1,
  id,
  tenant: 't1',
  command: 'connection_test',
  params: { host: 'db1' },
  deadline: Date.now() + deadlineInMs,
});

/** The contract every bus passes (collector/src/bus/contract.ts). */
function busContract(name: string, makeWorld: () => Promise<BusWorld>): void {
  describe(`bus contract: ${name}`, () => {
    let world: BusWorld;
    const opened: Bus[] = [];
    const open = async () => {
      const bus = await world.open();
      opened.push(bus);
      return bus;
    };

    beforeEach(async () => {
      world = await makeWorld();
    });
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((b) => b.close()));
    });

    it('delivers a published batch to the consumer exactly as it was published', async () => {
      const bus = await open();
      const got: MetricBatch[] = [];
      await bus.consumeMetrics(async (b) => {
        got.push(b);
      });
      const sent = batch(1, { service: 'mysql-main', source: 'poller' });
      await bus.publishMetrics(sent);
      await waitFor(() => got.length === 1, 'the batch');
      expect(got[0]).toEqual(sent);
    });

    it('acknowledges only after the handler resolves: a handler that throws gets the batch again', async () => {
      const bus = await open();
      const seen: number[] = [];
      let done = 0;
      await bus.consumeMetrics(async (b) => {
        seen.push(b.ts);
        if (seen.length === 1) throw new Error('store busy');
        done++;
      });
      await bus.publishMetrics(batch(7));
      await waitFor(() => done === 1, 'the redelivery');
      await sleep(300);
      expect(seen).toEqual([batch(7).ts, batch(7).ts]);
    });

    it('rejects a malformed batch at publish naming the field, and still delivers what came before', async () => {
      const bus = await open();
      await bus.publishMetrics(batch(1));
      const bad = batch(2);
      (bad.samples[1] as { v: unknown }).v = 'high';
      const err = await bus.publishMetrics(bad).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(InvalidBatchError);
      expect((err as InvalidBatchError).path).toBe('samples[1].v');
      await bus.publishMetrics(batch(3));

      const got: number[] = [];
      await bus.consumeMetrics(async (b) => {
        got.push(b.ts);
      });
      await waitFor(() => got.length >= 2, 'the valid batches');
      await sleep(200);
      expect(got.sort()).toEqual([batch(1).ts, batch(3).ts]);
    });

    it('hands a malformed message on the wire to onInvalid, never to the handler, and keeps going', async () => {
      const bus = await open();
      const got: number[] = [];
      const invalid: Error[] = [];
      await bus.consumeMetrics(
        async (b) => {
          got.push(b.ts);
        },
        { onInvalid: (_raw, e) => invalid.push(e), concurrency: 1 },
      );
      const bad = {
        ...batch(1),
        samples: [
          { m: 'cpu.user', v: 1 },
          { m: 'Not A Metric', v: 2 },
        ],
      };
      await world.injectRaw(bad);
      await world.injectRaw({ hello: 'world' });
      await bus.publishMetrics(batch(2));
      await waitFor(() => got.length === 1 && invalid.length === 2, 'the valid batch and two invalid ones');
      await sleep(200);
      expect(got).toEqual([batch(2).ts]);
      expect(invalid.length).toBe(2);
      expect(invalid[0]).toBeInstanceOf(InvalidBatchError);
      expect((invalid[0] as InvalidBatchError).path).toBe('samples[1].m');
    });

    it('shares the work between two consumers of the group without duplicates', async () => {
      const a = await open();
      const b = await open();
      const byA: number[] = [];
      const byB: number[] = [];
      const slow = (into: number[]) => async (m: MetricBatch) => {
        into.push(m.ts);
        await sleep(5);
      };
      await a.consumeMetrics(slow(byA), { concurrency: 1 });
      await b.consumeMetrics(slow(byB), { concurrency: 1 });
      const n = 40;
      for (let i = 0; i < n; i++) await a.publishMetrics(batch(i, { host: `h${i % 3}` }));
      await waitFor(() => byA.length + byB.length >= n, 'every batch');
      await sleep(300);
      const all = [...byA, ...byB].sort((x, y) => x - y);
      expect(all).toEqual(Array.from({ length: n }, (_, i) => batch(i).ts));
      expect(byA.length).toBeGreaterThan(0);
      expect(byB.length).toBeGreaterThan(0);
    });

    it('fans heartbeats out to every subscriber', async () => {
      const bus = await open();
      const other = await open();
      const one: Heartbeat[] = [];
      const two: Heartbeat[] = [];
      await bus.subscribeHeartbeats((hb) => one.push(hb));
      await other.subscribeHeartbeats((hb) => two.push(hb));
      const sent = heartbeat('web-1');
      await bus.publishHeartbeat(sent);
      await waitFor(() => one.length === 1 && two.length === 1, 'the heartbeat');
      expect(one[0]).toEqual(sent);
      expect(two[0]).toEqual(sent);
    });

    it('keeps publishing when a heartbeat subscriber throws', async () => {
      const bus = await open();
      const got: string[] = [];
      await bus.subscribeHeartbeats(() => {
        throw new Error('subscriber bug');
      });
      await bus.subscribeHeartbeats((hb) => got.push(hb.host));
      await bus.publishHeartbeat(heartbeat('a'));
      await bus.publishHeartbeat(heartbeat('b'));
      await waitFor(() => got.length === 2, 'both heartbeats');
      expect(got).toEqual(['a', 'b']);
    });

    it('delivers events to the subscribers of their tenant and to "*"', async () => {
      const bus = await open();
      const t1: number[] = [];
      const all: string[] = [];
      const t1Sub = await bus.subscribeEvents('t1', (e) => t1.push(e.alert.id));
      await bus.subscribeEvents('*', (e) => all.push(`${e.tenant}:${e.alert.id}`));
      await bus.publishEvent(alertEvent('t1', 1));
      await bus.publishEvent(alertEvent('t2', 2));
      await waitFor(() => all.length === 2 && t1.length === 1, 'the events');
      await t1Sub.unsubscribe();
      await bus.publishEvent(alertEvent('t1', 3));
      await waitFor(() => all.length === 3, 'the third event');
      await sleep(100);
      expect(t1).toEqual([1]);
      expect(all).toEqual(['t1:1', 't2:2', 't1:3']);
    });

    it('answers a command through a server of the worker, shared between its servers', async () => {
      const api = await open();
      const workerA = await open();
      const workerB = await open();
      const served = { a: 0, b: 0 };
      const serve = (who: 'a' | 'b') => async (req: CommandRequest) => {
        served[who]++;
        return {
          v: 1 as const,
          id: req.id,
          status: 'ok' as const,
          data: { echo: req.params, who },
          ts: Date.now(),
        };
      };
      await workerA.serveCommands('w1', serve('a'));
      await workerB.serveCommands('w1', serve('b'));
      for (let i = 0; i < 20; i++) {
        const reply = await api.request('w1', command(`c${i}`, 2_000));
        expect(reply).toMatchObject({ v: 1, id: `c${i}`, status: 'ok', data: { echo: { host: 'db1' } } });
      }
      expect(served.a + served.b).toBe(20);
      expect(served.a).toBeGreaterThan(0);
      expect(served.b).toBeGreaterThan(0);
    });

    it('turns a command handler that throws into an error reply', async () => {
      const bus = await open();
      await bus.serveCommands('w2', async () => {
        throw new Error('access denied for user monitor');
      });
      const reply = await bus.request('w2', command('x1', 2_000));
      expect(reply).toMatchObject({ id: 'x1', status: 'error', message: 'access denied for user monitor' });
    });

    it('times out a command nobody serves, or that is not answered before its deadline', async () => {
      const bus = await open();
      const started = Date.now();
      await expect(bus.request('nobody', command('n1', 300))).rejects.toBeInstanceOf(CommandTimeoutError);
      expect(Date.now() - started).toBeLessThan(2_000);

      await bus.serveCommands('slow', async (req) => {
        await sleep(1_000);
        return { v: 1, id: req.id, status: 'ok', ts: Date.now() };
      });
      const t0 = Date.now();
      const err = await bus.request('slow', command('s1', 200)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CommandTimeoutError);
      expect((err as CommandTimeoutError).worker).toBe('slow');
      expect(Date.now() - t0).toBeLessThan(900);
    });

    it('close() waits for the handler in flight to finish, then refuses new messages', async () => {
      const bus = await open();
      const gate = deferred();
      let started = 0;
      let finished = 0;
      await bus.consumeMetrics(async () => {
        started++;
        await gate.promise;
        finished++;
      });
      await bus.publishMetrics(batch(1));
      await waitFor(() => started === 1, 'the handler to start');
      let closed = false;
      const closing = bus.close().then(() => {
        closed = true;
      });
      await sleep(200);
      expect(closed).toBe(false);
      gate.resolve();
      await closing;
      expect(finished).toBe(1);
      await expect(bus.publishMetrics(batch(2))).rejects.toBeInstanceOf(BusClosedError);
      expect((await bus.health()).state).toBe('down');
    });

    it('reports itself healthy while open', async () => {
      const bus = await open();
      expect((await bus.health()).state).toBe('ok');
    });
  });
}

busContract('in-process', async () => {
  const bus = createInProcessBus({ logger: silentLogger, retryBaseMs: 20, retryMaxMs: 100 });
  return {
    open: async () => bus,
    injectRaw: async (value) => bus.injectRawMetrics(value),
  };
});

describe('NATS JetStream (real server)', () => {
  const runId = Math.random().toString(36).slice(2, 8);
  const streams: string[] = [];
  let admin: NatsConnection;
  let n = 0;

  beforeAll(async () => {
    admin = await connect({ servers: NATS_URL, timeout: 3_000 }).catch((err: Error) => {
      throw new Error(`NATS with JetStream must run at ${NATS_URL} for these tests: ${err.message}`);
    });
  });
  afterAll(async () => {
    const jsm = await jetstreamManager(admin);
    for (const s of streams) await jsm.streams.delete(s).catch(() => undefined);
    await admin.close();
  });

  busContract('nats', async () => {
    const id = `${runId}${n++}`;
    const stream = `FD_METRICS_T${id.toUpperCase()}`;
    const subjectPrefix = `fdt${id}`;
    streams.push(stream);
    const js = jetstream(admin);
    return {
      open: () =>
        createNatsBus({
          servers: NATS_URL,
          stream,
          subjectPrefix,
          name: 'bus-contract-test',
          logger: silentLogger,
          retryBaseMs: 20,
          retryMaxMs: 100,
        }),
      injectRaw: async (value) => {
        await js.publish(`${subjectPrefix}.metrics.t1.h1`, JSON.stringify(value));
      },
    };
  });
});

describe('in-process bus specifics', () => {
  it('drops the oldest batch when the queue is full and reports it as degraded', async () => {
    const bus = createInProcessBus({ maxQueuedBatches: 3, logger: silentLogger });
    for (let i = 1; i <= 5; i++) await bus.publishMetrics(batch(i));
    const health = await bus.health();
    expect(health.state).toBe('degraded');
    expect(health.detail).toContain('2 metric batches dropped');
    const got: number[] = [];
    await bus.consumeMetrics(async (b) => {
      got.push(b.ts);
    });
    await waitFor(() => got.length === 3, 'the kept batches');
    expect(got).toEqual([batch(3).ts, batch(4).ts, batch(5).ts]);
    await bus.close();
  });

  it('close() delivers what is still queued to the active consumer before it resolves', async () => {
    const bus = createInProcessBus({ logger: silentLogger });
    const gate = deferred();
    const got: number[] = [];
    await bus.consumeMetrics(
      async (b) => {
        await gate.promise;
        got.push(b.ts);
      },
      { concurrency: 1 },
    );
    for (let i = 1; i <= 4; i++) await bus.publishMetrics(batch(i));
    const closing = bus.close();
    await sleep(50);
    gate.resolve();
    await closing;
    expect(got).toEqual([1, 2, 3, 4].map((i) => batch(i).ts));
  });

  it('keeps a batch whose handler throws without holding back the ones behind it', async () => {
    const bus = createInProcessBus({ logger: silentLogger, retryBaseMs: 100 });
    const got: number[] = [];
    let failedOnce = false;
    await bus.consumeMetrics(
      async (b) => {
        if (b.ts === batch(1).ts && !failedOnce) {
          failedOnce = true;
          throw new Error('store busy');
        }
        got.push(b.ts);
      },
      { concurrency: 1 },
    );
    for (let i = 1; i <= 3; i++) await bus.publishMetrics(batch(i));
    await waitFor(() => got.length === 3, 'all batches');
    expect(got).toEqual([2, 3, 1].map((i) => batch(i).ts));
    await bus.close();
  });

  it('holds batches until a consumer exists and hands the consumer a copy', async () => {
    const bus = createInProcessBus({ logger: silentLogger });
    const sent = batch(1);
    await bus.publishMetrics(sent);
    sent.samples[0]!.v = 999;
    sent.samples[0]!.l = { changed: 'yes' };
    sent.samples.push({ m: 'late.added', v: 1 });
    const got: MetricBatch[] = [];
    await sleep(20);
    await bus.consumeMetrics(async (b) => {
      got.push(b);
    });
    await waitFor(() => got.length === 1, 'the batch');
    expect(got[0]).toEqual(batch(1));
    await bus.close();
  });
});
