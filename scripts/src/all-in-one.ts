import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAgent, createBusTransport, hostKeyFromHostname, linuxCollectors } from '@flightdeck/agent';
import {
  createApp,
  createDb,
  createSecretBox,
  ensureSystemAdmin,
  inProcessFilesSync,
  loadApiConfig,
  loadOrCreateSecretsKey,
  migrateToLatest,
  startAgentlessCoordinator,
  startAlertService,
  startHostRegistry,
  startServer,
} from '@flightdeck/api';
import {
  type AlertEngine,
  createIngest,
  startAgentlessWorker,
  startAlertEngine,
} from '@flightdeck/collector';
import { type Bus, createBus } from '@flightdeck/collector/bus';
import { createMetricStore, type MetricStore } from '@flightdeck/collector/store';
import { PRODUCT_VERSION } from '@flightdeck/schemas';
import pino, { type Logger } from 'pino';

export interface RunningFlightdeck {
  url: string;
  port: number;
  /** The first start's administrator, with the generated password when one was made. */
  admin: { created: boolean; email?: string; password?: string };
  /** The running parts, for tests and tools that drive them directly. */
  parts: { bus: Bus; store: MetricStore };
  /** Stops in order: no new requests, the agent's last batch, the bus delivers what it holds, the store writes it. */
  stop(): Promise<void>;
}

/** Finds console/dist from the sources (tsx) or from the bundle in dist/. */
function consoleDir(): string | undefined {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const candidate of [join(here, '../../console/dist'), join(here, '../console/dist')]) {
    if (existsSync(join(candidate, 'index.html'))) return candidate;
  }
  return undefined;
}

/**
 * The embedded product in one process: api, collector and a local agent, on the metadata DB and
 * metric store named by the environment (SQLite files under DATA_DIR by default) and the
 * in-process bus unless NATS_URL is set.
 */
export async function startFlightdeck(
  env: Record<string, string | undefined> = process.env,
  logger: Logger = pino({ level: env.LOG_LEVEL ?? 'info' }),
): Promise<RunningFlightdeck> {
  const config = loadApiConfig(env);
  const db = createDb(config.DATABASE_URL);
  await migrateToLatest(db);
  const admin = await ensureSystemAdmin(db, {
    email: config.FLIGHTDECK_ADMIN_EMAIL,
    password: config.FLIGHTDECK_ADMIN_PASSWORD,
  });
  const store = await createMetricStore(config.METRICS_STORE);
  const bus = await createBus(config.NATS_URL);
  const hosts = await startHostRegistry({ db, bus, logger: logger.child({ name: 'hosts' }) });
  // Alert rules are evaluated on every written batch once the engine has its rules from the api.
  let engine: AlertEngine | undefined;
  const collector = createIngest({
    bus,
    store,
    logger: logger.child({ name: 'collector' }),
    onWritten: (batches) => engine?.evaluate(batches),
  });
  await collector.start();
  const alerts = await startAlertService({ db, bus, config, logger: logger.child({ name: 'alerts' }) });
  engine = await startAlertEngine({ bus, store, logger: logger.child({ name: 'alert-engine' }) });
  // In this process a threshold change reaches the engine at once, not at its next refresh.
  const alertEngine = engine;
  alerts.onRulesChanged(() => {
    alertEngine.refresh().catch((err) => logger.warn({ err }, 'alert rules not refreshed'));
  });
  // Agentless pollers: the api hands out the registered targets, this process's collector polls them.
  const agentless = await startAgentlessCoordinator({
    db,
    bus,
    box: createSecretBox(loadOrCreateSecretsKey(config.SECRETS_KEY, config.DATA_DIR)),
    logger: logger.child({ name: 'agentless' }),
  });
  const pollers = await startAgentlessWorker({ bus, logger: logger.child({ name: 'pollers' }) });
  // A service registered through this process is polled at once, not at the next refresh (30 s).
  agentless.onServicesChanged(() => {
    pollers.refresh().catch((err) => logger.warn({ err }, 'agentless targets not refreshed'));
  });

  const app = createApp({
    db,
    store,
    bus,
    collector,
    agentless,
    alerts,
    config,
    logger: logger.child({ name: 'api' }),
    version: PRODUCT_VERSION,
    consoleDir: consoleDir(),
  });
  const server = await startServer(app, config.PORT);

  const tenant = await firstCustomerTenant(db);
  const agent = createAgent({
    transport: createBusTransport(bus),
    tenant,
    hostKey: hostKeyFromHostname(hostname()),
    intervalSeconds: Number(env.AGENT_INTERVAL_S ?? 10),
    collectors: linuxCollectors(),
    logger: logger.child({ name: 'agent' }),
    // Critical files: the api's own sync function, called in this process (no HTTP).
    files: inProcessFilesSync(db),
    filesOptions: { target: 'the api (in process)' },
  });
  await agent.start();

  let stopped: Promise<void> | null = null;
  return {
    url: `http://localhost:${config.PORT}`,
    port: config.PORT,
    admin,
    parts: { bus, store },
    stop() {
      stopped ??= (async () => {
        await server.close();
        await agent.stop();
        await alertEngine.stop();
        await pollers.stop();
        await agentless.stop();
        await alerts.stop();
        await hosts.stop();
        await bus.close();
        await collector.stop();
        await store.close();
        await db.destroy();
      })();
      return stopped;
    },
  };
}

async function firstCustomerTenant(db: ReturnType<typeof createDb>): Promise<string> {
  const row = await db.selectFrom('customers').select('id').orderBy('id').limit(1).executeTakeFirst();
  return String(row?.id ?? 1);
}
