import { HostInventory } from '@flightdeck/schemas';
import { describe, expect, it } from 'vitest';
import { fixtureDocument } from './fixtures/load';
import { type NodeHostFacts, nodeHostFacts, windowsInventory } from './inventory';

const FACTS: NodeHostFacts = {
  hostname: 'node-name',
  osName: 'Windows Server 2022 Standard',
  osRelease: '10.0.20348',
  arch: 'x64',
  cores: 4,
  memoryBytes: 17_179_869_184,
  ips: ['10.9.9.9'],
};

describe('windowsInventory', () => {
  it('describes the host from Win32_OperatingSystem, Win32_ComputerSystem and the adapters', () => {
    const inventory = windowsInventory(fixtureDocument('server-2022-1.out'), FACTS);
    expect(inventory).toEqual({
      hostname: 'WIN-APP01',
      os: 'Microsoft Windows Server 2022 Standard',
      os_version: '10.0.20348',
      platform: 'windows',
      architecture: 'x86_64',
      cores: 2,
      memory_bytes: 8_589_463_552,
      swap_bytes: 1_310_720 * 1024,
      // IPv4 first, IPv6 link-local left out.
      ips: ['10.20.0.15', '192.168.56.10', 'fd00:56::10'],
    });
    expect(HostInventory.safeParse(inventory).success).toBe(true);
  });

  it('reads one adapter written as an object, and sizes written as strings', () => {
    expect(windowsInventory(fixtureDocument('one-cpu-vm.out'), FACTS)).toMatchObject({
      hostname: 'CORE-01',
      os: 'Microsoft Windows Server 2019 Datacenter',
      cores: 1,
      swap_bytes: 0,
      ips: ['172.31.7.44'],
    });
    expect(windowsInventory(fixtureDocument('other-shapes.out'), FACTS).memory_bytes).toBe(8_589_463_552);
  });

  it('falls back to what Node knows before PowerShell has answered', () => {
    expect(windowsInventory(undefined, { ...FACTS, arch: 'arm64' })).toEqual({
      hostname: 'node-name',
      os: 'Windows Server 2022 Standard',
      os_version: '10.0.20348',
      platform: 'windows',
      architecture: 'aarch64',
      cores: 4,
      memory_bytes: 17_179_869_184,
      swap_bytes: 0,
      ips: ['10.9.9.9'],
    });
  });

  it('builds a valid inventory from the facts of the machine running the tests', () => {
    expect(HostInventory.safeParse(windowsInventory(undefined, nodeHostFacts())).success).toBe(true);
  });
});
