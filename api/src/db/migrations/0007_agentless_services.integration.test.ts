import { agentlessServicesMigrationSuite } from './0007_agentless_services.suite';

/** The same suite on PostgreSQL (127.0.0.1:5432, a fresh database per test, dropped afterwards). */
agentlessServicesMigrationSuite('postgres');
