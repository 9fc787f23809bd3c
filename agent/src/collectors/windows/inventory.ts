import { arch, cpus, hostname, networkInterfaces, release, totalmem, version } from 'node:os';
import { HostInventory } from '@flightdeck/schemas/wire';
import { hostAddresses, orderAddresses, unameArchitecture } from '../../inventory';
import { type CimRow, num, text, type WindowsDocument } from './parse';
import { ADAPTER_CONFIGURATION, COMPUTER_SYSTEM, OPERATING_SYSTEM } from './script';

/** What Node itself knows of the host: the inventory until PowerShell has answered, and its fallbacks. */
export interface NodeHostFacts {
  hostname: string;
  /** `os.version()`: the product name on Windows, e.g. "Windows Server 2022 Standard". */
  osName: string;
  /** `os.release()`: "10.0.20348" on Windows. */
  osRelease: string;
  /** `os.arch()`. */
  arch: string;
  cores: number;
  memoryBytes: number;
  ips: string[];
}

export function nodeHostFacts(): NodeHostFacts {
  return {
    hostname: hostname(),
    osName: version(),
    osRelease: release(),
    arch: arch(),
    cores: cpus().length,
    memoryBytes: totalmem(),
    ips: hostAddresses(networkInterfaces()),
  };
}

const first = (doc: WindowsDocument | undefined, cls: string): CimRow | undefined =>
  doc?.classes.get(cls)?.[0];
const clip = (s: string, n: number) => s.trim().slice(0, n);

/**
 * A Windows host's inventory from the document of a run that read the inventory classes
 * (Win32_OperatingSystem, Win32_ComputerSystem, Win32_NetworkAdapterConfiguration), each field
 * falling back to what Node knows when a class or a property is missing. The architecture comes from
 * Node, spelt as on Linux (`x86_64`, `aarch64`): OSArchitecture is translated ("64 bits" in Spanish).
 */
export function windowsInventory(doc: WindowsDocument | undefined, facts: NodeHostFacts): HostInventory {
  const os = first(doc, OPERATING_SYSTEM);
  const computer = first(doc, COMPUTER_SYSTEM);
  const addresses: string[] = [];
  for (const adapter of doc?.classes.get(ADAPTER_CONFIGURATION) ?? []) {
    const list = adapter.IPAddress;
    // One address may come as a bare string rather than an array of one.
    for (const a of Array.isArray(list) ? list : [list]) if (typeof a === 'string') addresses.push(a);
  }
  const visibleKib = num(os?.TotalVisibleMemorySize);
  const pageFileKib = num(os?.SizeStoredInPagingFiles);
  const osVersion = text(os?.Version) ?? facts.osRelease;
  return HostInventory.parse({
    hostname: clip(text(os?.CSName) || facts.hostname, 255) || 'unknown-host',
    os: clip(text(os?.Caption) || facts.osName || 'Windows', 255),
    ...(osVersion ? { os_version: clip(osVersion, 255) } : {}),
    platform: 'windows',
    architecture: unameArchitecture(facts.arch).slice(0, 32),
    cores: num(computer?.NumberOfLogicalProcessors) ?? facts.cores,
    memory_bytes:
      num(computer?.TotalPhysicalMemory) ??
      (visibleKib !== undefined ? visibleKib * 1024 : facts.memoryBytes),
    swap_bytes: pageFileKib !== undefined ? pageFileKib * 1024 : 0,
    ips: addresses.length > 0 ? orderAddresses(addresses) : facts.ips,
  });
}
