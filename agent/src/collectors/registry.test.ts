import { join } from 'node:path';
import { metricByName } from '@flightdeck/schemas';
import { describe, expect, it } from 'vitest';
import { FIXTURES, fakeStatfs, fixtureContext, recordingLogger, sampleValue } from '../testing/support';
import { defaultCollectors, linuxCollectors } from './registry';

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
    expect(() => defaultCollectors('win32')).toThrow(/no collectors for win32/);
  });
});
