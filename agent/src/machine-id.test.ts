import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MachineId } from '@flightdeck/schemas';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashMachineId, machineIdFiles, readMachineId } from './machine-id';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'fd-agent-machine-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('readMachineId', () => {
  it('hashes the first machine-id file that holds an id, never sending the id itself', () => {
    const etc = join(dir, 'machine-id');
    const dbus = join(dir, 'dbus-machine-id');
    writeFileSync(dbus, '0123456789abcdef0123456789abcdef\n');
    writeFileSync(etc, 'uninitialized\n');
    const id = readMachineId({ files: [etc, dbus], platform: 'linux', hostname: 'h' });
    expect(id.source).toBe(dbus);
    expect(id.id).toBe(hashMachineId('0123456789abcdef0123456789abcdef'));
    expect(id.id).not.toContain('0123456789abcdef');
    expect(MachineId.safeParse(id.id).success).toBe(true);
    writeFileSync(etc, 'fedcba9876543210fedcba9876543210\n');
    expect(readMachineId({ files: [etc, dbus], platform: 'linux', hostname: 'h' }).source).toBe(etc);
  });

  it('takes the MachineGuid on Windows', () => {
    const id = readMachineId({
      platform: 'win32',
      windowsMachineGuid: () => '6F9619FF-8B86-D011-B42D-00C04FC964FF',
      hostname: 'h',
    });
    expect(id).toEqual({ id: hashMachineId('6f9619ff-8b86-d011-b42d-00c04fc964ff'), source: 'registry' });
  });

  it('keeps a random id in the fallback file when the system has none, and the host name without one', () => {
    const fallbackFile = join(dir, 'state/machine-id');
    const first = readMachineId({
      files: [join(dir, 'absent')],
      fallbackFile,
      platform: 'linux',
      hostname: 'h',
    });
    expect(first.source).toBe(fallbackFile);
    expect(readFileSync(fallbackFile, 'utf8')).toMatch(/^[0-9a-f-]{36}\n$/);
    expect(readMachineId({ files: [], fallbackFile, platform: 'linux', hostname: 'h' }).id).toBe(first.id);
    const byName = readMachineId({
      files: [],
      platform: 'win32',
      windowsMachineGuid: () => undefined,
      hostname: 'h',
    });
    expect(byName.source).toBe('hostname');
  });

  it('looks under the host root', () => {
    expect(machineIdFiles('/rootfs')).toEqual(['/rootfs/etc/machine-id', '/rootfs/var/lib/dbus/machine-id']);
  });
});
