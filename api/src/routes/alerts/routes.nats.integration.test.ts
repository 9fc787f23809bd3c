import { alertRoutesSuite } from './routes.suite';

/**
 * The at-scale layout: a PostgreSQL metadata DB and a private NATS server, the api and the
 * collector each on its own NATS connection.
 */
alertRoutesSuite('postgres', 'nats');
