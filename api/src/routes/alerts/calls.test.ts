import { alertCallsSuite } from './calls.suite';

alertCallsSuite('sqlite');
