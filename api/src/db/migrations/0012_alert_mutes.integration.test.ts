import { alertMutesMigrationSuite } from './0012_alert_mutes.suite';

/** The same suite on PostgreSQL (127.0.0.1:5432, a fresh database per test, dropped afterwards). */
alertMutesMigrationSuite('postgres');
