import { escalationRunnerSuite } from './runner.suite';

escalationRunnerSuite('sqlite');
