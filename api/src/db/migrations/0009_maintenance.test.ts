import { maintenanceMigrationSuite } from './0009_maintenance.suite';

maintenanceMigrationSuite('sqlite');
