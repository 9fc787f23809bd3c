import { planCatalogueSuite } from './0003_plan_catalog.suite';

planCatalogueSuite('sqlite');
