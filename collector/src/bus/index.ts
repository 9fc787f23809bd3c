import type { Bus } from './contract';
import { createInProcessBus, type InProcessBusOptions } from './in-process';
import { createNatsBus, type NatsBusOptions } from './nats';

export * from './contract';
export { createInProcessBus, type InProcessBus, type InProcessBusOptions } from './in-process';
export { createNatsBus, type NatsBus, type NatsBusOptions } from './nats';
export { BusClosedError, type BusCommonOptions, type BusLogger, BusUnavailableError } from './shared';

/**
 * The bus of this deployment (DESIGN section 2): NATS JetStream when `NATS_URL` is set, the
 * in-process bus otherwise. `natsUrl` may list several servers, comma-separated. Options that only
 * one implementation knows are ignored by the other.
 */
export async function createBus(
  natsUrl?: string,
  options: Omit<NatsBusOptions, 'servers'> & InProcessBusOptions = {},
): Promise<Bus> {
  if (natsUrl) return createNatsBus({ ...options, servers: natsUrl.split(',').map((s) => s.trim()) });
  return createInProcessBus(options);
}
