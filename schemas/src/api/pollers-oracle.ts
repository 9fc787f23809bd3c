import { z } from 'zod';
import { databaseFields, Host, Port } from './poller-fields';

/** An empty text field of the form means "not given". */
const blankAsMissing = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

/** An Oracle Net service name (db_unique_name plus db_domain, or a PDB's service). */
const OracleServiceName = z
  .string()
  .trim()
  .max(128)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._$#-]*$/, 'a service name: letters, digits and . _ $ # -');
/** An Oracle instance's system identifier. */
const OracleSid = z
  .string()
  .trim()
  .max(64)
  .regex(/^[A-Za-z][A-Za-z0-9_$#]*$/, 'a SID: a letter, then letters, digits and _ $ #');

/**
 * An Oracle Database (12.1 and later), reached through the listener with the service name of the
 * database or of a pluggable database, or with an instance's SID: exactly one of the two. An empty
 * field counts as not given, so a form can clear one and fill the other. The user needs CREATE
 * SESSION and SELECT_CATALOG_ROLE (or SELECT ANY DICTIONARY) to read the V$ and DBA_ views.
 *
 * With `tls.enabled` the poller connects over TCPS and checks the server's certificate against the
 * system's trusted authorities and the host name. The driver (node-oracledb Thin mode) always
 * verifies the certificate and takes no separate authority, so `tls.ca` and
 * `tls.reject_unauthorized: false` are refused rather than ignored.
 */
export const OraclePollerConfig = z
  .object({
    ...databaseFields,
    // Parentheses and "=" would break the connect descriptor the poller builds.
    host: Host.regex(/^[^()=]+$/, 'a host name or an IP address, without parentheses or "="'),
    port: Port.default(1521),
    service_name: z.preprocess(blankAsMissing, OracleServiceName.optional()),
    sid: z.preprocess(blankAsMissing, OracleSid.optional()),
  })
  .strict()
  .refine((c) => (c.service_name === undefined) !== (c.sid === undefined), {
    message: 'give the service name or the SID, not both',
    path: ['service_name'],
  })
  .refine((c) => !c.tls.enabled || (c.tls.reject_unauthorized && c.tls.ca === undefined), {
    message:
      "Oracle's driver always checks the server certificate against the system's trusted authorities: leave reject_unauthorized on and no CA",
    path: ['tls'],
  });
/** An Oracle Database. */
export type OraclePollerConfig = z.infer<typeof OraclePollerConfig>;
