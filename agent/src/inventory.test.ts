import type { NetworkInterfaceInfo } from 'node:os';
import { join } from 'node:path';
import { HostInventory } from '@flightdeck/schemas';
import { describe, expect, it } from 'vitest';
import {
  hostAddresses,
  inventoryReader,
  parseOsRelease,
  readInventory,
  stableJson,
  unameArchitecture,
} from './inventory';
import { FIXTURES, recordingLogger } from './testing/support';

const nic = (address: string, internal = false): NetworkInterfaceInfo =>
  ({ address, internal, family: address.includes(':') ? 'IPv6' : 'IPv4' }) as NetworkInterfaceInfo;
const INTERFACES = {
  lo: [nic('127.0.0.1', true), nic('::1', true)],
  eth0: [nic('fd00::2'), nic('fe80::1c2:3ff:fe04:506'), nic('192.0.2.2')],
  docker0: [nic('172.17.0.1')],
};

describe('readInventory', () => {
  it('describes the recorded host', () => {
    const { logger, warnings } = recordingLogger();
    const inventory = readInventory({
      procRoot: join(FIXTURES, 'host-1/proc'),
      logger,
      platform: 'linux',
      arch: 'x64',
      networkInterfaces: () => INTERFACES,
    });
    expect(HostInventory.parse(inventory)).toEqual({
      hostname: 'vm',
      os: 'Debian GNU/Linux 12 (bookworm)',
      os_version: '12',
      kernel: '6.18.44-fc-v445',
      platform: 'linux',
      architecture: 'x86_64',
      cores: 2,
      memory_bytes: 24_682_416 * 1024,
      swap_bytes: 0,
      ips: ['172.17.0.1', '192.0.2.2', 'fd00::2'],
      containerized: true,
    });
    expect(warnings()).toEqual([]);
  });

  it('falls back when files are missing, warning once per file across reads', () => {
    const { logger, warnings } = recordingLogger();
    const root = join(FIXTURES, 'missing/proc');
    const read = inventoryReader({ procRoot: root, logger, platform: 'win32', arch: 'arm64' });
    const inventory = read();
    read();
    expect(inventory).toMatchObject({
      os: 'Linux',
      platform: 'windows',
      architecture: 'aarch64',
      memory_bytes: 0,
    });
    expect(inventory.kernel).toBeUndefined();
    expect(warnings().map((w) => w.file)).toEqual([
      join(FIXTURES, 'missing/usr/lib/os-release'),
      join(root, 'sys/kernel/osrelease'),
      join(root, 'meminfo'),
      join(root, 'stat'),
    ]);
  });

  it('is not containerized when it reads /proc itself', () => {
    const { logger } = recordingLogger();
    expect(readInventory({ procRoot: '/proc', logger }).containerized).toBe(false);
  });
});

describe('inventory helpers', () => {
  it('maps Node architectures to uname names', () => {
    expect(
      ['x64', 'ia32', 'arm64', 'arm', 'riscv64', 's390x', 'loong64'].map((a) => unameArchitecture(a)),
    ).toEqual(['x86_64', 'i686', 'aarch64', 'armv7l', 'riscv64', 's390x', 'loongarch64']);
    expect(unameArchitecture('ppc64', true)).toBe('ppc64le');
    expect(unameArchitecture('ppc64', false)).toBe('ppc64');
  });

  it('reads os-release values, quoted or not', () => {
    const values = parseOsRelease('NAME="Ubuntu"\nVERSION_ID=24.04\nPRETTY_NAME=\'A \\"b\\"\'\n# c\n');
    expect(Object.fromEntries(values)).toEqual({ NAME: 'Ubuntu', VERSION_ID: '24.04', PRETTY_NAME: 'A "b"' });
  });

  it('lists external addresses IPv4 first, without loopback or IPv6 link-local', () => {
    expect(hostAddresses(INTERFACES)).toEqual(['172.17.0.1', '192.0.2.2', 'fd00::2']);
  });

  it('serialises equal objects equally whatever their key order', () => {
    expect(stableJson({ b: 1, a: { d: [2, 1], c: 3 } })).toBe(stableJson({ a: { c: 3, d: [2, 1] }, b: 1 }));
    expect(stableJson({ ips: ['a', 'b'] })).not.toBe(stableJson({ ips: ['b', 'a'] }));
  });
});
