import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, fixtureContext, recordingLogger, sampleValue } from '../../testing/support';
import { networkCollector, parseNetDev } from './network';

const T0 = 1_795_268_000_000;

describe('parseNetDev', () => {
  it('reads each interface of the recorded /proc/net/dev', async () => {
    const text = await readFile(join(FIXTURES, 'vm-1/net/dev'), 'utf8');
    const { interfaces, unparsed } = parseNetDev(text);
    expect(unparsed).toEqual([]);
    expect([...interfaces.keys()]).toEqual(['lo', 'ifb0', 'ifb1', 'eth0']);
    expect(interfaces.get('eth0')).toEqual({
      rxBytes: 597_042_200,
      rxPackets: 18_213,
      rxErrors: 0,
      rxDrops: 0,
      txBytes: 1_238_528,
      txPackets: 11_267,
      txErrors: 0,
      txDrops: 0,
    });
  });

  it('reads a name glued to a long byte count, as old kernels print it', () => {
    const { interfaces } = parseNetDev('eth1:4294967296 2 0 0 0 0 0 0 7 1 0 0 0 0 0 0\n');
    expect(interfaces.get('eth1')).toMatchObject({ rxBytes: 4_294_967_296, txBytes: 7 });
  });
});

describe('networkCollector', () => {
  it('reports rates per second per interface from two snapshots, without the loopback', async () => {
    const { logger, warnings } = recordingLogger();
    const net = networkCollector();
    expect(await net.collect(fixtureContext('vm-1', T0, logger))).toEqual([]);
    const samples = await net.collect(fixtureContext('vm-2', T0 + 10_000, logger));
    const eth0 = { interface: 'eth0' };
    expect(sampleValue(samples, 'net.rx_bytes_rate', eth0)).toBe(125_000);
    expect(sampleValue(samples, 'net.tx_bytes_rate', eth0)).toBe(25_000);
    expect(sampleValue(samples, 'net.rx_packets_rate', eth0)).toBe(100);
    expect(sampleValue(samples, 'net.tx_packets_rate', eth0)).toBe(50);
    expect(sampleValue(samples, 'net.rx_errors_rate', eth0)).toBe(0.5);
    expect(sampleValue(samples, 'net.tx_errors_rate', eth0)).toBe(0);
    expect(sampleValue(samples, 'net.rx_drops_rate', eth0)).toBe(2);
    expect(sampleValue(samples, 'net.tx_drops_rate', eth0)).toBe(0.1);
    expect(sampleValue(samples, 'net.rx_bytes_rate', { interface: 'ifb0' })).toBe(0);
    // lo is left out, ifb1 disappeared, docker0 has no earlier reading yet.
    expect(new Set(samples.map((s) => s.l?.interface))).toEqual(new Set(['eth0', 'ifb0']));
    expect(samples).toHaveLength(16);
    expect(warnings()).toEqual([]);
  });

  it('skips an interface whose counters went backwards (re-created or wrapped)', async () => {
    const { logger } = recordingLogger();
    const net = networkCollector();
    await net.collect(fixtureContext('vm-2', T0, logger));
    const samples = await net.collect(fixtureContext('vm-1', T0 + 10_000, logger));
    expect(samples.filter((s) => s.l?.interface === 'eth0')).toEqual([]);
  });

  it('returns nothing and warns naming the file when /proc/net/dev is missing', async () => {
    const { logger, warnings } = recordingLogger();
    const ctx = fixtureContext('missing', T0, logger);
    expect(await networkCollector().collect(ctx)).toEqual([]);
    expect(warnings().map((w) => w.file)).toEqual([join(ctx.procRoot, 'net/dev')]);
  });
});
