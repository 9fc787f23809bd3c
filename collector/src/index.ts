export * from './alerts/rules';
export { type CollectorConfig, CollectorConfigSchema, loadCollectorConfig } from './config';
export { type CollectorHealth, createIngest, type Ingest, type IngestOptions } from './ingest/consumer';
