import { alertDynamicMigrationSuite } from './0013_alert_dynamic.suite';

alertDynamicMigrationSuite('sqlite');
