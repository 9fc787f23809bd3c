import { authCodesSuite } from './codes.suite';

authCodesSuite('sqlite');
