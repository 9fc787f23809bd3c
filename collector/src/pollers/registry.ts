import {
  POLLER_CONFIG_SCHEMAS,
  POLLER_DEFAULT_CONFIGS,
  POLLER_SERVICES,
  type PollerConfigOf,
  type PollerFailure,
  type PollerService,
  zodIssuePath,
} from '@flightdeck/schemas';
import { createApachePoller } from './apache';
import { createCassandraPoller } from './cassandra';
import type { Poller, PollerFactory, PollerOptions } from './contract';
import { createElasticsearchPoller } from './elasticsearch';
import { failure } from './failure';
import { createMongodbPoller } from './mongodb';
import { createMssqlPoller } from './mssql';
import { createMysqlPoller } from './mysql';
import { createNeo4jPoller } from './neo4j';
import { createNginxPoller } from './nginx';
import { createOraclePoller } from './oracle';
import { createPostgresPoller } from './postgres';
import { createUrlPoller } from './url';

/** The factory of each agentless service. */
export const POLLER_FACTORIES: { readonly [S in PollerService]: PollerFactory<S> } = {
  postgresql: createPostgresPoller,
  mysql: createMysqlPoller,
  nginx: createNginxPoller,
  apache: createApachePoller,
  url: createUrlPoller,
  oracle: createOraclePoller,
  mssql: createMssqlPoller,
  mongodb: createMongodbPoller,
  elasticsearch: createElasticsearchPoller,
  neo4j: createNeo4jPoller,
  cassandra: createCassandraPoller,
};

/** Whether `service` names an agentless service. */
export function isPollerService(service: string): service is PollerService {
  return (POLLER_SERVICES as readonly string[]).includes(service);
}

/** A fresh copy of a service's `default_config`: every default filled in, placeholders for host and user. */
export function defaultConfig<S extends PollerService>(service: S): PollerConfigOf<S> {
  return structuredClone(POLLER_DEFAULT_CONFIGS[service]) as PollerConfigOf<S>;
}

/**
 * The poller of one target from a config as it arrives (a registration, a connection test
 * command): parsed with the service's schema, or `bad_config` naming every field that is wrong.
 */
export function createPoller(
  service: string,
  config: unknown,
  options: PollerOptions,
): { ok: true; poller: Poller } | PollerFailure {
  if (!isPollerService(service)) {
    return failure(
      'bad_config',
      `"${service}" is not an agentless service: use one of ${POLLER_SERVICES.join(', ')}.`,
    );
  }
  const parsed = POLLER_CONFIG_SCHEMAS[service].safeParse(config);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${zodIssuePath(i.path) || 'config'}: ${i.message}`);
    return failure('bad_config', `The ${service} configuration is not valid: ${problems.join('; ')}.`);
  }
  const factory = POLLER_FACTORIES[service] as PollerFactory<PollerService>;
  return { ok: true, poller: factory(parsed.data as PollerConfigOf<PollerService>, options) };
}
