import { alertDynamicMigrationSuite } from './0013_alert_dynamic.suite';

/** The same suite on PostgreSQL (127.0.0.1:5432, a fresh database per test, dropped afterwards). */
alertDynamicMigrationSuite('postgres');
