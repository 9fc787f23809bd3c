import { z } from 'zod';
import { databaseFields, Port } from './poller-fields';

/**
 * A Neo4j 5 server, reached over Bolt. `database` is the one whose transactions and node and
 * relationship counts are read (server-wide figures cover every database). A user with the
 * built-in `admin` role, or the SHOW TRANSACTION and SHOW DATABASE privileges, sees every
 * transaction; any other user sees its own only.
 */
export const Neo4jPollerConfig = z
  .object({
    ...databaseFields,
    port: Port.default(7687),
    database: z
      .string()
      .trim()
      .min(1)
      .max(63)
      .regex(/^[A-Za-z][A-Za-z0-9.-]*$/, 'a database name: a letter, then letters, digits, dots or dashes')
      .default('neo4j'),
  })
  .strict();
/** A Neo4j 5 server. */
export type Neo4jPollerConfig = z.infer<typeof Neo4jPollerConfig>;
