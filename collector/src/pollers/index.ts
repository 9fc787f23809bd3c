/** Agentless pollers: the contract, the registry and the per-service factories. */
export type { Poller, PollerFactory, PollerOptions, PollResult, PollSample, PollSuccess } from './contract';
export { createPoller, defaultConfig, isPollerService, POLLER_FACTORIES } from './registry';
