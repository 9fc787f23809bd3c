import { alertsMigrationSuite } from './0008_alerts.suite';

alertsMigrationSuite('sqlite');
