import { integrationsMigrationSuite } from './0010_integrations.suite';

integrationsMigrationSuite('sqlite');
