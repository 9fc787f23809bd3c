import type { MetricBatch } from '@flightdeck/schemas';
import { type JetStreamManager, jetstream, jetstreamManager, StorageType } from '@nats-io/jetstream';
import { connect, type NatsConnection, nanos } from '@nats-io/transport-node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Bus } from './contract';
import { createBus } from './index';
import { createNatsBus, type NatsBusOptions } from './nats';
import { type BusLogger, BusUnavailableError } from './shared';

// Kept apart from contract.test.ts on purpose: importing a test file would run its suites again.
const NATS_URL = process.env.NATS_TEST_URL ?? 'nats://127.0.0.1:4222';
const silentLogger: BusLogger = { warn() {}, error() {} };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function batch(i: number): MetricBatch {
  return {
    v: 1,
    tenant: 't1',
    host: 'h1',
    source: 'agent',
    ts: 1_700_000_000_000 + i,
    samples: [{ m: 'cpu.user', v: i }],
  };
}

async function waitFor(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

// NATS-only behaviour: what JetStream keeps across consumers and processes.
describe('NATS bus', () => {
  const runId = Math.random().toString(36).slice(2, 8);
  const streams: string[] = [];
  const opened: Bus[] = [];
  let admin: NatsConnection;
  let jsm: JetStreamManager;
  let n = 0;

  /** A stream and subject prefix of this test alone. */
  function world(): { options: NatsBusOptions; stream: string; prefix: string } {
    const id = `${runId}n${n++}`;
    const stream = `FD_METRICS_T${id.toUpperCase()}`;
    const prefix = `fdt${id}`;
    streams.push(stream);
    const options: NatsBusOptions = {
      servers: NATS_URL,
      stream,
      subjectPrefix: prefix,
      logger: silentLogger,
      retryBaseMs: 20,
      retryMaxMs: 100,
    };
    return { options, stream, prefix };
  }

  async function open(options: NatsBusOptions): Promise<Bus> {
    const bus = await createNatsBus(options);
    opened.push(bus);
    return bus;
  }

  beforeAll(async () => {
    admin = await connect({ servers: NATS_URL, timeout: 3_000 });
    jsm = await jetstreamManager(admin);
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((b) => b.close()));
  });
  afterAll(async () => {
    for (const s of streams) await jsm.streams.delete(s).catch(() => undefined);
    await admin.close();
  });

  it('creates the stream with file storage, 24 h max age and the metrics subjects', async () => {
    const { options, stream, prefix } = world();
    await open(options);
    const info = await jsm.streams.info(stream);
    expect(info.config.subjects).toEqual([`${prefix}.metrics.>`]);
    expect(info.config.storage).toBe(StorageType.File);
    expect(info.config.max_age).toBe(nanos(24 * 60 * 60 * 1000));
    // A second process finds it and leaves it as it is.
    await open(options);
    expect((await jsm.streams.info(stream)).config.subjects).toEqual([`${prefix}.metrics.>`]);
  });

  it('delivers batches published while no consumer ran once a consumer starts', async () => {
    const { options } = world();
    const producer = await open(options);
    for (let i = 0; i < 5; i++) await producer.publishMetrics(batch(i));
    await producer.close();

    const collector = await open(options);
    const got: number[] = [];
    await collector.consumeMetrics(async (b) => {
      got.push(b.ts);
    });
    await waitFor(() => got.length === 5, 'the stored batches');
    expect(got.sort()).toEqual([0, 1, 2, 3, 4].map((i) => batch(i).ts));
  });

  it('resumes a restarted consumer with the same durable without loss or repeats', async () => {
    const { options, stream } = world();
    const producer = await open(options);
    for (let i = 0; i < 10; i++) await producer.publishMetrics(batch(i));

    const first = await open(options);
    const before: number[] = [];
    const sub = await first.consumeMetrics(
      async (b) => {
        before.push(b.ts);
        await sleep(10);
      },
      { concurrency: 1 },
    );
    await waitFor(() => before.length >= 4, 'a few batches');
    // Unsubscribed, connection still open: its pull request must not swallow what comes next.
    await sub.unsubscribe();
    const handled = before.length;

    for (let i = 10; i < 15; i++) await producer.publishMetrics(batch(i));
    const second = await open(options);
    const after: number[] = [];
    await second.consumeMetrics(async (b) => {
      after.push(b.ts);
    });
    await waitFor(() => handled + after.length >= 15, 'the rest of the batches');
    await sleep(200);
    expect([...before, ...after].sort()).toEqual(Array.from({ length: 15 }, (_, i) => batch(i).ts));
    const info = await jsm.consumers.info(stream, 'collectors');
    expect(info.num_pending).toBe(0);
    expect(info.num_ack_pending).toBe(0);
  });

  it('has acknowledged every handled batch once close() resolves', async () => {
    const { options, stream } = world();
    const bus = await open(options);
    const got: MetricBatch[] = [];
    await bus.consumeMetrics(async (b) => {
      await sleep(50);
      got.push(b);
    });
    for (let i = 0; i < 3; i++) await bus.publishMetrics(batch(i));
    await waitFor(() => got.length === 3, 'the batches');
    await bus.close();
    const info = await jsm.consumers.info(stream, 'collectors');
    expect(info.num_ack_pending).toBe(0);
    expect(info.delivered.stream_seq).toBe(3);
  });

  it('terminates a message that is not JSON and passes its bytes to onInvalid', async () => {
    const { options, prefix, stream } = world();
    const bus = await open(options);
    const raws: unknown[] = [];
    const got: number[] = [];
    await bus.consumeMetrics(
      async (b) => {
        got.push(b.ts);
      },
      { onInvalid: (raw) => raws.push(raw) },
    );
    await jetstream(admin).publish(`${prefix}.metrics.t1.h1`, 'not json {');
    await bus.publishMetrics(batch(1));
    await waitFor(() => raws.length === 1 && got.length === 1, 'both messages');
    expect(raws[0]).toBeInstanceOf(Uint8Array);
    expect(new TextDecoder().decode(raws[0] as Uint8Array)).toBe('not json {');
    await sleep(300);
    expect(raws.length).toBe(1);
    expect((await jsm.consumers.info(stream, 'collectors')).num_ack_pending).toBe(0);
  });

  it('fails fast with a clear error when NATS is not reachable at start-up', async () => {
    const err = await createNatsBus({
      servers: 'nats://127.0.0.1:1',
      connectTimeoutMs: 1_000,
      logger: silentLogger,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BusUnavailableError);
    expect((err as Error).message).toContain('127.0.0.1:1');
  });

  it('createBus picks NATS for a URL and the in-process bus without one', async () => {
    const { options } = world();
    const nats = await createBus(NATS_URL, { ...options, logger: silentLogger });
    opened.push(nats);
    expect(nats.kind).toBe('nats');
    const local = await createBus(undefined, { logger: silentLogger });
    expect(local.kind).toBe('in-process');
    await local.close();
  });
});
