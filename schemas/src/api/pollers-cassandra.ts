import { z } from 'zod';
import { databaseFields, Port } from './poller-fields';

/** An empty text field of the form means "not given". */
const blankAsMissing = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

const { user: _user, ...cassandraFields } = databaseFields;

/**
 * An Apache Cassandra node (4.0 and later), reached over CQL. `user` is optional for a cluster
 * without authentication (AllowAllAuthenticator); with PasswordAuthenticator give both.
 * `local_datacenter` is the node's data center, as the driver needs to route to it. With `keyspace`
 * the driver connects into it (so it must exist) and the largest tables are read from it only;
 * without, from every keyspace that is not the server's own.
 */
export const CassandraPollerConfig = z
  .object({
    ...cassandraFields,
    user: z.preprocess(blankAsMissing, z.string().min(1).max(128).optional()),
    port: Port.default(9042),
    local_datacenter: z.string().trim().min(1).max(128).default('datacenter1'),
    keyspace: z.preprocess(
      blankAsMissing,
      z
        .string()
        .trim()
        .regex(/^[A-Za-z0-9_]{1,48}$/, 'a keyspace name: up to 48 letters, digits or underscores')
        .optional(),
    ),
  })
  .strict()
  .refine((c) => c.user !== undefined || c.password === '', {
    message: 'give the user the password belongs to',
    path: ['user'],
  });
/** An Apache Cassandra node. */
export type CassandraPollerConfig = z.infer<typeof CassandraPollerConfig>;
