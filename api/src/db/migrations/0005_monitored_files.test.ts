import { monitoredFilesMigrationSuite } from './0005_monitored_files.suite';

monitoredFilesMigrationSuite('sqlite');
