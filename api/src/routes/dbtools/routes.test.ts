import { dbtoolsRoutesSuite } from './routes.suite';

dbtoolsRoutesSuite('sqlite');
