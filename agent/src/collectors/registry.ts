import type { HostInventory } from '@flightdeck/schemas/wire';
import type { Logger } from 'pino';
import type { Collector } from './contract';
import { detectDockerCollector } from './docker/collector';
import { cpuCollector } from './linux/cpu';
import { diskIoCollector } from './linux/disk-io';
import { type FilesystemCollectorOptions, filesystemCollector } from './linux/filesystem';
import { loadCollector } from './linux/load';
import { memoryCollector } from './linux/memory';
import { networkCollector } from './linux/network';
import { type ProcessCollectorOptions, processCollector } from './linux/processes';
import { tcpCollector } from './linux/tcp';
import { uptimeCollector } from './linux/uptime';
import { type WindowsHostOptions, windowsHost } from './windows/collectors';

export interface LinuxCollectorsOptions {
  filesystem?: FilesystemCollectorOptions;
  processes?: ProcessCollectorOptions;
}

/**
 * The collectors of a Linux host, each a fresh instance (rate collectors keep their previous reading,
 * so two agents must not share them).
 */
export function linuxCollectors(options: LinuxCollectorsOptions = {}): Collector[] {
  return [
    cpuCollector(),
    loadCollector(),
    memoryCollector(),
    filesystemCollector(options.filesystem),
    diskIoCollector(),
    networkCollector(),
    tcpCollector(),
    processCollector(options.processes),
    uptimeCollector(),
  ];
}

/** Options of {@link defaultCollectors} and {@link hostProbes}: the Linux ones, plus Windows and Docker. */
export interface DefaultCollectorsOptions extends LinuxCollectorsOptions {
  /** Where the start-up messages about Docker go (found, absent, not allowed). */
  logger?: Logger;
  /**
   * The Docker Engine socket; default the platform's (`/var/run/docker.sock`, on Windows
   * `//./pipe/docker_engine`). Container metrics are on when it is there; `false` turns them off.
   */
  dockerSocket?: string | false;
  windows?: WindowsHostOptions;
}

/** What the agent needs of the host it runs on. */
export interface HostProbes {
  collectors: Collector[];
  /** This platform's inventory reader; undefined on Linux, where the agent reads /proc and /etc itself. */
  inventory?: () => HostInventory;
  /** Ends what the collectors keep running (the PowerShell child on Windows). */
  close(): Promise<void>;
}

/**
 * The collectors, inventory and shutdown of the platform this process runs on: Linux reads /proc,
 * Windows one long-lived PowerShell; on either, the Docker collector joins when the Engine's socket
 * is there (looked for once, now). Other platforms throw: that is bad configuration, at start-up.
 */
export function hostProbes(
  platform: NodeJS.Platform = process.platform,
  options: DefaultCollectorsOptions = {},
): HostProbes {
  const docker = (): Collector[] => {
    const c = detectDockerCollector({
      platform,
      ...(options.dockerSocket !== undefined ? { socketPath: options.dockerSocket } : {}),
      ...(options.logger ? { logger: options.logger } : {}),
    });
    return c ? [c] : [];
  };
  if (platform === 'linux') {
    return { collectors: [...linuxCollectors(options), ...docker()], close: async () => {} };
  }
  if (platform === 'win32') {
    const host = windowsHost(options.windows);
    return { collectors: [...host.collectors, ...docker()], inventory: host.inventory, close: host.close };
  }
  throw new Error(`the agent has no collectors for ${platform} (Linux and Windows only)`);
}

/**
 * The collectors for the platform this process runs on (see {@link hostProbes}). On Windows prefer
 * `hostProbes`, which also gives the inventory and closes the PowerShell child.
 */
export function defaultCollectors(
  platform: NodeJS.Platform = process.platform,
  options: DefaultCollectorsOptions = {},
): Collector[] {
  return hostProbes(platform, options).collectors;
}
