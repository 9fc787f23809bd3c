import { maintenanceMigrationSuite } from './0009_maintenance.suite';

/** The same suite on PostgreSQL (127.0.0.1:5432, a fresh database per test, dropped afterwards). */
maintenanceMigrationSuite('postgres');
