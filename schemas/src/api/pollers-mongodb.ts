import { z } from 'zod';
import { databaseFields, Port } from './poller-fields';

/** An empty text field of the form means "not given". */
const blankAsMissing = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

/** A MongoDB database name, as `auth_source` names the database that holds the user. */
const MongoDatabaseName = z
  .string()
  .trim()
  .min(1)
  .max(63)
  .regex(/^[^\s/\\."$*<>:|?]+$/, 'a database name, without spaces or / \\ . " $ * < > : | ?');

/** A replica set's name, as `replication.replSetName` sets it. */
const ReplicaSetName = z
  .string()
  .trim()
  .max(128)
  .regex(/^[^\s/\\,]+$/, 'a replica set name, without spaces, commas or slashes');

/** The poll lists database sizes, not the largest collections (no top_tables); the user is optional. */
const { top_tables: _topTables, user: _user, ...mongodbFields } = databaseFields;

/**
 * A MongoDB server (`mongod`, 4.4.2 and later: the poller asks `hello`). By default the poller
 * connects straight to this member (`direct_connection`), so a replica set's secondaries are polled
 * one by one; with `direct_connection: false` and the set's name in `replica_set` it follows the
 * set and polls its primary. `replica_set` with a direct connection checks that the member belongs
 * to that set.
 *
 * `user` is optional for a server without access control; with a user, `auth_source` names the
 * database that holds it. The user needs the `clusterMonitor` role to read serverStatus,
 * replSetGetStatus and the operations of every user.
 */
export const MongodbPollerConfig = z
  .object({
    ...mongodbFields,
    user: z.preprocess(blankAsMissing, z.string().min(1).max(128).optional()),
    port: Port.default(27017),
    auth_source: MongoDatabaseName.default('admin'),
    replica_set: z.preprocess(blankAsMissing, ReplicaSetName.optional()),
    direct_connection: z.boolean().default(true),
  })
  .strict()
  .refine((c) => c.user !== undefined || c.password === '', {
    message: 'give the user the password belongs to',
    path: ['user'],
  })
  .refine((c) => c.direct_connection || c.replica_set !== undefined, {
    message: 'without a direct connection, give the name of the replica set to follow',
    path: ['replica_set'],
  });
/** A MongoDB server. */
export type MongodbPollerConfig = z.infer<typeof MongodbPollerConfig>;
