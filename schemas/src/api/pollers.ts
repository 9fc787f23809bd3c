import { z } from 'zod';
import { databaseFields, Host, IntervalS, PollerTls, Port, TimeoutMs, TLS_OFF } from './poller-fields';
import { CassandraPollerConfig } from './pollers-cassandra';
import { ElasticsearchPollerConfig } from './pollers-elasticsearch';
import { MongodbPollerConfig } from './pollers-mongodb';
import { MssqlPollerConfig } from './pollers-mssql';
import { Neo4jPollerConfig } from './pollers-neo4j';
import { OraclePollerConfig } from './pollers-oracle';

export { PollerTls } from './poller-fields';

/**
 * Agentless pollers (DESIGN section 1): the collector reaches a database, a web server's status page
 * or a URL itself. This module holds what the collector and the api both parse: the services, the
 * config of a target of each service (`GET /{service}/default_config`, `POST /{service}/register`),
 * the answer of a connection test, and the lists a poll yields besides its samples.
 */

/** Services the collector polls without an agent, as `service_code` spells them. */
export const POLLER_SERVICES = [
  'postgresql',
  'mysql',
  'nginx',
  'apache',
  'url',
  'oracle',
  'mongodb',
  'elasticsearch',
  'mssql',
  'neo4j',
  'cassandra',
  // one engine a line
] as const;
/** A service the collector polls without an agent. MariaDB is polled as `mysql`. */
export const PollerService = z.enum(POLLER_SERVICES);
/** A service the collector polls without an agent. */
export type PollerService = z.infer<typeof PollerService>;

/**
 * Why a connection test or a poll failed. Each has its own message naming the target: nothing
 * listens or the pool could not be reached (`connection_failed`), the credentials were refused or
 * lack a privilege (`auth_failed`), no answer in time (`timeout`), another kind of server answers
 * (`wrong_engine`), TLS negotiation or certificate check failed (`tls_error`), the host, database or
 * page does not exist (`not_found`), the config is not valid (`bad_config`).
 */
export const POLLER_FAILURE_CODES = [
  'connection_failed',
  'auth_failed',
  'timeout',
  'wrong_engine',
  'tls_error',
  'not_found',
  'bad_config',
] as const;
/** Why a connection test or a poll failed. */
export const PollerFailureCode = z.enum(POLLER_FAILURE_CODES);
/** Why a connection test or a poll failed. */
export type PollerFailureCode = z.infer<typeof PollerFailureCode>;

/** A failed connection test or poll: a code and a message a person can act on, naming host:port. */
export const PollerFailure = z
  .object({ ok: z.literal(false), code: PollerFailureCode, message: z.string() })
  .strict();
/** A failed connection test or poll. */
export type PollerFailure = z.infer<typeof PollerFailure>;

/**
 * Answer of a connection test (the `connection_test` command): the server's version and a few
 * facts worth showing before the target is registered (engine, database, role...), or a failure.
 */
export const ConnectionTestResult = z.discriminatedUnion('ok', [
  z
    .object({
      ok: z.literal(true),
      version: z.string(),
      details: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
    })
    .strict(),
  PollerFailure,
]);
/** Answer of a connection test. */
export type ConnectionTestResult = z.infer<typeof ConnectionTestResult>;

// ---------------------------------------------------------------------------------------------
// Configs

/** A PostgreSQL server. `database` is where table sizes are read; activity covers every database. */
export const PostgresPollerConfig = z
  .object({
    ...databaseFields,
    port: Port.default(5432),
    database: z.string().min(1).max(63).default('postgres'),
  })
  .strict();
/** A PostgreSQL server. */
export type PostgresPollerConfig = z.infer<typeof PostgresPollerConfig>;

/** A MySQL or MariaDB server. `database` is optional: the poller reads server-wide figures. */
export const MysqlPollerConfig = z
  .object({ ...databaseFields, port: Port.default(3306), database: z.string().min(1).max(64).optional() })
  .strict();
/** A MySQL or MariaDB server. */
export type MysqlPollerConfig = z.infer<typeof MysqlPollerConfig>;

const Path = z
  .string()
  .max(1024)
  .regex(/^\/[^\s#]*$/, 'a path starting with "/"');

const statusPageFields = {
  host: Host,
  tls: PollerTls.default(TLS_OFF),
  /** Basic authentication for a protected status page; both or neither. */
  user: z.string().min(1).max(128).optional(),
  password: z.string().max(1024).optional(),
  timeout_ms: TimeoutMs.default(5_000),
  interval_s: IntervalS,
};

const bothOrNeither = {
  check: (c: { user?: string | undefined; password?: string | undefined }) =>
    (c.user === undefined) === (c.password === undefined),
  params: { message: 'give both the user and the password, or neither', path: ['user'] },
};

/** An Nginx server's `stub_status` page: `location = /nginx_status { stub_status; }`. */
export const NginxPollerConfig = z
  .object({ ...statusPageFields, port: Port.default(80), path: Path.default('/nginx_status') })
  .strict()
  .refine(bothOrNeither.check, bothOrNeither.params);
/** An Nginx server's `stub_status` page. */
export type NginxPollerConfig = z.infer<typeof NginxPollerConfig>;

/** An Apache server's mod_status page; the poller reads its machine-readable form (`?auto`). */
export const ApachePollerConfig = z
  .object({ ...statusPageFields, port: Port.default(80), path: Path.default('/server-status') })
  .strict()
  .refine(bothOrNeither.check, bothOrNeither.params);
/** An Apache server's mod_status page. */
export type ApachePollerConfig = z.infer<typeof ApachePollerConfig>;

/** Most redirects a URL check follows. */
export const URL_MAX_REDIRECTS = 5;

/**
 * A URL to check. It is up when the final answer's status is in `expected_status` (by default any
 * 2xx or 3xx) and, when `keyword` is set, the body holds it (case-sensitive, first MiB).
 * Redirects are followed up to {@link URL_MAX_REDIRECTS} unless `follow_redirects` is false.
 */
export const UrlPollerConfig = z
  .object({
    url: z.url({ protocol: /^https?$/ }).max(2048),
    method: z.enum(['GET', 'HEAD']).default('GET'),
    keyword: z.string().min(1).max(256).optional(),
    expected_status: z.array(z.number().int().min(100).max(599)).min(1).max(20).optional(),
    follow_redirects: z.boolean().default(true),
    tls: PollerTls.omit({ enabled: true }).default({ reject_unauthorized: true }),
    timeout_ms: TimeoutMs.default(10_000),
    interval_s: IntervalS,
  })
  .strict()
  .refine((c) => !(c.keyword && c.method === 'HEAD'), {
    message: 'a keyword needs the body: use GET',
    path: ['keyword'],
  });
/** A URL to check. */
export type UrlPollerConfig = z.infer<typeof UrlPollerConfig>;

/** The config schema of each poller service. */
export const POLLER_CONFIG_SCHEMAS = {
  postgresql: PostgresPollerConfig,
  mysql: MysqlPollerConfig,
  nginx: NginxPollerConfig,
  apache: ApachePollerConfig,
  url: UrlPollerConfig,
  oracle: OraclePollerConfig,
  mongodb: MongodbPollerConfig,
  elasticsearch: ElasticsearchPollerConfig,
  mssql: MssqlPollerConfig,
  neo4j: Neo4jPollerConfig,
  cassandra: CassandraPollerConfig,
} as const satisfies Record<PollerService, z.ZodType>;

/** The parsed config of a service's target. */
export type PollerConfigOf<S extends PollerService> = z.infer<(typeof POLLER_CONFIG_SCHEMAS)[S]>;

/**
 * What `GET /{service}/default_config` answers: a config that passes its schema, every default
 * filled in, for the form to start from. Hosts and users are placeholders the person replaces.
 */
export const POLLER_DEFAULT_CONFIGS: { readonly [S in PollerService]: PollerConfigOf<S> } = {
  postgresql: PostgresPollerConfig.parse({ host: 'localhost', user: 'postgres' }),
  mysql: MysqlPollerConfig.parse({ host: 'localhost', user: 'root' }),
  nginx: NginxPollerConfig.parse({ host: 'localhost' }),
  apache: ApachePollerConfig.parse({ host: 'localhost' }),
  url: UrlPollerConfig.parse({ url: 'https://example.com/' }),
  oracle: OraclePollerConfig.parse({ host: 'localhost', user: 'system', service_name: 'ORCLPDB1' }),
  mongodb: MongodbPollerConfig.parse({ host: 'localhost' }),
  elasticsearch: ElasticsearchPollerConfig.parse({ host: 'localhost' }),
  mssql: MssqlPollerConfig.parse({ host: 'localhost', user: 'sa' }),
  neo4j: Neo4jPollerConfig.parse({ host: 'localhost', user: 'neo4j' }),
  cassandra: CassandraPollerConfig.parse({ host: 'localhost' }),
};

// ---------------------------------------------------------------------------------------------
// What a poll yields besides samples

/**
 * One client session of a database: a PostgreSQL backend or a MySQL thread. `state` is the
 * engine's own word (`active`, `idle in transaction`; `Query`, `Sleep`); `wait` what it waits for
 * (PostgreSQL `Lock:transactionid`; MySQL's thread state); `duration_s` how long the current
 * statement has run, or for an idle session how long it has been idle.
 */
export const DbSession = z
  .object({
    id: z.number().int(),
    user: z.string().nullable(),
    database: z.string().nullable(),
    client: z.string().nullable(),
    application: z.string().nullable(),
    state: z.string().nullable(),
    wait: z.string().nullable(),
    duration_s: z.number().nullable(),
    /** The statement, cut to 2,048 characters. */
    query: z.string().nullable(),
  })
  .strict();
/** One client session of a database. */
export type DbSession = z.infer<typeof DbSession>;

/** A session waiting for a lock, with the sessions that hold it. */
export const BlockedSession = DbSession.extend({
  /** Seconds it has waited for the lock, when the engine tells. */
  wait_s: z.number().nullable(),
  /** The sessions holding what it waits for; a blocker that is not a client session has only its id. */
  blocked_by: z.array(DbSession),
}).strict();
/** A session waiting for a lock. */
export type BlockedSession = z.infer<typeof BlockedSession>;

/** Size of one database (PostgreSQL) or schema (MySQL). */
export const DatabaseSize = z.object({ name: z.string(), size_bytes: z.number().nonnegative() }).strict();
/** Size of one database or schema. */
export type DatabaseSize = z.infer<typeof DatabaseSize>;

/** One of the largest tables: data, indexes and the engine's row estimate. */
export const TableSize = z
  .object({
    database: z.string(),
    /** PostgreSQL schema; null on MySQL, where the database is the schema. */
    schema: z.string().nullable(),
    name: z.string(),
    size_bytes: z.number().nonnegative(),
    data_bytes: z.number().nonnegative().nullable(),
    index_bytes: z.number().nonnegative().nullable(),
    rows: z.number().nullable(),
  })
  .strict();
/** One of the largest tables. */
export type TableSize = z.infer<typeof TableSize>;

/** Replication as seen from the polled server. */
export const ReplicationStatus = z
  .object({
    /** `replica` follows a source; `primary` has replicas connected; `standalone` neither. */
    role: z.enum(['primary', 'replica', 'standalone']),
    /** On a replica: the receiver's state (`streaming`; MySQL `running`, `io stopped`, `sql stopped`...). */
    state: z.string().nullable(),
    /** On a replica: seconds behind the source. */
    lag_s: z.number().nullable(),
    /** On a replica: the source's address. */
    source: z.string().nullable(),
    last_error: z.string().nullable(),
    /** On a primary: its connected replicas. */
    replicas: z.array(
      z
        .object({
          name: z.string(),
          address: z.string().nullable(),
          state: z.string().nullable(),
          sync_state: z.string().nullable(),
          lag_s: z.number().nullable(),
          lag_bytes: z.number().nullable(),
        })
        .strict(),
    ),
  })
  .strict();
/** Replication as seen from the polled server. */
export type ReplicationStatus = z.infer<typeof ReplicationStatus>;

/** The certificate a URL's server presented. */
export const CertificateInfo = z
  .object({
    subject: z.string(),
    issuer: z.string(),
    /** Unix milliseconds. */
    valid_from: z.number(),
    valid_to: z.number(),
    days_left: z.number(),
    /** Whether it chains to a trusted authority and matches the host name. */
    trusted: z.boolean(),
  })
  .strict();
/** The certificate a URL's server presented. */
export type CertificateInfo = z.infer<typeof CertificateInfo>;

/** Outcome of one URL check. */
export const UrlCheck = z
  .object({
    final_url: z.string(),
    status_code: z.number().int(),
    redirects: z.number().int().nonnegative(),
    response_time_ms: z.number().nonnegative(),
    up: z.boolean(),
    /** Null when no keyword is configured. */
    keyword_found: z.boolean().nullable(),
    certificate: CertificateInfo.nullable(),
  })
  .strict();
/** Outcome of one URL check. */
export type UrlCheck = z.infer<typeof UrlCheck>;

/**
 * Lists a poll yields besides its samples, for the api to show. Database pollers fill `server`,
 * `sessions`, `long_queries`, `blocked_sessions` and `replication` on every poll, `databases` and
 * `tables` when they read sizes; the URL poller fills `url`.
 */
export const PollerExtras = z
  .object({
    server: z
      .object({
        version: z.string(),
        uptime_s: z.number().nullable(),
        max_connections: z.number().nullable(),
      })
      .strict()
      .optional(),
    /** Client sessions, longest-running first, at most {@link MAX_LISTED_SESSIONS}. */
    sessions: z.array(DbSession).optional(),
    /** Statements running for at least the target's `long_query_s`, longest first. */
    long_queries: z.array(DbSession).optional(),
    blocked_sessions: z.array(BlockedSession).optional(),
    databases: z.array(DatabaseSize).optional(),
    tables: z.array(TableSize).optional(),
    replication: ReplicationStatus.optional(),
    url: UrlCheck.optional(),
  })
  .strict();
/** Lists a poll yields besides its samples. */
export type PollerExtras = z.infer<typeof PollerExtras>;

/** Most sessions a poll lists. */
export const MAX_LISTED_SESSIONS = 200;
