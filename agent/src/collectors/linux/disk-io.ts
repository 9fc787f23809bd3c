import type { Collector, SampleLike } from '../contract';
import { fields, percent, readProcText, round, toCount, warnUnparsed } from './proc';

/** The counters of one block device in /proc/diskstats that the agent reports. */
export interface DiskCounters {
  reads: number;
  /** Always 512-byte units, whatever the device's sector size. */
  sectorsRead: number;
  writes: number;
  sectorsWritten: number;
  /** Milliseconds the device had I/O in flight. */
  ioTicks: number;
}

/** The size of a /proc/diskstats sector, fixed by the kernel whatever the hardware sector size. */
export const DISKSTATS_SECTOR_BYTES = 512;

/**
 * Devices of /proc/diskstats by name. Lines need the 11 counters every kernel since 2.6.25 prints
 * (newer ones append discard and flush counters, which are ignored).
 */
export function parseDiskstats(text: string): { devices: Map<string, DiskCounters>; unparsed: string[] } {
  const devices = new Map<string, DiskCounters>();
  const unparsed: string[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const f = fields(line);
    const name = f[2];
    const n = f.slice(3, 14).map(toCount);
    if (name === undefined || n.length < 11 || n.some((v) => v === undefined)) {
      unparsed.push(line);
      continue;
    }
    const at = (i: number) => n[i] as number;
    devices.set(name, {
      reads: at(0),
      sectorsRead: at(2),
      writes: at(4),
      sectorsWritten: at(6),
      ioTicks: at(9),
    });
  }
  return { devices, unparsed };
}

/**
 * Whether a device of the listing is worth reporting: loop and RAM disks are left out, and so is a
 * partition whose whole disk is listed too (the disk already counts its I/O). Partitions are named
 * as the kernel names them: the disk plus a number (`sda1`), or plus `p` and a number when the disk
 * name ends in a digit (`nvme0n1p2`, `mmcblk0p1`, `md0p1`), so `nvme0n10` stays a namespace.
 */
export function reportedDevices(names: Iterable<string>): string[] {
  const all = new Set(names);
  const isPartition = (name: string) => {
    if (!/\d$/.test(name)) return false;
    for (let cut = name.length - 1; cut > 0; cut--) {
      const disk = name.slice(0, cut);
      const rest = name.slice(cut);
      if (!all.has(disk)) continue;
      const endsInDigit = /\d$/.test(disk);
      if (endsInDigit ? /^p\d+$/.test(rest) : /^\d+$/.test(rest)) return true;
    }
    return false;
  };
  return [...all].filter((name) => !/^(loop|ram)\d+$/.test(name) && !isPartition(name));
}

const OPS: ReadonlyArray<readonly [keyof DiskCounters, string, number]> = [
  ['reads', 'disk_io.read_ops_rate', 1],
  ['writes', 'disk_io.write_ops_rate', 1],
  ['sectorsRead', 'disk_io.read_bytes_rate', DISKSTATS_SECTOR_BYTES],
  ['sectorsWritten', 'disk_io.write_bytes_rate', DISKSTATS_SECTOR_BYTES],
];

/**
 * Per-device I/O from /proc/diskstats (label `device`): operations and bytes per second, and the
 * share of the interval the device was busy. Whole disks, device-mapper and md devices are kept;
 * see {@link reportedDevices}. Like the network collector, a device seen for the first time or whose
 * counters went backwards (re-attached, or a 32-bit counter wrapped) reports nothing until next run.
 */
export function diskIoCollector(): Collector {
  let previous: { at: number; devices: Map<string, DiskCounters> } | undefined;
  return {
    name: 'disk_io',
    async collect(ctx) {
      const text = await readProcText(ctx, 'diskstats');
      if (text === undefined) return [];
      const { devices, unparsed } = parseDiskstats(text);
      warnUnparsed(ctx, 'diskstats', unparsed);
      const prev = previous;
      previous = { at: ctx.now, devices };
      const ms = prev ? ctx.now - prev.at : 0;
      if (!prev || ms <= 0) return [];
      const seconds = ms / 1000;
      const samples: SampleLike[] = [];
      for (const device of reportedDevices(devices.keys())) {
        const cur = devices.get(device) as DiskCounters;
        const before = prev.devices.get(device);
        if (!before) continue;
        if ((Object.keys(cur) as (keyof DiskCounters)[]).some((k) => cur[k] < before[k])) {
          ctx.logger.debug({ device }, 'disk counters went backwards; skipping this interval');
          continue;
        }
        const l = { device };
        for (const [k, m, scale] of OPS) {
          samples.push({ m, l, v: round(((cur[k] - before[k]) * scale) / seconds, 3) });
        }
        // io_ticks can run a little ahead of the wall clock between two reads; a device is at most 100 % busy.
        const busy = percent(Math.min(cur.ioTicks - before.ioTicks, ms), ms);
        if (busy !== undefined) samples.push({ m: 'disk_io.busy_pct', l, v: busy });
      }
      return samples;
    },
  };
}
