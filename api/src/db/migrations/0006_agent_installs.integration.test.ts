import { agentInstallsMigrationSuite } from './0006_agent_installs.suite';

/** The same suite on PostgreSQL (127.0.0.1:5432, a fresh database per test, dropped afterwards). */
agentInstallsMigrationSuite('postgres');
