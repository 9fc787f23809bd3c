import { execFileSync } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * systemd asks applications not to send the machine id itself but a keyed hash of it, so the id
 * cannot be matched with other applications' records.
 */
const HASH_KEY = 'flightdeck-agent machine id v1';

export interface MachineIdOptions {
  /** Files tried in order; the first holding an id wins. Default {@link machineIdFiles}. */
  files?: readonly string[];
  platform?: NodeJS.Platform;
  /** Windows: reads the registry's MachineGuid; default `reg query`. Replaced in tests. */
  windowsMachineGuid?: () => string | undefined;
  /**
   * Holds a random id made on first use when the system has none (a container, a stripped image,
   * Windows without `reg`). Absent: the host name stands in.
   */
  fallbackFile?: string;
  hostname: string;
}

export interface MachineId {
  /** The keyed SHA-256 of the raw id, hex: what the api receives. */
  id: string;
  /** Where the raw id came from, for messages: a file, `registry`, or `hostname`. */
  source: string;
}

/** `/etc/machine-id` and the older D-Bus copy, under the host's root (`/rootfs` in a container). */
export function machineIdFiles(hostRoot = '/'): string[] {
  return [join(hostRoot, 'etc/machine-id'), join(hostRoot, 'var/lib/dbus/machine-id')];
}

function readId(file: string): string | undefined {
  try {
    const value = readFileSync(file, 'utf8').trim();
    // systemd writes "uninitialized" until first boot completes.
    return value !== '' && value !== 'uninitialized' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** `reg query` of HKLM\SOFTWARE\Microsoft\Cryptography MachineGuid; undefined when it cannot be read. */
export function registryMachineGuid(): string | undefined {
  try {
    const out = execFileSync(
      'reg',
      ['query', 'HKLM\\SOFTWARE\\Microsoft\\Cryptography', '/v', 'MachineGuid'],
      { encoding: 'utf8', timeout: 5_000, windowsHide: true, stdio: ['ignore', 'pipe', 'ignore'] },
    );
    return /MachineGuid\s+REG_SZ\s+(\S+)/i.exec(out)?.[1];
  } catch {
    return undefined;
  }
}

export function hashMachineId(raw: string): string {
  return createHmac('sha256', HASH_KEY).update(raw.trim().toLowerCase()).digest('hex');
}

/**
 * The id of this system, stable across re-installs: the machine-id files (Linux), the registry's
 * MachineGuid (Windows), else a random id kept in `fallbackFile`, else the host name. Returned as
 * a keyed hash.
 */
export function readMachineId(options: MachineIdOptions): MachineId {
  const platform = options.platform ?? process.platform;
  const files = options.files ?? (platform === 'win32' ? [] : machineIdFiles());
  for (const file of files) {
    const raw = readId(file);
    if (raw) return { id: hashMachineId(raw), source: file };
  }
  if (platform === 'win32') {
    const guid = (options.windowsMachineGuid ?? registryMachineGuid)();
    if (guid) return { id: hashMachineId(guid), source: 'registry' };
  }
  if (options.fallbackFile) {
    const kept = readId(options.fallbackFile);
    if (kept) return { id: hashMachineId(kept), source: options.fallbackFile };
    const made = randomUUID();
    try {
      mkdirSync(dirname(options.fallbackFile), { recursive: true });
      writeFileSync(options.fallbackFile, `${made}\n`, { mode: 0o644 });
      return { id: hashMachineId(made), source: options.fallbackFile };
    } catch {
      // Not writable: the host name is the next best stable value.
    }
  }
  return { id: hashMachineId(`hostname:${options.hostname}`), source: 'hostname' };
}
