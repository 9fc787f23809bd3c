import { integrationRoutesSuite } from './routes.suite';

integrationRoutesSuite('sqlite');
