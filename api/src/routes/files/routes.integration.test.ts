import { filesRoutesSuite } from './routes.suite';

/** The same suite as routes.test.ts, on PostgreSQL (127.0.0.1:5432, a database per run). */
filesRoutesSuite('postgres');
