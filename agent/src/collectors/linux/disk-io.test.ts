import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, recordingLogger, sampleValue } from '../../testing/support';
import type { CollectContext } from '../contract';
import { diskIoCollector, parseDiskstats, reportedDevices } from './disk-io';

const T0 = 1_795_268_000_000;
const host = (snapshot: string, now: number, logger: CollectContext['logger']): CollectContext => ({
  procRoot: join(FIXTURES, snapshot, 'proc'),
  now,
  logger,
});

describe('parseDiskstats', () => {
  it('reads every device of the recorded /proc/diskstats', async () => {
    const text = await readFile(join(FIXTURES, 'host-1/proc/diskstats'), 'utf8');
    const { devices, unparsed } = parseDiskstats(text);
    expect(unparsed).toEqual([]);
    expect(devices.size).toBe(10);
    expect(devices.get('vda')).toEqual({
      reads: 236_847,
      sectorsRead: 8_076_466,
      writes: 1_164_360,
      sectorsWritten: 116_193_984,
      ioTicks: 112_488,
    });
  });

  it('reads the 14-field lines of kernels before 4.18 and reports a truncated line', () => {
    const { devices, unparsed } = parseDiskstats(
      '   8       0 sda 10 0 80 5 20 0 160 7 0 9 12\n   8       1 sda1 4 0 8\n',
    );
    expect(devices.get('sda')).toEqual({
      reads: 10,
      sectorsRead: 80,
      writes: 20,
      sectorsWritten: 160,
      ioTicks: 9,
    });
    expect(unparsed).toEqual(['   8       1 sda1 4 0 8']);
  });
});

describe('reportedDevices', () => {
  it('keeps whole disks, device-mapper and md devices and drops loop and RAM disks', () => {
    expect(reportedDevices(['loop0', 'ram1', 'vda', 'zram0', 'dm-0', 'md127', 'sr0', 'xvda'])).toEqual([
      'vda',
      'zram0',
      'dm-0',
      'md127',
      'sr0',
      'xvda',
    ]);
  });

  it('drops a partition whose disk is listed, and keeps one whose disk is not', () => {
    expect(
      reportedDevices([
        'sda',
        'sda1',
        'sda10',
        'nvme0n1',
        'nvme0n1p1',
        'nvme0n10',
        'mmcblk0',
        'mmcblk0p2',
        'vdb3',
      ]),
    ).toEqual(['sda', 'nvme0n1', 'nvme0n10', 'mmcblk0', 'vdb3']);
  });
});

describe('diskIoCollector', () => {
  it('reports operations, bytes and busy time per second per device from two snapshots', async () => {
    const { logger, warnings } = recordingLogger();
    const disk = diskIoCollector();
    expect(await disk.collect(host('host-1', T0, logger))).toEqual([]);
    const samples = await disk.collect(host('host-2', T0 + 10_000, logger));
    const vda = { device: 'vda' };
    // host-2 is host-1 plus 1,000 reads of 20,480 sectors, 500 writes of 40,960 sectors, 2.5 s busy.
    expect(sampleValue(samples, 'disk_io.read_ops_rate', vda)).toBe(100);
    expect(sampleValue(samples, 'disk_io.write_ops_rate', vda)).toBe(50);
    expect(sampleValue(samples, 'disk_io.read_bytes_rate', vda)).toBe(1_048_576);
    expect(sampleValue(samples, 'disk_io.write_bytes_rate', vda)).toBe(2_097_152);
    expect(sampleValue(samples, 'disk_io.busy_pct', vda)).toBe(25);
    expect(sampleValue(samples, 'disk_io.busy_pct', { device: 'zram0' })).toBe(0);
    expect(new Set(samples.map((s) => s.l?.device))).toEqual(new Set(['vda', 'zram0']));
    expect(samples).toHaveLength(10);
    expect(warnings()).toEqual([]);
  });

  it('skips a device whose counters went backwards (re-attached or wrapped)', async () => {
    const { logger } = recordingLogger();
    const disk = diskIoCollector();
    await disk.collect(host('host-2', T0, logger));
    const samples = await disk.collect(host('host-1', T0 + 10_000, logger));
    expect(samples.filter((s) => s.l?.device === 'vda')).toEqual([]);
  });

  it('returns nothing and warns naming the file when /proc/diskstats is missing', async () => {
    const { logger, warnings } = recordingLogger();
    const ctx = host('missing', T0, logger);
    expect(await diskIoCollector().collect(ctx)).toEqual([]);
    expect(warnings().map((w) => w.file)).toEqual([join(ctx.procRoot, 'diskstats')]);
  });
});
