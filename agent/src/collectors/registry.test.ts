import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { metricByName } from '@flightdeck/schemas';
import { describe, expect, it } from 'vitest';
import { FIXTURES, fakeStatfs, fixtureContext, recordingLogger, sampleValue } from '../testing/support';
import { defaultCollectors, hostProbes, linuxCollectors } from './registry';

describe('linuxCollectors', () => {
  it('publishes only metrics of the catalogue, with the labels the catalogue lists', async () => {
    const { logger } = recordingLogger();
    const collectors = linuxCollectors({ filesystem: { statfs: fakeStatfs } });
    const collectAll = async (ctx: ReturnType<typeof fixtureContext>) =>
      (await Promise.all(collectors.map((c) => c.collect(ctx)))).flat();
    await collectAll(fixtureContext('vm-1', 1_000, logger));
    const samples = await collectAll(fixtureContext('vm-2', 11_000, logger));

    const names = new Set(samples.map((s) => s.m));
    for (const name of [
      'cpu.total',
      'load.1m',
      'mem.used_pct',
      'disk.used_pct',
      'net.rx_bytes_rate',
      'system.uptime',
    ]) {
      expect(names).toContain(name);
    }
    for (const s of samples) {
      const def = metricByName(s.m);
      expect(def, s.m).toBeDefined();
      for (const key of Object.keys(s.l ?? {})) expect(def?.labels ?? [], `${s.m}{${key}}`).toContain(key);
    }
  });

  it('reads disk I/O, TCP states and processes of the recorded host and ranks its top processes', async () => {
    const { logger } = recordingLogger();
    const collectors = linuxCollectors({ filesystem: { statfs: fakeStatfs }, processes: { pageSize: 4096 } });
    const collectAll = async (snapshot: string, now: number) =>
      (
        await Promise.all(
          collectors.map((c) => c.collect({ procRoot: join(FIXTURES, snapshot, 'proc'), now, logger })),
        )
      ).flat();
    await collectAll('host-1', 1_000);
    const samples = await collectAll('host-2', 11_000);
    expect(sampleValue(samples, 'disk_io.read_ops_rate', { device: 'vda' })).toBe(100);
    expect(sampleValue(samples, 'tcp.connections', { state: 'listen' })).toBe(11);
    expect(sampleValue(samples, 'proc.count')).toBe(8);
    for (const s of samples) expect(metricByName(s.m), s.m).toBeDefined();
    const proc = collectors.find((c) => c.name === 'processes');
    expect(proc?.heartbeat?.()?.top_processes?.by_cpu[0]).toMatchObject({ pid: 2934, cpu_pct: 40 });
  });

  it('gives every call its own instances, so two agents never share a previous reading', () => {
    const [a] = linuxCollectors();
    const [b] = linuxCollectors();
    expect(a?.name).toBe('cpu');
    expect(a).not.toBe(b);
  });

  it('refuses a platform it has no collectors for', () => {
    expect(() => defaultCollectors('darwin')).toThrow(/no collectors for darwin/);
  });
});

describe('hostProbes', () => {
  it('gives Windows its collectors and inventory, starting no shell before the first run', async () => {
    const probes = hostProbes('win32', { dockerSocket: false });
    expect(probes.collectors.map((c) => c.name)).toEqual([
      'cpu',
      'memory',
      'filesystem',
      'disk_io',
      'network',
      'system',
      'services',
    ]);
    expect(probes.inventory?.().platform).toBe('windows');
    await probes.close();
  });

  it('adds the Docker collector on Linux only when the Engine socket is there', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fd-registry-'));
    const socketPath = join(dir, 'docker.sock');
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    try {
      const names = (options: Parameters<typeof hostProbes>[1]) =>
        hostProbes('linux', options).collectors.map((c) => c.name);
      expect(names({ dockerSocket: socketPath })).toContain('docker');
      expect(names({ dockerSocket: join(dir, 'absent.sock') })).not.toContain('docker');
      expect(names({ dockerSocket: false })).not.toContain('docker');
      expect(hostProbes('linux', { dockerSocket: false }).inventory).toBeUndefined();
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    }
  });
});
