import { metadataDbSuite } from './metadata-db.suite';

/** The same suite as metadata-db.test.ts, on PostgreSQL (127.0.0.1:5432, a database per run). */
metadataDbSuite('postgres');
