import { integrationDeliverySuite } from './delivery.suite';

integrationDeliverySuite('sqlite');
