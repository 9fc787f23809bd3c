import { maintenanceRoutesSuite } from './routes.suite';

/** The same suite on PostgreSQL (127.0.0.1:5432, a fresh database, dropped afterwards). */
maintenanceRoutesSuite('postgres');
