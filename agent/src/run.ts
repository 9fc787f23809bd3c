import { createBus } from '@flightdeck/collector/bus';
import type { Logger } from 'pino';
import { type Agent, type AgentOptions, createAgent } from './agent';
import type { Collector } from './collectors/contract';
import { type HostProbes, hostProbes } from './collectors/registry';
import type { AgentConfig } from './config';
import { filesSyncEndpoint, httpFilesSync } from './files/http';
import { inventoryReader } from './inventory';
import { openSpool } from './spool';
import { createBusTransport } from './transport/bus';
import type { Transport } from './transport/contract';
import { createHttpTransport } from './transport/http';
import { createLazyTransport } from './transport/lazy';
import { createSpoolingTransport } from './transport/spooling';

export interface StartAgentOptions {
  config: AgentConfig;
  logger: Logger;
  /**
   * Default: the collectors of `platform` ({@link hostProbes}: Linux reads the host through
   * `config`'s roots, Windows through PowerShell; Docker when its socket is there).
   */
  collectors?: Collector[];
  /** Default `process.platform`. */
  platform?: NodeJS.Platform;
  onRun?: AgentOptions['onRun'];
}

/**
 * The stand-alone agent: samples this host every interval and publishes over NATS (`natsUrl`) and/or
 * the api's HTTP ingest, NATS first. What neither takes is spooled in the spool directory and
 * replayed in order. Resolves once the first run is done; `stop()` finishes the run in flight and
 * closes the transports, the spool and what the collectors keep running.
 */
export async function startAgent(options: StartAgentOptions): Promise<Agent> {
  const { config, logger } = options;
  const probes: HostProbes = options.collectors
    ? { collectors: options.collectors, close: async () => {} }
    : hostProbes(options.platform ?? process.platform, {
        filesystem: { hostRoot: config.hostRoot },
        processes: { hostRoot: config.hostRoot },
        logger,
      });
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
    collectors: probes.collectors,
    inventory:
      probes.inventory ?? inventoryReader({ procRoot: config.procRoot, hostRoot: config.hostRoot, logger }),
    logger,
    ...(options.onRun ? { onRun: options.onRun } : {}),
    // Critical files are synced with the api the agent registered with (its URL and access key).
    ...(config.ingest
      ? {
          files: httpFilesSync({ url: config.ingest.url, accessKey: config.ingest.accessKey }),
          filesOptions: { target: filesSyncEndpoint(config.ingest.url), hostRoot: config.hostRoot },
        }
      : {}),
  });
  const stop = async () => {
    await agent.stop();
    await probes.close();
  };
  try {
    await agent.start();
  } catch (err) {
    await stop().catch(() => {});
    throw err;
  }
  logger.info({ host: config.hostKey, interval_s: config.intervalSeconds }, 'agent running');
  return { ...agent, stop };
}
