/**
 * The part of node-oracledb (Thin mode) the Oracle poller uses. The package ships no type
 * declarations; these follow its API documentation (node-oracledb 6 and later).
 */
declare module 'oracledb' {
  /** Rows as objects keyed by column name (upper case for unquoted names). */
  export const OUT_FORMAT_OBJECT: number;
  /** Whether the driver runs in Thin mode (pure JavaScript, no Oracle Client libraries). */
  export const thin: boolean;

  export interface ConnectionAttributes {
    user?: string;
    password?: string;
    /** Easy Connect string or a full connect descriptor. */
    connectString?: string;
    /** Whole seconds to establish the connection, authentication included. */
    connectTimeout?: number;
    /** Whole seconds to open the TCP (and TLS) connection. */
    transportConnectTimeout?: number;
    /** Whether the server certificate's names must match the host. */
    sslServerDNMatch?: boolean;
    /** Statements cached per connection; 0 turns the cache off. */
    stmtCacheSize?: number;
  }

  export interface ExecuteOptions {
    outFormat?: number;
    maxRows?: number;
  }

  export interface Result<T> {
    rows?: T[];
  }

  export interface Connection {
    /** Milliseconds each round trip to the database may take; 0 for no limit. */
    callTimeout: number;
    execute<T = Record<string, unknown>>(
      sql: string,
      binds?: Record<string, unknown> | unknown[],
      options?: ExecuteOptions,
    ): Promise<Result<T>>;
    close(): Promise<void>;
    /** The module attribute for end-to-end tracing, shown in V$SESSION.MODULE. */
    module: string;
  }

  /** An error of the driver (NJS-xxx) or of the database (ORA-xxxxx). */
  export interface DbError extends Error {
    code?: string;
    errorNum?: number;
  }

  export function getConnection(attributes: ConnectionAttributes): Promise<Connection>;

  const oracledb: {
    OUT_FORMAT_OBJECT: typeof OUT_FORMAT_OBJECT;
    thin: boolean;
    getConnection: typeof getConnection;
  };
  export default oracledb;
}
