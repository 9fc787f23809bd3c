import { z } from 'zod';
import { databaseFields, Host, Port } from './poller-fields';

/**
 * A Microsoft SQL Server instance (2016 and later; the poller is written against the 2019 and 2022
 * documentation), reached over TCP on the instance's port. A named instance is reached by its own
 * port: the SQL Server Browser (UDP 1434) is never asked, so the host takes no `\INSTANCE` part.
 *
 * `database` is where the largest tables are read; everything else covers the whole instance. The
 * login needs VIEW SERVER STATE (on SQL Server 2022 VIEW SERVER PERFORMANCE STATE is enough) for
 * the performance counters and sessions, and VIEW ANY DEFINITION for every database's file sizes.
 *
 * With `tls.enabled` the connection is encrypted and the certificate checked against the system's
 * trusted authorities (and `tls.ca`), unless `reject_unauthorized` is false; without it a server
 * that forces encryption refuses the connection.
 */
export const MssqlPollerConfig = z
  .object({
    ...databaseFields,
    host: Host.regex(
      /^[^\\]+$/,
      'a host name or an IP address; reach a named instance by its port, not "\\name"',
    ),
    port: Port.default(1433),
    database: z.string().trim().min(1).max(128).default('master'),
  })
  .strict();
/** A Microsoft SQL Server instance. */
export type MssqlPollerConfig = z.infer<typeof MssqlPollerConfig>;
