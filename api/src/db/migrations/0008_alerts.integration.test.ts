import { alertsMigrationSuite } from './0008_alerts.suite';

/** The same suite on PostgreSQL (127.0.0.1:5432, a fresh database per test, dropped afterwards). */
alertsMigrationSuite('postgres');
