export { type Agent, type AgentOptions, type AgentStats, createAgent, type RunResult } from './agent';
export type { CollectContext, Collector, SampleLike } from './collectors/contract';
export { cpuCollector, cpuPercentages, parseProcStat } from './collectors/linux/cpu';
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
export { parseUptime, uptimeCollector } from './collectors/linux/uptime';
export { defaultCollectors, type LinuxCollectorsOptions, linuxCollectors } from './collectors/registry';
export { type AgentConfig, AgentEnv, hostKeyFromHostname, loadAgentConfig } from './config';
export { createScheduler, type Scheduler, type SchedulerOptions } from './scheduler';
export { type BusTransportOptions, createBusTransport } from './transport/bus';
export { type Transport, TransportError } from './transport/contract';
