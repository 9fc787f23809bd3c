import { alertMutesMigrationSuite } from './0012_alert_mutes.suite';

alertMutesMigrationSuite('sqlite');
