import { maintenanceRoutesSuite } from './routes.suite';

maintenanceRoutesSuite('sqlite');
