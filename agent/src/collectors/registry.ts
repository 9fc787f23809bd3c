import type { Collector } from './contract';
import { cpuCollector } from './linux/cpu';
import { diskIoCollector } from './linux/disk-io';
import { type FilesystemCollectorOptions, filesystemCollector } from './linux/filesystem';
import { loadCollector } from './linux/load';
import { memoryCollector } from './linux/memory';
import { networkCollector } from './linux/network';
import { type ProcessCollectorOptions, processCollector } from './linux/processes';
import { tcpCollector } from './linux/tcp';
import { uptimeCollector } from './linux/uptime';

export interface LinuxCollectorsOptions {
  filesystem?: FilesystemCollectorOptions;
  processes?: ProcessCollectorOptions;
}

/**
 * The collectors of a Linux host, each a fresh instance (rate collectors keep their previous reading,
 * so two agents must not share them). Windows and Docker get their own lists here later.
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

/** The collectors for the platform this process runs on; only Linux is supported so far. */
export function defaultCollectors(platform: NodeJS.Platform = process.platform): Collector[] {
  if (platform === 'linux') return linuxCollectors();
  throw new Error(`the agent has no collectors for ${platform} yet (Linux only)`);
}
