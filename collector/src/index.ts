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
