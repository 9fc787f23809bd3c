import { authCodesSuite } from './codes.suite';

/** The same suite as codes.test.ts, on PostgreSQL (127.0.0.1:5432, a database per run). */
authCodesSuite('postgres');
