import { describe, expect, it } from 'vitest';
import { recordingLogger, sampleValue } from '../../testing/support';
import type { SampleLike } from '../contract';
import { linuxCollectors } from '../registry';

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

    expect(samples.some((s) => s.l?.interface === 'lo')).toBe(false);
    for (const s of samples.filter((x) => x.m.startsWith('net.'))) expect(s.v, s.m).toBeGreaterThanOrEqual(0);
  });
});
