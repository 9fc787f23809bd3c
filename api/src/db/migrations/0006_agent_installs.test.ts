import { agentInstallsMigrationSuite } from './0006_agent_installs.suite';

agentInstallsMigrationSuite('sqlite');
