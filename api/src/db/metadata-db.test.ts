import { metadataDbSuite } from './metadata-db.suite';

metadataDbSuite('sqlite');
