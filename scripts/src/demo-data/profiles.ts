import type { HostInventory } from '@flightdeck/schemas';

/** What a demo host does; it sets its size, its daily rhythm and which disks and links work hardest. */
export type HostRole = 'web' | 'db' | 'batch';

const GIB = 1024 ** 3;

export interface MountProfile {
  mount: string;
  /** Block device the mount lives on (a key of `devices`), so filling it shows as writes there. */
  device: string;
  sizeBytes: number;
  /** Share of the usable space in use at the start of the range. */
  usedAtStart: number;
  /** Share of the usable space written per day at full activity. */
  growthPerDay: number;
  /** Share of the blocks reserved for root (ext4 keeps 5 % by default, XFS none). */
  reserved: number;
  /** Average file size, for inode use. */
  bytesPerFile: number;
  /** Logs and backups: most of a day's growth is compressed or pruned away at midnight. */
  rotatesDaily?: boolean;
  /** What drives the writes: the host's activity (default) or the nightly backup. */
  growsWith?: 'activity' | 'backup';
}

export interface DeviceProfile {
  device: string;
  /** Operations per second at full activity. */
  readOps: number;
  writeOps: number;
  readKibPerOp: number;
  writeKibPerOp: number;
  /** Operations per second the device is 100 % busy at. */
  maxOps: number;
}

export interface InterfaceProfile {
  interface: string;
  ip: string;
  /** Bytes per second at full activity. */
  rxBytes: number;
  txBytes: number;
  /** Average packet sizes, to turn bytes into packets. */
  rxPacketBytes: number;
  txPacketBytes: number;
}

export interface HostProfile {
  role: HostRole;
  cores: number;
  memBytes: number;
  swapBytes: number;
  /** CPU busy % (user + system + steal) when idle and at full activity. */
  cpuIdle: number;
  cpuPeak: number;
  /** Share of busy time spent in the kernel. */
  systemShare: number;
  /** iowait % at full disk activity. */
  iowaitPeak: number;
  /** Memory in use (share of the total) when idle and at full activity. */
  memIdle: number;
  memPeak: number;
  /** Share of the memory left over that the page cache fills once warm. */
  cacheShare: number;
  swapUsed: number;
  mounts: MountProfile[];
  devices: DeviceProfile[];
  interfaces: InterfaceProfile[];
  tcp: { established: [number, number]; timeWait: number; listen: number };
  processes: [number, number];
  inventory: Omit<HostInventory, 'hostname' | 'cores' | 'memory_bytes' | 'swap_bytes' | 'ips' | 'platform'>;
}

const DEBIAN = {
  os: 'Debian GNU/Linux 12 (bookworm)',
  os_version: '12',
  kernel: '6.1.0-28-amd64',
  architecture: 'x86_64',
} as const;
const UBUNTU = {
  os: 'Ubuntu 22.04.4 LTS',
  os_version: '22.04',
  kernel: '5.15.0-105-generic',
  architecture: 'x86_64',
} as const;

/** Profiles by role; `n` (0, 1, 2...) varies addresses so two hosts of a role are told apart. */
export function profileOf(role: HostRole, n: number): HostProfile {
  const octet = 10 + n;
  switch (role) {
    case 'web':
      return {
        role,
        cores: 4,
        memBytes: 8 * GIB,
        swapBytes: 2 * GIB,
        cpuIdle: 4,
        cpuPeak: 58,
        systemShare: 0.3,
        iowaitPeak: 1.5,
        memIdle: 0.38,
        memPeak: 0.62,
        cacheShare: 0.55,
        swapUsed: 0.04,
        mounts: [
          rootMount('vda', 40 * GIB, 0.41),
          {
            mount: '/var/log',
            device: 'vda',
            sizeBytes: 20 * GIB,
            usedAtStart: 0.3,
            growthPerDay: 0.05,
            reserved: 0.05,
            bytesPerFile: 2 * 1024 ** 2,
            rotatesDaily: true,
          },
        ],
        devices: [
          { device: 'vda', readOps: 40, writeOps: 160, readKibPerOp: 24, writeKibPerOp: 12, maxOps: 3000 },
        ],
        interfaces: [
          {
            interface: 'eth0',
            ip: `10.20.1.${octet}`,
            rxBytes: 4.5e6,
            txBytes: 22e6,
            rxPacketBytes: 420,
            txPacketBytes: 1150,
          },
        ],
        tcp: { established: [40, 900], timeWait: 1400, listen: 9 },
        processes: [160, 260],
        inventory: DEBIAN,
      };
    case 'db':
      return {
        role,
        cores: 8,
        memBytes: 32 * GIB,
        swapBytes: 4 * GIB,
        cpuIdle: 6,
        cpuPeak: 48,
        systemShare: 0.18,
        iowaitPeak: 9,
        memIdle: 0.55,
        memPeak: 0.68,
        cacheShare: 0.85,
        swapUsed: 0.08,
        mounts: [
          rootMount('nvme0n1', 50 * GIB, 0.36),
          {
            mount: '/var/lib/postgresql',
            device: 'nvme1n1',
            sizeBytes: 500 * GIB,
            usedAtStart: 0.58,
            growthPerDay: 0.006,
            reserved: 0,
            bytesPerFile: 64 * 1024 ** 2,
          },
          {
            mount: '/backup',
            device: 'nvme1n1',
            sizeBytes: 1000 * GIB,
            usedAtStart: 0.47,
            growthPerDay: 0.03,
            reserved: 0.05,
            bytesPerFile: 512 * 1024 ** 2,
            rotatesDaily: true,
            growsWith: 'backup',
          },
        ],
        devices: [
          {
            device: 'nvme0n1',
            readOps: 30,
            writeOps: 120,
            readKibPerOp: 16,
            writeKibPerOp: 16,
            maxOps: 40000,
          },
          {
            device: 'nvme1n1',
            readOps: 2600,
            writeOps: 1800,
            readKibPerOp: 8,
            writeKibPerOp: 16,
            maxOps: 9000,
          },
        ],
        interfaces: [
          {
            interface: 'eth0',
            ip: `10.20.2.${octet}`,
            rxBytes: 9e6,
            txBytes: 26e6,
            rxPacketBytes: 310,
            txPacketBytes: 1300,
          },
          {
            interface: 'eth1',
            ip: `10.30.2.${octet}`,
            rxBytes: 0.3e6,
            txBytes: 1.5e6,
            rxPacketBytes: 90,
            txPacketBytes: 1400,
          },
        ],
        tcp: { established: [60, 320], timeWait: 60, listen: 6 },
        processes: [190, 330],
        inventory: UBUNTU,
      };
    case 'batch':
      return {
        role,
        cores: 16,
        memBytes: 64 * GIB,
        swapBytes: 8 * GIB,
        cpuIdle: 2,
        cpuPeak: 86,
        systemShare: 0.08,
        iowaitPeak: 6,
        memIdle: 0.12,
        memPeak: 0.78,
        cacheShare: 0.6,
        swapUsed: 0.01,
        mounts: [
          rootMount('sda', 60 * GIB, 0.29),
          {
            mount: '/data',
            device: 'sdb',
            sizeBytes: 2000 * GIB,
            usedAtStart: 0.52,
            growthPerDay: 0.02,
            reserved: 0.05,
            bytesPerFile: 96 * 1024 ** 2,
          },
        ],
        devices: [
          { device: 'sda', readOps: 20, writeOps: 60, readKibPerOp: 32, writeKibPerOp: 16, maxOps: 2500 },
          { device: 'sdb', readOps: 600, writeOps: 450, readKibPerOp: 256, writeKibPerOp: 256, maxOps: 1200 },
        ],
        interfaces: [
          {
            interface: 'ens3',
            ip: `10.20.3.${octet}`,
            rxBytes: 60e6,
            txBytes: 9e6,
            rxPacketBytes: 1350,
            txPacketBytes: 280,
          },
        ],
        tcp: { established: [12, 90], timeWait: 40, listen: 4 },
        processes: [140, 420],
        inventory: DEBIAN,
      };
  }
}

function rootMount(device: string, sizeBytes: number, usedAtStart: number): MountProfile {
  return {
    mount: '/',
    device,
    sizeBytes,
    usedAtStart,
    growthPerDay: 0.002,
    reserved: 0.05,
    bytesPerFile: 96 * 1024,
  };
}

/** Roles of hosts 0, 1, 2...: web servers are the most common, then databases, then batch workers. */
const ROLE_CYCLE: readonly HostRole[] = [
  'web',
  'db',
  'batch',
  'web',
  'web',
  'db',
  'web',
  'batch',
  'web',
  'db',
];

export interface DemoHost {
  /** The bus host token, e.g. `web-02`. */
  key: string;
  role: HostRole;
  profile: HostProfile;
  inventory: HostInventory;
}

/** The `count` demo hosts, named by role and number (`web-01`, `db-01`, `batch-01`, `web-02`...). */
export function demoHosts(count: number): DemoHost[] {
  const seen: Record<HostRole, number> = { web: 0, db: 0, batch: 0 };
  const hosts: DemoHost[] = [];
  for (let i = 0; i < count; i++) {
    const role = ROLE_CYCLE[i % ROLE_CYCLE.length]!;
    const n = seen[role]++;
    const key = `${role}-${String(n + 1).padStart(2, '0')}`;
    const profile = profileOf(role, n);
    hosts.push({
      key,
      role,
      profile,
      inventory: {
        hostname: `${key}.demo.internal`,
        ...profile.inventory,
        platform: 'linux',
        cores: profile.cores,
        memory_bytes: profile.memBytes,
        swap_bytes: profile.swapBytes,
        ips: profile.interfaces.map((i) => i.ip),
      },
    });
  }
  return hosts;
}

/** A bell of height 1 centred on `centre` hours, `width` hours wide (one standard deviation). */
function bump(hour: number, centre: number, width: number): number {
  const z = (hour - centre) / width;
  return Math.exp(-0.5 * z * z);
}

/** 1 inside [from, to) hours, rising and falling over `ramp` hours at each end. */
function window(hour: number, from: number, to: number, ramp: number): number {
  if (hour < from || hour >= to) return 0;
  return Math.min(1, (hour - from) / ramp, (to - hour) / ramp);
}

/** Office hours: a morning and an afternoon peak with a lunch dip; Saturdays and Sundays much quieter. */
export function businessActivity(hour: number, weekday: number): number {
  const day = weekday === 6 ? 0.35 : weekday === 0 ? 0.25 : 1;
  return Math.min(1, 0.95 * bump(hour, 10.5, 1.7) + 0.9 * bump(hour, 15, 2)) * day;
}

/**
 * How busy a host of `role` is at a local hour (0-24) of a weekday (0 Sunday), from 0 to 1. Web
 * servers and databases follow office hours; the database also has its nightly backup; batch
 * workers run their jobs at night, every day, with a longer run on Sunday.
 */
export function activity(role: HostRole, hour: number, weekday: number): number {
  const office = businessActivity(hour, weekday);
  switch (role) {
    case 'web':
      return 0.06 + 0.94 * office;
    case 'db':
      return 0.1 + 0.8 * office;
    case 'batch':
      return Math.min(1, 0.05 + 0.2 * office + 0.85 * window(hour, 1, weekday === 0 ? 6 : 4.5, 0.4));
  }
}

/** The database's nightly backup (02:00-03:15): reads its data disk, writes /backup, sends on eth1. */
export function backupActivity(role: HostRole, hour: number): number {
  return role === 'db' ? window(hour, 2, 3.25, 0.1) : 0;
}
