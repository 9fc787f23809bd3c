import { alertMutesSuite } from './mutes.suite';

alertMutesSuite('sqlite');
