export { type Agent, type AgentOptions, type AgentStats, createAgent, type RunResult } from './agent';
export type { CollectContext, Collector, HeartbeatExtras, SampleLike } from './collectors/contract';
export { cpuCollector, cpuPercentages, parseProcStat } from './collectors/linux/cpu';
export {
  type DiskCounters,
  diskIoCollector,
  parseDiskstats,
  reportedDevices,
} from './collectors/linux/disk-io';
export {
  type FilesystemCollectorOptions,
  filesystemCollector,
  isPseudoFs,
  parseMounts,
  type StatFsLike,
} from './collectors/linux/filesystem';
export { loadCollector, parseLoadavg } from './collectors/linux/load';
export { memoryCollector, parseMeminfo } from './collectors/linux/memory';
export { networkCollector, parseNetDev } from './collectors/linux/network';
export {
  commandLine,
  effectiveUid,
  kernelPageSize,
  type PidStat,
  type ProcessCollectorOptions,
  parsePasswd,
  parsePidStat,
  parseProcsRunning,
  processCollector,
} from './collectors/linux/processes';
export { countTcpStates, tcpCollector } from './collectors/linux/tcp';
export { parseUptime, uptimeCollector } from './collectors/linux/uptime';
export { defaultCollectors, type LinuxCollectorsOptions, linuxCollectors } from './collectors/registry';
export { type AgentStatusReport, type CliContext, runCli } from './commands';
export {
  type AgentConfig,
  AgentEnv,
  agentPaths,
  configFilePath,
  defaultConfigFile,
  defaultStateDir,
  hostKeyFromHostname,
  loadAgentConfig,
} from './config';
export { AgentConfigFile, readConfigFile, writeConfigFile } from './config-file';
export { checkFile, type FileCheck, type PathTestOutcome, testPath } from './files/check';
export type { FilesSync } from './files/contract';
export { filesSyncEndpoint, type HttpFilesSyncOptions, httpFilesSync } from './files/http';
export {
  createFilesWatcher,
  type FilesRunResult,
  type FilesWatcher,
  type FilesWatcherOptions,
  type FilesWatcherStats,
} from './files/watcher';
export {
  hostAddresses,
  type InventoryOptions,
  inventoryReader,
  parseOsRelease,
  readInventory,
  stableJson,
  unameArchitecture,
} from './inventory';
export { AgentLockedError, acquireLock, isAgentProcess, isProcessAlive, readPidFile } from './lock';
export { hashMachineId, type MachineId, machineIdFiles, readMachineId } from './machine-id';
export { type StartAgentOptions, startAgent } from './run';
export { createScheduler, type Scheduler, type SchedulerOptions } from './scheduler';
export { AgentStatusFile, readStatusFile, writeStatusFile } from './status-file';
export { type BusTransportOptions, createBusTransport } from './transport/bus';
export { type Transport, TransportError } from './transport/contract';
