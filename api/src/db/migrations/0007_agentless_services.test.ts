import { agentlessServicesMigrationSuite } from './0007_agentless_services.suite';

agentlessServicesMigrationSuite('sqlite');
