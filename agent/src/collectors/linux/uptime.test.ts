import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureContext, recordingLogger } from '../../testing/support';
import { parseUptime, uptimeCollector } from './uptime';

describe('uptimeCollector', () => {
  it('reads the seconds since boot of the recorded /proc/uptime', async () => {
    const { logger } = recordingLogger();
    const uptime = uptimeCollector();
    expect(await uptime.collect(fixtureContext('vm-1', 1, logger))).toEqual([
      { m: 'system.uptime', v: 755.25 },
    ]);
    expect(await uptime.collect(fixtureContext('vm-2', 2, logger))).toEqual([
      { m: 'system.uptime', v: 765.25 },
    ]);
  });

  it('rejects text that is not a number of seconds', () => {
    expect(parseUptime('soon 12.0')).toBeUndefined();
  });

  it('returns nothing and warns naming the file when /proc/uptime is missing', async () => {
    const { logger, warnings } = recordingLogger();
    const ctx = fixtureContext('missing', 1, logger);
    expect(await uptimeCollector().collect(ctx)).toEqual([]);
    expect(warnings().map((w) => w.file)).toEqual([join(ctx.procRoot, 'uptime')]);
  });
});
