export {
  type AgentlessWorker,
  type AgentlessWorkerOptions,
  API_WORKER,
  COLLECTORS_WORKER,
  SYSTEM_TENANT,
  startAgentlessWorker,
} from './agentless/worker';
export * from './alerts/baseline';
export * from './alerts/rules';
export { type CollectorConfig, CollectorConfigSchema, loadCollectorConfig } from './config';
export { type CollectorHealth, createIngest, type Ingest, type IngestOptions } from './ingest/consumer';
export {
  createPollScheduler,
  DEFAULT_MAX_CONCURRENT_POLLS,
  type PollScheduler,
  type PollSchedulerOptions,
  type PollTiming,
} from './pollers/scheduler';
