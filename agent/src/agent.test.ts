import { join } from 'node:path';
import { Heartbeat, type HostInventory, MetricBatch, PRODUCT_VERSION } from '@flightdeck/schemas';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAgent } from './agent';
import type { Collector } from './collectors/contract';
import { processCollector } from './collectors/linux/processes';
import { linuxCollectors } from './collectors/registry';
import {
  FIXTURES,
  fakeStatfs,
  recordingLogger,
  recordingTransport,
  sampleValue,
  tempProcRoot,
} from './testing/support';
import { TransportError } from './transport/contract';

const base = { tenant: 'acme', hostKey: 'web-01', intervalSeconds: 10 };
const constant = (name: string, v = 1): Collector => ({
  name,
  collect: async () => [{ m: `${name}.value`, v }],
});

afterEach(() => {
  vi.useRealTimers();
});

describe('createAgent runOnce', () => {
  it('publishes one valid batch of every collector, then a heartbeat, and rates from the second run', async () => {
    const proc = await tempProcRoot('vm-1');
    try {
      const { transport, batches, heartbeats } = recordingTransport();
      const { logger } = recordingLogger();
      const agent = createAgent({
        ...base,
        transport,
        procRoot: proc.root,
        logger,
        collectors: linuxCollectors({ filesystem: { statfs: fakeStatfs } }),
      });

      const first = await agent.runOnce();
      expect(first.published).toBe(true);
      expect(batches).toHaveLength(1);
      const b1 = MetricBatch.parse(batches[0]);
      expect(b1).toMatchObject({ v: 1, tenant: 'acme', host: 'web-01', source: 'agent' });
      expect(sampleValue(b1.samples, 'mem.total_bytes')).toBe(24_682_416 * 1024);
      expect(sampleValue(b1.samples, 'load.15m')).toBe(0.32);
      expect(sampleValue(b1.samples, 'disk.size_bytes', { mount: '/' })).toBe(4_096_000);
      // Rates need two readings.
      expect(b1.samples.some((s) => s.m.startsWith('cpu.') || s.m.startsWith('net.'))).toBe(false);

      await proc.load('vm-2');
      await agent.runOnce();
      const b2 = MetricBatch.parse(batches[1]);
      expect(sampleValue(b2.samples, 'cpu.total')).toBe(32.5);
      expect(sampleValue(b2.samples, 'system.uptime')).toBe(765.25);
      expect(sampleValue(b2.samples, 'net.rx_bytes_rate', { interface: 'eth0' })).toBeGreaterThan(0);
      expect(b2.ts).toBeGreaterThanOrEqual(b1.ts);

      expect(heartbeats).toHaveLength(2);
      expect(Heartbeat.parse(heartbeats[0])).toMatchObject({
        v: 1,
        tenant: 'acme',
        host: 'web-01',
        agent_version: PRODUCT_VERSION,
        interval_s: 10,
        spool_depth: 0,
        spool_dropped: 0,
      });
      expect(agent.stats()).toMatchObject({ runs: 2, published: 2, failed: 0, lastRunAt: b2.ts });
    } finally {
      await proc.remove();
    }
  });

  it('logs and counts a batch the transport rejects, still sends the heartbeat and keeps going', async () => {
    const { transport, batches, heartbeats, state } = recordingTransport();
    const { logger, lines } = recordingLogger();
    const agent = createAgent({ ...base, transport, logger, collectors: [constant('a')] });
    state.fail = new TransportError('bus down');
    const result = await agent.runOnce();
    expect(result.published).toBe(false);
    expect(agent.stats()).toMatchObject({ runs: 1, published: 0, failed: 1, heartbeatsFailed: 1 });
    expect(lines.find((l) => l.msg === 'metric batch not published')).toMatchObject({ err: 'bus down' });

    state.fail = undefined;
    await agent.runOnce();
    expect(batches).toHaveLength(1);
    expect(heartbeats).toHaveLength(1);
    expect(agent.stats()).toMatchObject({ runs: 2, published: 1, failed: 1 });
  });

  it('does not publish a batch that fails validation, and says which field', async () => {
    const { transport, batches, heartbeats } = recordingTransport();
    const { logger, lines } = recordingLogger();
    const bad: Collector = {
      name: 'bad',
      collect: async () => [{ m: 'bad.value', l: { 'Bad-Key': 'x' }, v: 1 }],
    };
    const agent = createAgent({ ...base, transport, logger, collectors: [bad] });
    await expect(agent.runOnce()).resolves.toMatchObject({ published: false });
    expect(batches).toEqual([]);
    expect(heartbeats).toHaveLength(1);
    expect(agent.stats().failed).toBe(1);
    expect(String(lines.find((l) => l.msg === 'metric batch not published')?.err)).toContain('samples[0].l');
  });

  it('sends only a heartbeat when no collector returned anything', async () => {
    const { transport, batches, heartbeats } = recordingTransport();
    const { logger } = recordingLogger();
    const failing: Collector = {
      name: 'failing',
      collect: async () => {
        throw new Error('nope');
      },
    };
    const agent = createAgent({ ...base, transport, logger, collectors: [failing] });
    expect(await agent.runOnce()).toEqual({ published: false, failedCollectors: ['failing'] });
    expect(batches).toEqual([]);
    expect(heartbeats).toHaveLength(1);
  });

  it('reports every run to onRun with the counters and the backlog, and survives a throwing callback', async () => {
    const { transport, state } = recordingTransport();
    const { logger, lines } = recordingLogger();
    const seen: unknown[] = [];
    let calls = 0;
    const agent = createAgent({
      ...base,
      transport: { ...transport, backlog: () => ({ depth: 3, dropped: 1 }) },
      logger,
      collectors: [constant('a')],
      onRun: (result, stats, backlog) => {
        calls++;
        if (calls === 2) throw new Error('disk full');
        seen.push({ published: result.published, runs: stats.runs, failed: stats.failed, backlog });
      },
    });
    await agent.runOnce();
    state.fail = new TransportError('bus down');
    await agent.runOnce();
    await agent.runOnce();
    expect(seen).toEqual([
      { published: true, runs: 1, failed: 0, backlog: { depth: 3, dropped: 1 } },
      { published: false, runs: 3, failed: 2, backlog: { depth: 3, dropped: 1 } },
    ]);
    expect(lines.find((l) => l.msg === 'the after-run callback failed')).toMatchObject({ err: 'disk full' });
  });

  it('refuses options that could never be published', () => {
    const { transport } = recordingTransport();
    expect(() => createAgent({ ...base, transport, tenant: 'acme.eu' })).toThrow(/tenant "acme.eu"/);
    expect(() => createAgent({ ...base, transport, hostKey: '' })).toThrow(/hostKey/);
    expect(() => createAgent({ ...base, transport, intervalSeconds: 0.5 })).toThrow(/intervalSeconds/);
  });
});

describe('createAgent on a schedule', () => {
  it('publishes at start and every interval, and stop() lets the last publish finish before closing', async () => {
    vi.useFakeTimers();
    vi.setSystemTime(Date.UTC(2026, 0, 1));
    const t0 = Date.now();
    const { transport, batches, state } = recordingTransport();
    const { logger } = recordingLogger();
    const agent = createAgent({ ...base, transport, logger, collectors: [constant('a'), constant('b', 2)] });

    await agent.start();
    expect(batches.map((b) => b.ts - t0)).toEqual([0]);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(batches.map((b) => b.ts - t0)).toEqual([0, 10_000, 20_000, 30_000]);
    expect(batches[0]?.samples).toEqual([
      { m: 'a.value', v: 1 },
      { m: 'b.value', v: 2 },
    ]);

    // The next publish takes 3 s; stop() is called in the middle of it.
    state.delayMs = 3_000;
    await vi.advanceTimersByTimeAsync(10_000);
    let stopped = false;
    const stopping = agent.stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(stopped).toBe(false);
    expect(state.closed).toBe(false);
    await vi.advanceTimersByTimeAsync(2_000);
    await stopping;
    expect(batches).toHaveLength(5);
    expect(state.closed).toBe(true);

    await vi.advanceTimersByTimeAsync(60_000);
    expect(batches).toHaveLength(5);
    expect(agent.stats()).toMatchObject({ runs: 5, published: 5 });
    await expect(agent.start()).rejects.toThrow(/stopped/);
  });

  it('queues a manual runOnce behind a scheduled run instead of overlapping it', async () => {
    vi.useFakeTimers();
    let active = 0;
    let maxActive = 0;
    const slow: Collector = {
      name: 'slow',
      collect: async () => {
        maxActive = Math.max(maxActive, ++active);
        await new Promise((r) => setTimeout(r, 1_000));
        active--;
        return [{ m: 'slow.value', v: 1 }];
      },
    };
    const { transport, batches } = recordingTransport();
    const agent = createAgent({ ...base, transport, logger: recordingLogger().logger, collectors: [slow] });
    const started = agent.start();
    const manual = agent.runOnce();
    await vi.advanceTimersByTimeAsync(2_000);
    await Promise.all([started, manual]);
    expect(batches).toHaveLength(2);
    expect(maxActive).toBe(1);
    await agent.stop();
  });
});

describe('createAgent heartbeat contents', () => {
  const inventoryOf = (ips: string[]): HostInventory => ({
    hostname: 'web-01',
    os: 'Debian GNU/Linux 12 (bookworm)',
    platform: 'linux',
    architecture: 'x86_64',
    cores: 2,
    memory_bytes: 1024,
    swap_bytes: 0,
    ips,
  });

  it('carries the inventory on the first heartbeat and again only when it changed', async () => {
    const { transport, heartbeats } = recordingTransport();
    let current = inventoryOf(['192.0.2.2']);
    const agent = createAgent({
      ...base,
      transport,
      logger: recordingLogger().logger,
      collectors: [constant('a')],
      // A new object every read, keys in another order: compared by content, not identity.
      inventory: () =>
        Object.fromEntries(Object.entries(structuredClone(current)).reverse()) as HostInventory,
    });
    await agent.runOnce();
    await agent.runOnce();
    current = inventoryOf(['192.0.2.2', '198.51.100.7']);
    await agent.runOnce();
    await agent.runOnce();
    expect(heartbeats.map((hb) => Heartbeat.parse(hb).inventory?.ips)).toEqual([
      ['192.0.2.2'],
      undefined,
      ['192.0.2.2', '198.51.100.7'],
      undefined,
    ]);
  });

  it('sends the inventory again after a heartbeat carrying it was not published', async () => {
    const { transport, heartbeats, state } = recordingTransport();
    const agent = createAgent({
      ...base,
      transport,
      logger: recordingLogger().logger,
      collectors: [constant('a')],
      inventory: () => inventoryOf(['192.0.2.2']),
    });
    state.fail = new TransportError('bus down');
    await agent.runOnce();
    state.fail = undefined;
    await agent.runOnce();
    await agent.runOnce();
    expect(heartbeats.map((hb) => hb.inventory !== undefined)).toEqual([true, false]);
  });

  it('reads the inventory of procRoot by default', async () => {
    const { transport, heartbeats } = recordingTransport();
    const agent = createAgent({
      ...base,
      transport,
      procRoot: join(FIXTURES, 'host-1/proc'),
      logger: recordingLogger().logger,
      collectors: [constant('a')],
    });
    await agent.runOnce();
    expect(heartbeats[0]?.inventory).toMatchObject({ os: 'Debian GNU/Linux 12 (bookworm)', cores: 2 });
  });

  it('carries the top processes of the process collector, and none when it failed', async () => {
    const { transport, heartbeats } = recordingTransport();
    const { logger } = recordingLogger();
    const proc = processCollector({ pageSize: 4096 });
    let fail = false;
    const flaky: Collector = {
      name: proc.name,
      collect: (ctx) => (fail ? Promise.reject(new Error('nope')) : proc.collect(ctx)),
      heartbeat: () => proc.heartbeat?.(),
    };
    const agent = createAgent({
      ...base,
      transport,
      procRoot: join(FIXTURES, 'host-1/proc'),
      logger,
      collectors: [flaky],
      inventory: false,
    });
    await agent.runOnce();
    fail = true;
    await agent.runOnce();
    const first = Heartbeat.parse(heartbeats[0]);
    expect(first.inventory).toBeUndefined();
    expect(first.top_processes?.by_memory.map((p) => p.pid).slice(0, 3)).toEqual([2934, 3769, 2186]);
    expect(heartbeats[1]?.top_processes).toBeUndefined();
  });
});
