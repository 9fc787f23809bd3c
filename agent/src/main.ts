import { createBus } from '@flightdeck/collector/bus';
import { ConfigError } from '@flightdeck/schemas';
import pino from 'pino';
import { createAgent } from './agent';
import { defaultCollectors } from './collectors/registry';
import { type AgentConfig, loadAgentConfig } from './config';
import { createBusTransport } from './transport/bus';

/** Stand-alone agent: samples this host every AGENT_INTERVAL_S seconds and publishes over NATS. */
let config: AgentConfig;
try {
  config = loadAgentConfig();
  if (!config.natsUrl)
    throw new ConfigError([
      'NATS_URL: the stand-alone agent publishes over NATS: expected nats://host:4222 (got nothing)',
    ]);
} catch (err) {
  if (err instanceof ConfigError) {
    process.stderr.write(`flightdeck agent: ${err.message}\n`);
    process.exit(2);
  }
  throw err;
}
const logger = pino({ level: config.logLevel, name: 'agent' });
const bus = await createBus(config.natsUrl);
const agent = createAgent({
  transport: createBusTransport(bus, { closeBus: true }),
  tenant: config.tenant,
  hostKey: config.hostKey,
  intervalSeconds: config.intervalSeconds,
  procRoot: config.procRoot,
  collectors: defaultCollectors(process.platform),
  logger,
});
await agent.start();
logger.info({ host: config.hostKey, interval_s: config.intervalSeconds }, 'agent running');

const stop = () => {
  agent.stop().then(
    () => process.exit(0),
    (err) => {
      logger.error({ err }, 'error while stopping');
      process.exit(1);
    },
  );
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
