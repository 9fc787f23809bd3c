import { dynamicThresholdSuite } from './dynamic.suite';

dynamicThresholdSuite('sqlite');
