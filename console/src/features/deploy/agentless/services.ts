import { POLLER_SERVICES, type PollerService } from '@flightdeck/schemas';
import type { IconName } from '../../../app/shell/icons';

/** Icon of each service's card on the engine picker. */
export const SERVICE_ICONS: Record<PollerService, IconName> = {
  postgresql: 'database',
  mysql: 'database',
  nginx: 'server',
  apache: 'server',
  url: 'network',
  oracle: 'database',
  mongodb: 'database',
  elasticsearch: 'database',
  mssql: 'database',
  neo4j: 'database',
  cassandra: 'database',
};

/** The route parameter as a service this console can deploy, or null. */
export function serviceFromParam(value: unknown): PollerService | null {
  return POLLER_SERVICES.find((s) => s === value) ?? null;
}
