import { hostsMigrationSuite } from './0004_hosts.suite';

hostsMigrationSuite('sqlite');
