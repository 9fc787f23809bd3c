export { type AgentlessCoordinator, startAgentlessCoordinator } from './agentless/coordinator';
export { type ApiRoutes, createApiRoutes, createApp } from './app';
export { requireSession } from './auth/middleware';
export { hashPassword, verifyPassword } from './auth/password';
export type { SessionInfo } from './auth/sessions';
export { type BootstrapResult, DEFAULT_ADMIN_EMAIL, ensureSystemAdmin } from './bootstrap';
export { type ApiConfig, ApiEnvSchema, loadApiConfig } from './config';
export { createSecretBox, loadOrCreateSecretsKey, type SecretBox } from './crypto/secrets';
export { createDb, type Database, type Db, type Engine, engineOfUrl } from './db/kysely';
export { MigrationError, migrateToLatest } from './db/migrate';
export type { AppDeps, AppEnv } from './env';
export { ApiError } from './errors';
export { type HostRegistry, startHostRegistry } from './hosts/registry';
export { createDbOutbox } from './routes/alerts/outbox';
export {
  type AlertService,
  type AlertServiceOptions,
  DEFAULT_RULES_REFRESH_MS,
  startAlertService,
} from './routes/alerts/service';
export { inProcessFilesSync, syncAgentFiles } from './routes/files/sync';
export { type RunningServer, startServer } from './server';
