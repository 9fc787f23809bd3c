import { filesRoutesSuite } from './routes.suite';

filesRoutesSuite('sqlite');
