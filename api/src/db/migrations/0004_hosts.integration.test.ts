import { hostsMigrationSuite } from './0004_hosts.suite';

/** The same suite on PostgreSQL (127.0.0.1:5432, a fresh database per test, dropped afterwards). */
hostsMigrationSuite('postgres');
