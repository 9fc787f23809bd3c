import { planCatalogueSuite } from './0003_plan_catalog.suite';

/** The same suite on PostgreSQL (127.0.0.1:5432, a fresh database per test, dropped afterwards). */
planCatalogueSuite('postgres');
