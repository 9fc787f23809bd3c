import { cpus, release, totalmem } from 'node:os';
import { describe, expect, it } from 'vitest';
import { readInventory } from '../../inventory';
import { recordingLogger, sampleValue } from '../../testing/support';
import type { SampleLike } from '../contract';
import { linuxCollectors } from '../registry';
import { processCollector } from './processes';

/** The collectors against the live /proc of the machine running the tests: sane ranges, no exact values. */
describe.skipIf(process.platform !== 'linux')('linux collectors on this machine', () => {
  it('read /proc and statfs and report values in sane ranges', async () => {
    const { logger } = recordingLogger();
    const collectors = linuxCollectors();
    const collectAll = async () => {
      const ctx = { procRoot: '/proc', now: Date.now(), logger };
      return (await Promise.all(collectors.map((c) => c.collect(ctx)))).flat();
    };
    await collectAll();
    await new Promise((r) => setTimeout(r, 300));
    const samples = await collectAll();
    const all = (m: string) => samples.filter((s: SampleLike) => s.m === m).map((s) => s.v);

    const cpuTotal = sampleValue(samples, 'cpu.total');
    expect(cpuTotal).toBeGreaterThanOrEqual(0);
    expect(cpuTotal).toBeLessThanOrEqual(100);
    for (const m of ['cpu.user', 'cpu.system', 'cpu.idle', 'cpu.iowait', 'cpu.steal']) {
      for (const v of all(m)) expect(v, m).toSatisfy((x: number) => x >= 0 && x <= 100);
    }
    expect(samples.some((s) => s.m === 'cpu.total' && s.l?.core === '0')).toBe(true);

    const total = sampleValue(samples, 'mem.total_bytes') ?? 0;
    expect(total).toBeGreaterThan(64 * 1024 * 1024);
    expect(sampleValue(samples, 'mem.used_bytes')).toBeLessThanOrEqual(total);
    expect(sampleValue(samples, 'mem.used_pct')).toSatisfy((x: number) => x > 0 && x < 100);
    expect(sampleValue(samples, 'swap.total_bytes')).toBeGreaterThanOrEqual(0);

    for (const m of ['load.1m', 'load.5m', 'load.15m'])
      expect(sampleValue(samples, m), m).toBeGreaterThanOrEqual(0);
    expect(sampleValue(samples, 'system.uptime')).toBeGreaterThan(0);

    const rootUsed = sampleValue(samples, 'disk.used_pct', { mount: '/' });
    expect(rootUsed).toSatisfy((x: number) => x >= 0 && x <= 100);
    expect(sampleValue(samples, 'disk.size_bytes', { mount: '/' })).toBeGreaterThan(0);
    expect(samples.some((s) => s.m === 'disk.used_pct' && s.l?.mount === '/proc')).toBe(false);

    for (const m of [
      'disk_io.read_ops_rate',
      'disk_io.write_ops_rate',
      'disk_io.read_bytes_rate',
      'disk_io.write_bytes_rate',
    ])
      for (const v of all(m)) expect(v, m).toBeGreaterThanOrEqual(0);
    for (const v of all('disk_io.busy_pct')) expect(v).toSatisfy((x: number) => x >= 0 && x <= 100);
    expect(samples.some((s) => s.m.startsWith('disk_io.') && /^(loop|ram)\d/.test(s.l?.device ?? ''))).toBe(
      false,
    );
    expect(all('tcp.connections')).toHaveLength(11);
    for (const v of all('tcp.connections')) expect(v).toBeGreaterThanOrEqual(0);
    const processes = sampleValue(samples, 'proc.count') ?? 0;
    expect(processes).toBeGreaterThan(1);
    expect(sampleValue(samples, 'proc.running')).toBeGreaterThanOrEqual(0);
    expect(sampleValue(samples, 'proc.blocked')).toBeGreaterThanOrEqual(0);
    const top = collectors.find((c) => c.name === 'processes')?.heartbeat?.()?.top_processes;
    expect(top?.by_memory.length).toBe(Math.min(10, processes));
    const sorted = (top?.by_memory ?? []).map((p) => p.mem_bytes);
    expect(sorted).toEqual([...sorted].sort((a, b) => b - a));
    // This test's own process, found in a list long enough to hold every process.
    const everyone = processCollector({ top: 100_000 });
    await everyone.collect({ procRoot: '/proc', now: Date.now(), logger });
    const me = everyone.heartbeat?.()?.top_processes?.by_memory.find((p) => p.pid === process.pid);
    const rss = process.memoryUsage().rss;
    expect(me?.mem_bytes).toSatisfy((x: number) => x > rss / 2 && x < rss * 2);
    expect(me?.command).toContain('node');
    for (const p of [...(top?.by_cpu ?? []), ...(top?.by_memory ?? [])]) {
      expect(p.cpu_pct).toSatisfy((x: number) => x >= 0 && x <= 100 * 1024);
      expect(p.user).not.toBe('');
    }
    const inventory = readInventory({ procRoot: '/proc', logger });
    expect(inventory.cores).toBe(cpus().length);
    expect(inventory.memory_bytes).toBe(totalmem());
    expect(inventory.kernel).toBe(release());

    expect(samples.some((s) => s.l?.interface === 'lo')).toBe(false);
    for (const s of samples.filter((x) => x.m.startsWith('net.'))) expect(s.v, s.m).toBeGreaterThanOrEqual(0);
  });
});
