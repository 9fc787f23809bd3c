import { createBus } from '@flightdeck/collector/bus';
import { ConfigError } from '@flightdeck/schemas';
import pino from 'pino';
import { createAgent } from './agent';
import { defaultCollectors } from './collectors/registry';
import { type AgentConfig, loadAgentConfig } from './config';
import { openSpool } from './spool';
import { createBusTransport } from './transport/bus';
import type { Transport } from './transport/contract';
import { createHttpTransport } from './transport/http';
import { createLazyTransport } from './transport/lazy';
import { createSpoolingTransport } from './transport/spooling';

/**
 * Stand-alone agent: samples this host every AGENT_INTERVAL_S seconds and publishes over NATS
 * (NATS_URL) and/or the api's HTTP ingest (AGENT_INGEST_URL + AGENT_ACCESS_KEY), NATS first. What
 * neither takes is spooled in AGENT_SPOOL_DIR (at most AGENT_SPOOL_MAX_MB) and replayed in order.
 */
let config: AgentConfig;
try {
  config = loadAgentConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    process.stderr.write(`flightdeck agent: ${err.message}\n`);
    process.exit(2);
  }
  throw err;
}
const logger = pino({ level: config.logLevel, name: 'agent' });
const transports: Transport[] = [];
const natsUrl = config.natsUrl;
if (natsUrl) {
  // NATS may be down when the agent starts: the HTTP fallback or the spool takes over until it answers.
  transports.push(
    createLazyTransport(
      async () => createBusTransport(await createBus(natsUrl, { logger }), { closeBus: true }),
      { what: `NATS at ${natsUrl}` },
    ),
  );
}
if (config.ingest) {
  transports.push(
    createHttpTransport({ url: config.ingest.url, accessKey: config.ingest.accessKey, logger }),
  );
}
const spool = openSpool({ dir: config.spool.dir, maxBytes: config.spool.maxBytes });
if (spool.depth > 0) logger.info({ depth: spool.depth }, 'replaying batches spooled by an earlier run');
const transport = createSpoolingTransport({ transports, spool, logger });
const agent = createAgent({
  transport,
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
