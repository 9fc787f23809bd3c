import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createBus } from '@flightdeck/collector/bus';
import { createMetricStore } from '@flightdeck/collector/store';
import { ConfigError, PRODUCT_VERSION } from '@flightdeck/schemas';
import pino from 'pino';
import { startAgentlessCoordinator } from './agentless/coordinator';
import { createApp } from './app';
import { ensureSystemAdmin } from './bootstrap';
import { type ApiConfig, loadApiConfig } from './config';
import { createSecretBox, loadOrCreateSecretsKey } from './crypto/secrets';
import { createDb } from './db/kysely';
import { migrateToLatest } from './db/migrate';
import { startHostRegistry } from './hosts/registry';
import { startAlertService } from './routes/alerts/service';
import { startServer } from './server';

/** Stand-alone api (the at-scale deployment): metadata DB, metric store reads, bus commands, console. */
let config: ApiConfig;
try {
  config = loadApiConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    process.stderr.write(`flightdeck api: ${err.message}\n`);
    process.exit(2);
  }
  throw err;
}
const logger = pino({ level: config.LOG_LEVEL, name: 'api' });
const db = createDb(config.DATABASE_URL);
await migrateToLatest(db);
const admin = await ensureSystemAdmin(db, {
  email: config.FLIGHTDECK_ADMIN_EMAIL,
  password: config.FLIGHTDECK_ADMIN_PASSWORD,
});
if (admin.created) {
  process.stdout.write(
    `First start: system administrator ${admin.email}${admin.password ? ` with password ${admin.password} (shown once)` : ''}\n`,
  );
}
const store = await createMetricStore(config.METRICS_STORE);
const bus = await createBus(config.NATS_URL);
const hosts = await startHostRegistry({ db, bus, logger: logger.child({ name: 'hosts' }) });
const here = dirname(fileURLToPath(import.meta.url));
const consoleDir = [join(here, '../console/dist'), join(here, '../../console/dist')].find((d) =>
  existsSync(join(d, 'index.html')),
);
// Thresholds, alerts and notifications: collectors send their level changes here over the bus.
const alerts = await startAlertService({ db, bus, config, logger: logger.child({ name: 'alerts' }) });
// Agentless targets: collectors ask this api for their share over the bus (`agentless_assignments`).
const agentless = await startAgentlessCoordinator({
  db,
  bus,
  box: createSecretBox(loadOrCreateSecretsKey(config.SECRETS_KEY, config.DATA_DIR)),
  logger: logger.child({ name: 'agentless' }),
});
const app = createApp({
  db,
  store,
  bus,
  config,
  logger,
  version: PRODUCT_VERSION,
  consoleDir,
  alerts,
  agentless,
});
const server = await startServer(app, config.PORT);
logger.info({ port: server.port, store: store.kind, bus: bus.kind }, 'api listening');

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await server.close();
  await agentless.stop();
  await alerts.stop();
  await hosts.stop();
  await bus.close();
  await store.close();
  await db.destroy();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
