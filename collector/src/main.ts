import { ConfigError } from '@flightdeck/schemas';
import pino from 'pino';
import { startAgentlessWorker } from './agentless/worker';
import { type AlertEngine, startAlertEngine } from './alerts/engine';
import { createBus } from './bus/index';
import { loadCollectorConfig } from './config';
import { createIngest } from './ingest/consumer';
import { createMetricStore } from './store/index';

/** Stand-alone collector: NATS JetStream -> metric store. `npm start` runs the same parts in one process. */
async function main() {
  let config: ReturnType<typeof loadCollectorConfig>;
  try {
    config = loadCollectorConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`flightdeck collector: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
  const logger = pino({ level: config.LOG_LEVEL, name: 'collector' });
  const store = await createMetricStore(config.METRICS_STORE);
  const bus = await createBus(config.NATS_URL);
  let alerts: AlertEngine | undefined;
  const ingest = createIngest({
    bus,
    store,
    logger,
    concurrency: config.COLLECTOR_CONCURRENCY,
    onWritten: (batches) => alerts?.evaluate(batches),
  });
  await ingest.start();
  // Thresholds come from the api over the bus (`alert_rules`); level changes go back to it.
  alerts = await startAlertEngine({ bus, store, logger: logger.child({ name: 'alerts' }) });
  // Agentless targets come from the api over the bus (`agentless_assignments`); tests come as commands.
  const pollers = await startAgentlessWorker({ bus, logger: logger.child({ name: 'pollers' }) });
  logger.info({ store: store.kind, bus: bus.kind }, 'collector consuming metrics');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping: writing the batches in flight');
    await pollers.stop();
    await ingest.stop();
    await alerts?.stop();
    await bus.close();
    await store.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

await main();
