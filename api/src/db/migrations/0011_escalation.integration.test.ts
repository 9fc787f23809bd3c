import { escalationMigrationSuite } from './0011_escalation.suite';

/** The same suite on PostgreSQL (127.0.0.1:5432, a fresh database per test, dropped afterwards). */
escalationMigrationSuite('postgres');
