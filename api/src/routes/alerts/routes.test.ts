import { alertRoutesSuite } from './routes.suite';

alertRoutesSuite('sqlite');
