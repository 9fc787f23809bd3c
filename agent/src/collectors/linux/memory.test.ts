import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureContext, recordingLogger, sampleValue, tempProcRoot } from '../../testing/support';
import { memoryCollector, parseMeminfo } from './memory';

const KB = 1024;

describe('memoryCollector', () => {
  it('reads memory and swap in bytes from the recorded /proc/meminfo', async () => {
    const { logger, warnings } = recordingLogger();
    const samples = await memoryCollector().collect(fixtureContext('vm-1', 1, logger));
    // MemTotal 24682416 kB, MemAvailable 24061220 kB, Cached 416192 kB, Buffers 11456 kB, no swap.
    expect(sampleValue(samples, 'mem.total_bytes')).toBe(24_682_416 * KB);
    expect(sampleValue(samples, 'mem.available_bytes')).toBe(24_061_220 * KB);
    expect(sampleValue(samples, 'mem.cached_bytes')).toBe(416_192 * KB);
    expect(sampleValue(samples, 'mem.buffers_bytes')).toBe(11_456 * KB);
    expect(sampleValue(samples, 'mem.used_bytes')).toBe(621_196 * KB);
    expect(sampleValue(samples, 'mem.used_pct')).toBe(2.52);
    expect(sampleValue(samples, 'swap.total_bytes')).toBe(0);
    expect(sampleValue(samples, 'swap.used_bytes')).toBe(0);
    // No swap configured: a percentage of nothing is left out rather than reported as 0.
    expect(sampleValue(samples, 'swap.used_pct')).toBeUndefined();
    expect(warnings()).toEqual([]);
  });

  it('reports swap use and estimates available memory on kernels without MemAvailable', async () => {
    const proc = await tempProcRoot('vm-1');
    try {
      await writeFile(
        join(proc.root, 'meminfo'),
        [
          'MemTotal:        1000000 kB',
          'MemFree:          200000 kB',
          'Buffers:           50000 kB',
          'Cached:           150000 kB',
          'SwapTotal:        400000 kB',
          'SwapFree:         300000 kB',
          'HugePages_Total:       0',
          '',
        ].join('\n'),
      );
      const { logger } = recordingLogger();
      const samples = await memoryCollector().collect({ procRoot: proc.root, now: 1, logger });
      expect(sampleValue(samples, 'mem.available_bytes')).toBe(400_000 * KB);
      expect(sampleValue(samples, 'mem.used_bytes')).toBe(600_000 * KB);
      expect(sampleValue(samples, 'mem.used_pct')).toBe(60);
      expect(sampleValue(samples, 'swap.used_bytes')).toBe(100_000 * KB);
      expect(sampleValue(samples, 'swap.free_bytes')).toBe(300_000 * KB);
      expect(sampleValue(samples, 'swap.used_pct')).toBe(25);
    } finally {
      await proc.remove();
    }
  });

  it('keeps the fields it understood and lists the lines it did not', () => {
    const { values, unparsed } = parseMeminfo('MemTotal: 10 kB\nbroken line\nCached: 2 MB\n');
    expect(values.get('MemTotal')).toBe(10 * KB);
    expect(unparsed).toEqual(['broken line', 'Cached: 2 MB']);
  });

  it('returns nothing and warns naming the file when /proc/meminfo is missing', async () => {
    const { logger, warnings } = recordingLogger();
    const ctx = fixtureContext('missing', 1, logger);
    expect(await memoryCollector().collect(ctx)).toEqual([]);
    expect(warnings().map((w) => w.file)).toEqual([join(ctx.procRoot, 'meminfo')]);
  });
});
