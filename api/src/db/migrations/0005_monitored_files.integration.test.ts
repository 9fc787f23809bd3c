import { monitoredFilesMigrationSuite } from './0005_monitored_files.suite';

/** The same suite on PostgreSQL (127.0.0.1:5432, a fresh database per test, dropped afterwards). */
monitoredFilesMigrationSuite('postgres');
