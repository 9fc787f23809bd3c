import { dynamicReasonSuite } from './dynamic-reason.suite';

/** The same suite on a PostgreSQL metadata DB (127.0.0.1:5432, a database per run). */
dynamicReasonSuite('postgres');
