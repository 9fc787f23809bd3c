import { dynamicReasonSuite } from './dynamic-reason.suite';

dynamicReasonSuite('sqlite');
