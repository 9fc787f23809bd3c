import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureContext, recordingLogger } from '../../testing/support';
import { loadCollector, parseLoadavg } from './load';

describe('loadCollector', () => {
  it('reads the 1, 5 and 15 minute load averages of the recorded /proc/loadavg', async () => {
    const { logger } = recordingLogger();
    expect(await loadCollector().collect(fixtureContext('vm-1', 1, logger))).toEqual([
      { m: 'load.1m', v: 0.13 },
      { m: 'load.5m', v: 0.41 },
      { m: 'load.15m', v: 0.32 },
    ]);
  });

  it('rejects a line that is not three load averages', () => {
    expect(parseLoadavg('0.1 oops 0.3 1/2 3')).toBeUndefined();
  });

  it('returns nothing and warns naming the file when /proc/loadavg is missing', async () => {
    const { logger, warnings } = recordingLogger();
    const ctx = fixtureContext('missing', 1, logger);
    expect(await loadCollector().collect(ctx)).toEqual([]);
    expect(warnings().map((w) => w.file)).toEqual([join(ctx.procRoot, 'loadavg')]);
  });
});
