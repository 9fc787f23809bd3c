import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { isIP, connect as netConnect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rootCertificates, connect as tlsConnect } from 'node:tls';
import type { Neo4jPollerConfig, PollerFailure, PollerTls } from '@flightdeck/schemas';
import { auth, type Driver, driver as neo4jDriver, type Session } from 'neo4j-driver';
import type { Poller, PollerFactory, PollerOptions, PollResult } from './contract';
import {
  errorCode,
  errorMessage,
  failure,
  hostPort,
  isFailure,
  isProgrammerError,
  networkFailure,
  TimeoutError,
  withTimeout,
} from './failure';
import { foreignEngine, testWithEngineCheck } from './foreign-engine';
import { IdleClient } from './idle-client';
import { type Neo4jReading, neo4jExtras, neo4jReplication, neo4jSamples } from './neo4j-metrics';
import {
  COMPONENTS_CYPHER,
  CONNECTIONS_CYPHER,
  DATABASES_CYPHER,
  JMX_CYPHER,
  NEO4J_POLLER_METADATA,
  NODE_COUNT_CYPHER,
  RELATIONSHIP_COUNT_CYPHER,
  readComponents,
  readConnections,
  readCount,
  readDatabase,
  readJmx,
  readTransaction,
  TRANSACTIONS_CYPHER,
} from './neo4j-queries';
import { SectionWarnings } from './warnings';

/** The driver of a target is closed once idle this long, and its connections with it. */
export const NEO4J_IDLE_CLIENT_MS = 2_000;

/** The part of a driver message that says what happened, without its generic advice. */
function driverDetail(message: string): string {
  const cause =
    /Caused by: ([\s\S]*)$/.exec(message)?.[1] ?? /Socket responded with: (.*)$/.exec(message)?.[1];
  return (cause ?? message).trim().replace(/\.$/, '');
}

const NETWORK_CODE =
  /\b(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EAI_NONAME|EHOSTUNREACH|ENETUNREACH|EADDRNOTAVAIL|ECONNRESET|EPIPE|ETIMEDOUT)\b/;

/**
 * The failure for an error of neo4j-driver or the server. Server errors carry a Neo4j status code
 * (`Neo.ClientError.Security.Unauthorized`); the driver's own connection errors carry only
 * `ServiceUnavailable` and keep the system error (ECONNREFUSED, a certificate problem) in their
 * message, so those are read from the message.
 */
export function classifyNeo4jError(err: unknown, config: Neo4jPollerConfig): PollerFailure {
  const target = hostPort(config.host, config.port);
  const what = `Neo4j at ${target}`;
  const code = errorCode(err) ?? '';
  const message = errorMessage(err);
  const auth = (why: string) =>
    failure(
      'auth_failed',
      `Authentication error at ${target} for user "${config.user}": ${why}. Check the service logs to find the cause.`,
    );
  if (err instanceof TimeoutError) {
    return failure(
      'timeout',
      `A query to ${what} did not finish within ${err.ms} ms. The server may be overloaded.`,
    );
  }
  switch (code) {
    case 'Neo.ClientError.Security.Unauthorized':
      return auth('the user or the password was refused');
    case 'Neo.ClientError.Security.AuthenticationRateLimit':
      return auth('too many failed attempts, so the server refuses this user for a while');
    case 'Neo.ClientError.Security.CredentialsExpired':
      return auth('the password has expired and must be changed before the user can read anything');
    case 'Neo.ClientError.Security.Forbidden':
      return auth(
        `${message}; grant the user the SHOW TRANSACTION and SHOW DATABASE privileges, or the admin role`,
      );
    case 'Neo.ClientError.Database.DatabaseNotFound':
      return failure(
        'not_found',
        `Database "${config.database}" does not exist at ${target}. Check the database name.`,
      );
    case 'Neo.ClientError.Transaction.TransactionTimedOut':
    case 'Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration':
      return failure(
        'timeout',
        `A query to ${what} did not finish within ${config.query_timeout_ms} ms. The server may be overloaded.`,
      );
    case 'Neo.TransientError.General.DatabaseUnavailable':
      return failure(
        'connection_failed',
        `Failed to connect to the pool at ${target}: database "${config.database}" is unavailable (${message}).`,
      );
  }
  if (code.startsWith('Neo.ClientError.Security.')) return auth(message);
  const detail = driverDetail(message);
  if (
    /secure TLS connection|certificate|\bSSL\b|\bTLS\b|wrong version number|self[- ]signed/i.test(message)
  ) {
    return failure('tls_error', `The TLS connection to ${what} failed: ${detail}.`);
  }
  const system = NETWORK_CODE.exec(message)?.[1];
  if (system) {
    const network = networkFailure({ code: system, message }, what, config.host, config.connect_timeout_ms);
    if (network) return network;
  }
  if (/Connection acquisition timed out|Failed to establish connection in|didn't respond in/i.test(message)) {
    return failure(
      'timeout',
      `${what} did not respond within ${config.connect_timeout_ms} ms. Check the host, the port and any firewall in between, then try again.`,
    );
  }
  if (
    code === 'ProtocolError' ||
    /Unknown Bolt protocol version|Connection was closed by server/i.test(message)
  ) {
    return failure(
      'wrong_engine',
      `${target} does not answer as a Neo4j server speaking Bolt (${detail}). Check the port (Bolt listens on 7687 by default) and whether the server wants TLS.`,
    );
  }
  return failure('connection_failed', `Failed to connect to the pool at ${target}: ${detail}.`);
}

/** Bolt's magic preamble and four version proposals: 5.0 to 5.8, 4.4, 4.3, 3.0. */
const BOLT_HANDSHAKE = Buffer.from([
  0x60, 0x60, 0xb0, 0x17, 0x00, 0x08, 0x08, 0x05, 0x00, 0x00, 0x04, 0x04, 0x00, 0x00, 0x03, 0x04, 0x00, 0x00,
  0x00, 0x03,
]);

/**
 * Whether the server says anything (a version, an error, a closed connection) to a Bolt handshake
 * within `timeoutMs`. The driver bounds only the TCP connect: a server that accepts and then stays
 * silent would keep its pending connection open after the driver is closed, so the poller checks
 * with this first whenever the last attempt met silence. Refused connections count as an answer:
 * the driver reports them.
 */
export function boltAnswers(host: string, port: number, tls: PollerTls, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    let socket: Socket;
    const done = (answered: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answered);
    };
    const send = () => socket.write(BOLT_HANDSHAKE);
    // The certificate is checked as the driver would: a refused one is an answer the driver reports.
    socket = tls.enabled
      ? tlsConnect(
          {
            host,
            port,
            rejectUnauthorized: tls.reject_unauthorized,
            ...(tls.ca ? { ca: [tls.ca, ...rootCertificates] } : {}),
            ...(isIP(host) ? {} : { servername: host }),
          },
          send,
        )
      : netConnect({ host, port }, send);
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.once('data', () => done(true));
    socket.once('end', () => done(true));
    socket.once('error', () => done(true));
  });
}

/** The driver of a target and the CA file it reads, removed with it. */
interface Neo4jClient {
  driver: Driver;
  caDir: string | undefined;
}

/**
 * Polls a Neo4j 5 server over Bolt with one driver of at most 2 connections, closed when idle.
 * Connecting (TCP, TLS and the Bolt handshake) has the config's connect time-out; each query runs
 * in a transaction with the server's time-out and is also bounded on the collector's side, after
 * which the driver is dropped. The poller's transactions carry metadata that keeps them out of
 * the lists.
 */
export const createNeo4jPoller: PollerFactory<'neo4j'> = (
  config: Neo4jPollerConfig,
  { logger }: PollerOptions,
) => {
  const target = hostPort(config.host, config.port);
  const warnings = new SectionWarnings(logger, 'neo4j', target);
  let previous: { at: number; reading: Neo4jReading } | undefined;
  let sizesReadAt: number | undefined;
  /** Whether the last attempt met silence (or none was made yet): the next one checks with a handshake first. */
  let suspectSilent = true;

  function open(): Neo4jClient {
    let caDir: string | undefined;
    const trust: Record<string, unknown> = {};
    if (config.tls.enabled) {
      if (!config.tls.reject_unauthorized) trust.trust = 'TRUST_ALL_CERTIFICATES';
      else if (config.tls.ca) {
        // The driver reads trusted certificates from files; the system's authorities stay trusted too.
        caDir = mkdtempSync(join(tmpdir(), 'fd-neo4j-ca-'));
        const file = join(caDir, 'ca.pem');
        writeFileSync(file, [config.tls.ca, ...rootCertificates].join('\n'), { mode: 0o600 });
        Object.assign(trust, { trust: 'TRUST_CUSTOM_CA_SIGNED_CERTIFICATES', trustedCertificates: [file] });
      } else trust.trust = 'TRUST_SYSTEM_CA_SIGNED_CERTIFICATES';
    }
    const driver = neo4jDriver(`bolt://${target}`, auth.basic(config.user, config.password), {
      encrypted: config.tls.enabled ? 'ENCRYPTION_ON' : 'ENCRYPTION_OFF',
      ...trust,
      maxConnectionPoolSize: 2,
      connectionTimeout: config.connect_timeout_ms,
      // Covers the Bolt handshake and authentication, which connectionTimeout (TCP only) does not.
      connectionAcquisitionTimeout: config.connect_timeout_ms,
      maxTransactionRetryTime: 0,
      userAgent: 'flightdeck-poller',
      logging: {
        level: 'warn',
        logger: (level, message) => logger.warn({ service: 'neo4j', target, level }, message),
      },
    });
    return { driver, caDir };
  }

  async function shut(client: Neo4jClient): Promise<void> {
    try {
      await withTimeout(client.driver.close(), config.connect_timeout_ms);
    } catch (err) {
      logger.warn({ service: 'neo4j', target, err: errorMessage(err) }, 'closing the driver failed');
    } finally {
      if (client.caDir) rmSync(client.caDir, { recursive: true, force: true });
    }
  }

  const clients = new IdleClient(open, shut, NEO4J_IDLE_CLIENT_MS);

  /** Runs one query in its own transaction, bounded on both sides. */
  async function run(session: Session, cypher: string) {
    const result = session.run(
      cypher,
      {},
      { timeout: config.query_timeout_ms, metadata: NEO4J_POLLER_METADATA },
    );
    return withTimeout(Promise.resolve(result), config.query_timeout_ms + 1000);
  }

  /** Runs `work` with sessions on the target database and on `system`, closing both. */
  async function withSessions<T>(
    work: (db: Session, system: () => Session) => Promise<T>,
  ): Promise<T | PollerFailure> {
    if (suspectSilent && !clients.isOpen) {
      if (!(await boltAnswers(config.host, config.port, config.tls, config.connect_timeout_ms))) {
        return failure(
          'timeout',
          `Neo4j at ${target} did not respond within ${config.connect_timeout_ms} ms. Check the host, the port and any firewall in between, then try again.`,
        );
      }
    }
    try {
      const value = await clients.use(async ({ driver }) => {
        const opened: Session[] = [];
        const db = driver.session({ database: config.database, defaultAccessMode: 'READ' });
        opened.push(db);
        const system = () => {
          const s = driver.session({ database: 'system', defaultAccessMode: 'READ' });
          opened.push(s);
          return s;
        };
        try {
          return await work(db, system);
        } finally {
          // Not awaited: a session whose query timed out waits for it, and the driver is dropped anyway.
          for (const s of opened) s.close().catch(() => {});
        }
      });
      suspectSilent = false;
      return value;
    } catch (err) {
      if (isProgrammerError(err)) throw err;
      await clients.discard();
      const failed = classifyNeo4jError(err, config);
      suspectSilent = failed.code === 'timeout';
      return failed;
    }
  }

  async function optional<T>(section: string, read: () => Promise<T>): Promise<T | undefined> {
    try {
      const value = await read();
      warnings.clear(section);
      return value;
    } catch (err) {
      if (err instanceof TimeoutError || isProgrammerError(err)) throw err;
      warnings.warn(section, err);
      return undefined;
    }
  }

  async function read(db: Session, system: () => Session, now: number): Promise<Neo4jReading> {
    const components = await run(db, COMPONENTS_CYPHER);
    const server = readComponents(components.records);
    const address = components.summary.server.address ?? target;
    const transactions = (await run(db, TRANSACTIONS_CYPHER)).records.map(readTransaction);
    const databases = (await run(system(), DATABASES_CYPHER)).records.map(readDatabase);
    const reading: Neo4jReading = { server, database: config.database, address, databases, transactions };
    reading.connections = await optional('connections', async () =>
      readConnections((await run(db, CONNECTIONS_CYPHER)).records),
    );
    reading.jmx = await optional('JMX beans', async () => readJmx((await run(db, JMX_CYPHER)).records));
    if (sizesReadAt === undefined || now - sizesReadAt >= config.size_interval_s * 1000) {
      reading.counts = await optional('node and relationship counts', async () => ({
        nodes: readCount((await run(db, NODE_COUNT_CYPHER)).records),
        relationships: readCount((await run(db, RELATIONSHIP_COUNT_CYPHER)).records),
      }));
      if (reading.counts) sizesReadAt = now;
    }
    return reading;
  }

  async function connectionTest() {
    const result = await withSessions(async (db, system) => {
      const components = await run(db, COMPONENTS_CYPHER);
      const server = readComponents(components.records);
      const address = components.summary.server.address ?? target;
      const databases = await optional('databases', async () =>
        (await run(system(), DATABASES_CYPHER)).records.map(readDatabase),
      );
      const replication = databases
        ? neo4jReplication({ server, database: config.database, address, databases, transactions: [] })
        : undefined;
      return { server, replication };
    });
    if (isFailure(result)) return result;
    return {
      ok: true as const,
      version: result.server.version,
      details: {
        engine: 'Neo4j',
        edition: result.server.edition,
        database: config.database,
        user: config.user,
        role: result.replication?.role ?? null,
      },
    };
  }

  const poller: Poller = {
    service: 'neo4j',
    target,
    testConnection() {
      return testWithEngineCheck(
        connectionTest(),
        foreignEngine(config.host, config.port, config.connect_timeout_ms, 'Neo4j', config.tls.enabled),
      );
    },
    async poll(now): Promise<PollResult> {
      const reading = await withSessions((db, system) => read(db, system, now));
      if (isFailure(reading)) return reading;
      const prev = previous;
      previous = { at: now, reading };
      const seconds = prev ? (now - prev.at) / 1000 : 0;
      return {
        ok: true,
        samples: neo4jSamples(reading, prev?.reading, seconds, config.long_query_s),
        extras: neo4jExtras(reading, config.long_query_s),
      };
    },
    async close() {
      previous = undefined;
      await clients.close();
    },
  };
  return poller;
};
