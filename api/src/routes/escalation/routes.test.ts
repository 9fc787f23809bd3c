import { escalationRoutesSuite } from './routes.suite';

escalationRoutesSuite('sqlite');
