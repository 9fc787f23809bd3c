import { escalationMigrationSuite } from './0011_escalation.suite';

escalationMigrationSuite('sqlite');
