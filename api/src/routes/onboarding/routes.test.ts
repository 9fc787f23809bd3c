import { onboardingRoutesSuite } from './routes.suite';

onboardingRoutesSuite('sqlite');
