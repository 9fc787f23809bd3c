export {
  type AgentlessWorker,
  type AgentlessWorkerOptions,
  API_WORKER,
  COLLECTORS_WORKER,
  SYSTEM_TENANT,
  startAgentlessWorker,
} from './agentless/worker';
export * from './alerts/baseline';
export {
  ALERTS_WORKER,
  type AlertEngine,
  type AlertEngineOptions,
  type AlertEngineStats,
  DEFAULT_RULES_REFRESH_MS,
  startAlertEngine,
} from './alerts/engine';
export * from './alerts/lifecycle';
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
