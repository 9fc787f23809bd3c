import { readFileSync } from 'node:fs';
import { arch, cpus, endianness, hostname, type NetworkInterfaceInfo, networkInterfaces } from 'node:os';
import { dirname, join } from 'node:path';
import { HostInventory } from '@flightdeck/schemas/wire';
import type { Logger } from 'pino';
import { parseMeminfo } from './collectors/linux/memory';
import { errorMessage } from './collectors/linux/proc';

export interface InventoryOptions {
  /** Where `/proc` is mounted, as for the collectors. */
  procRoot: string;
  /** The root holding `etc/os-release`; default the parent of `procRoot` (`/host` for `/host/proc`). */
  hostRoot?: string;
  logger: Logger;
  /** Default `process.platform`. */
  platform?: NodeJS.Platform;
  /** Default `os.arch()`. */
  arch?: string;
  /** Default `os.networkInterfaces()`. */
  networkInterfaces?: () => NodeJS.Dict<NetworkInterfaceInfo[]>;
}

/** `os.arch()` as `uname -m` spells it, which is what people recognise in an inventory. */
export function unameArchitecture(nodeArch: string, littleEndian = endianness() === 'LE'): string {
  switch (nodeArch) {
    case 'x64':
      return 'x86_64';
    case 'ia32':
      return 'i686';
    case 'arm64':
      return 'aarch64';
    case 'arm':
      return 'armv7l';
    case 'ppc64':
      return littleEndian ? 'ppc64le' : 'ppc64';
    case 'loong64':
      return 'loongarch64';
    default:
      return nodeArch; // riscv64, s390x, mips... are already spelt the uname way.
  }
}

function inventoryPlatform(platform: NodeJS.Platform): HostInventory['platform'] {
  if (platform === 'win32') return 'windows';
  return platform === 'linux' || platform === 'darwin' ? platform : 'other';
}

/** `KEY=value` lines of os-release, quotes and escapes removed. */
export function parseOsRelease(text: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const line of text.split('\n')) {
    const m = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (!m) continue;
    let v = (m[2] as string).trim();
    if (/^(["']).*\1$/.test(v)) v = v.slice(1, -1).replace(/\\(["'$`\\])/g, '$1');
    values.set(m[1] as string, v);
  }
  return values;
}

/** Addresses of the host's non-internal interfaces, IPv4 first; IPv6 link-local (fe80::) is left out. */
export function hostAddresses(interfaces: NodeJS.Dict<NetworkInterfaceInfo[]>): string[] {
  const addresses: string[] = [];
  for (const list of Object.values(interfaces)) {
    for (const a of list ?? []) if (!a.internal) addresses.push(a.address);
  }
  return orderAddresses(addresses);
}

/** Addresses once each as the inventory lists them: IPv4 first, no IPv6 link-local (fe80::), at most 64. */
export function orderAddresses(addresses: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const a of addresses) if (!/^fe80:/i.test(a) && a.length <= 64) out.add(a);
  const v4 = (a: string) => (a.includes(':') ? 1 : 0);
  return [...out].sort((a, b) => v4(a) - v4(b) || a.localeCompare(b)).slice(0, 64);
}

/**
 * What the host is (DESIGN section 1): name, OS, kernel, hardware and addresses. It reads a handful
 * of small files synchronously (cheaper than promises for files this size, and it keeps a heartbeat
 * from waiting on I/O). Files that cannot
 * be read are logged as warnings naming them and their fields fall back (`os` to "Linux", sizes to 0):
 * like a collector, this never throws.
 */
export function readInventory(options: InventoryOptions): HostInventory {
  return inventoryReader(options)();
}

/**
 * {@link readInventory} for an agent that reads it every run: a file that cannot be read is warned
 * about the first time only, not at every heartbeat.
 */
export function inventoryReader(options: InventoryOptions): () => HostInventory {
  const warned = new Set<string>();
  const read = (file: string, quiet = false): string | undefined => {
    try {
      return readFileSync(file, 'utf8');
    } catch (err) {
      if (!quiet && !warned.has(file))
        options.logger.warn({ file, err: errorMessage(err) }, `cannot read ${file}`);
      warned.add(file);
      return undefined;
    }
  };
  return () => collectInventory(options, read);
}

function collectInventory(
  options: InventoryOptions,
  read: (file: string, quiet?: boolean) => string | undefined,
): HostInventory {
  const { procRoot } = options;
  const hostRoot = options.hostRoot ?? dirname(procRoot);

  // /etc/os-release is the usual place; systemd documents /usr/lib/os-release as the fallback.
  const osRelease = parseOsRelease(
    read(join(hostRoot, 'etc/os-release'), true) ?? read(join(hostRoot, 'usr/lib/os-release')) ?? '',
  );
  const platform = inventoryPlatform(options.platform ?? process.platform);
  const kernel = read(join(procRoot, 'sys/kernel/osrelease'))?.trim();
  const name = read(join(procRoot, 'sys/kernel/hostname'), true)?.trim() || hostname();
  const meminfo = parseMeminfo(read(join(procRoot, 'meminfo')) ?? '').values;
  const stat = read(join(procRoot, 'stat'));
  // Cores of the host from /proc/stat (a container's os.cpus() may see only its own share).
  const cores = stat ? (stat.match(/^cpu\d+\s/gm)?.length ?? 0) : cpus().length;
  const osVersion = osRelease.get('VERSION_ID') ?? osRelease.get('VERSION');

  return HostInventory.parse({
    hostname: name.slice(0, 255),
    os: (osRelease.get('PRETTY_NAME') ?? osRelease.get('NAME') ?? 'Linux').slice(0, 255),
    ...(osVersion ? { os_version: osVersion.slice(0, 255) } : {}),
    ...(kernel ? { kernel: kernel.slice(0, 255) } : {}),
    platform,
    architecture: unameArchitecture(options.arch ?? arch()).slice(0, 32),
    cores,
    memory_bytes: meminfo.get('MemTotal') ?? 0,
    swap_bytes: meminfo.get('SwapTotal') ?? 0,
    ips: hostAddresses((options.networkInterfaces ?? networkInterfaces)()),
    containerized: procRoot !== '/proc',
  });
}

/** JSON with object keys sorted, so two equal inventories always compare equal as strings. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
