import type { ConnectionTestResult, MongodbPollerConfig, PollerFailure } from '@flightdeck/schemas';
import { type Document, MongoClient, type MongoClientOptions } from 'mongodb';
import type { Logger } from 'pino';
import type { Poller, PollerFactory, PollerOptions, PollResult } from './contract';
import {
  errorMessage,
  failure,
  hostPort,
  isFailure,
  isProgrammerError,
  networkFailure,
  TimeoutError,
  withTimeout,
} from './failure';
import {
  type Doc,
  MONGODB_APP_NAME,
  type MongoReading,
  type MongoStatus,
  mongoExtras,
  mongoSamples,
  readDbStats,
  readOperation,
  readReplSetStatus,
  readServerStatus,
} from './mongodb-metrics';
import { probeMongo } from './mongodb-probe';
import { wrongEngine } from './sniff';
import { SectionWarnings } from './warnings';

/**
 * A client idle this long is closed: well under the shortest interval, so between polls a target
 * holds no connection (the driver's monitoring connections included).
 */
export const MONGODB_IDLE_CLIENT_MS = 2_000;

/** Most operations of `$currentOp` a poll reads, longest-running first. */
export const MAX_OPERATIONS = 1_000;

/** Server error codes the poller tells apart. */
const UNAUTHORIZED = 13;
const AUTHENTICATION_FAILED = 18;
const MAX_TIME_MS_EXPIRED = 50;
const NO_REPLICATION_ENABLED = 76;
const NOT_YET_INITIALIZED = 94;

/** The driver's options for a target: one member unless told to follow the set, small pool, time-outs. */
export function mongoClientOptions(
  config: MongodbPollerConfig,
  appName = MONGODB_APP_NAME,
): MongoClientOptions {
  return {
    appName,
    directConnection: config.direct_connection,
    ...(config.replica_set ? { replicaSet: config.replica_set } : {}),
    ...(config.user
      ? { auth: { username: config.user, password: config.password }, authSource: config.auth_source }
      : {}),
    connectTimeoutMS: config.connect_timeout_ms,
    serverSelectionTimeoutMS: config.connect_timeout_ms,
    socketTimeoutMS: config.query_timeout_ms + 1000,
    maxPoolSize: 2,
    minPoolSize: 0,
    maxIdleTimeMS: MONGODB_IDLE_CLIENT_MS,
    retryReads: false,
    retryWrites: false,
    ...(config.tls.enabled
      ? {
          tls: true,
          tlsAllowInvalidCertificates: !config.tls.reject_unauthorized,
          ...(config.tls.ca ? { ca: config.tls.ca } : {}),
        }
      : {}),
  };
}

/** The connection string of a target: the host only; credentials go in the options. */
export function mongoUrl(config: MongodbPollerConfig): string {
  return `mongodb://${hostPort(config.host, config.port)}/`;
}

/** The error, its causes, and the errors of the servers a selection gave up on. */
function errorChain(err: unknown): Record<string, unknown>[] {
  const chain: Record<string, unknown>[] = [];
  const visit = (e: unknown, depth: number) => {
    if (!e || typeof e !== 'object' || depth > 5 || chain.includes(e as Record<string, unknown>)) return;
    const rec = e as Record<string, unknown>;
    chain.push(rec);
    visit(rec.cause, depth + 1);
    const servers = (rec.reason as { servers?: unknown } | undefined)?.servers;
    if (servers instanceof Map)
      for (const d of servers.values()) visit((d as { error?: unknown }).error, depth + 1);
  };
  visit(err, 0);
  return chain;
}

/** The replica set a selection found the member in, when it is not the one configured. */
function otherSetName(err: unknown, config: MongodbPollerConfig): string | undefined {
  const servers = (err as { reason?: { servers?: unknown } } | null)?.reason?.servers;
  if (!config.replica_set || !(servers instanceof Map)) return undefined;
  for (const d of servers.values()) {
    const setName = (d as { setName?: unknown }).setName;
    if (typeof setName === 'string' && setName !== config.replica_set) return setName;
  }
  return undefined;
}

/**
 * The failure for an error of the MongoDB driver or the server: refused credentials (18) and
 * missing privileges (13), time limits (50, the driver's socket and selection time-outs), another
 * replica set, TLS, and the network errors of {@link networkFailure} found among its causes.
 */
export function classifyMongoError(err: unknown, config: MongodbPollerConfig): PollerFailure {
  const target = hostPort(config.host, config.port);
  const what = `MongoDB at ${target}`;
  const chain = errorChain(err);
  const auth = (why: string) =>
    failure(
      'auth_failed',
      config.user
        ? `Authentication error at ${target} for user "${config.user}": ${why}. Check the service logs to find the cause.`
        : `Authentication error at ${target}: ${why}. Check the service logs to find the cause.`,
    );
  for (const e of chain) {
    const code = typeof e.code === 'number' ? e.code : undefined;
    const message = typeof e.message === 'string' ? e.message : '';
    if (code === AUTHENTICATION_FAILED || e.codeName === 'AuthenticationFailed') {
      return auth(`the user or the password was refused (authentication database "${config.auth_source}")`);
    }
    if (code === UNAUTHORIZED || e.codeName === 'Unauthorized') {
      return auth(
        config.user
          ? `${message}; grant the user the clusterMonitor role`
          : `the server requires authentication (${message}); give a user with the clusterMonitor role`,
      );
    }
    if (
      code === MAX_TIME_MS_EXPIRED ||
      e.name === 'MongoNetworkTimeoutError' ||
      e.name === 'MongoOperationTimeoutError'
    ) {
      return failure(
        'timeout',
        `A command to ${what} did not finish within ${config.query_timeout_ms} ms. The server may be overloaded.`,
      );
    }
  }
  const setName = otherSetName(err, config);
  if (setName !== undefined) {
    return failure(
      'not_found',
      `${target} is a member of replica set "${setName}", not "${config.replica_set}". Check the replica set name.`,
    );
  }
  for (const e of chain) {
    const network = networkFailure(e, what, config.host, config.connect_timeout_ms);
    if (network) return network;
  }
  const message = errorMessage(err);
  if (
    err instanceof TimeoutError ||
    ((err as { name?: unknown } | null)?.name === 'MongoServerSelectionError' && /timed out/i.test(message))
  ) {
    return failure(
      'timeout',
      `${what} did not respond within ${config.connect_timeout_ms} ms. Check the host, the port and any firewall in between, then try again.`,
    );
  }
  if (/SSL|TLS|certificate/i.test(message)) {
    return failure('tls_error', `The TLS connection to ${what} failed: ${message}.`);
  }
  return failure('connection_failed', `Failed to connect to ${what}: ${message}.`);
}

/**
 * Checks, before the driver connects in plain TCP, that MongoDB answers on the port; with TLS the
 * driver's own handshake tells another server apart.
 */
export async function checkMongoEngine(config: MongodbPollerConfig): Promise<PollerFailure | undefined> {
  if (config.tls.enabled) return undefined;
  const target = hostPort(config.host, config.port);
  const probe = await probeMongo(config.host, config.port, config.connect_timeout_ms);
  if (isFailure(probe)) return probe;
  if (probe.engine === 'mongodb') return undefined;
  if (probe.engine === 'tls') {
    return failure('tls_error', `${target} answers with TLS: turn TLS on for this target.`);
  }
  return (
    wrongEngine(probe, 'other', target, 'MongoDB') ??
    failure(
      'wrong_engine',
      `${target} answers, but not as MongoDB${probe.detail ? ` (${probe.detail})` : ''}. Check the port.`,
    )
  );
}

/**
 * Opens a client on a target that answered as MongoDB, connected and authenticated, or the
 * failure. The caller closes the client.
 */
export async function openMongoClient(
  config: MongodbPollerConfig,
  logger: Logger,
  appName = MONGODB_APP_NAME,
): Promise<{ ok: true; client: MongoClient } | PollerFailure> {
  const wrong = await checkMongoEngine(config);
  if (wrong) return wrong;
  const client = new MongoClient(mongoUrl(config), mongoClientOptions(config, appName));
  try {
    // Selection gives up after connect_timeout_ms; the margin covers authentication after it.
    await withTimeout(client.connect(), 2 * config.connect_timeout_ms + 1000);
    return { ok: true, client };
  } catch (err) {
    await closeMongoClient(client, logger, hostPort(config.host, config.port));
    if (isProgrammerError(err)) throw err;
    return classifyMongoError(err, config);
  }
}

/** Time a closing client gets before the caller goes on without waiting for it. */
const CLOSE_WAIT_MS = 1_000;

/**
 * Closes a client, logging a close that fails; one that hangs (a dead server) is not waited for
 * past a second, and goes on in the background.
 */
export async function closeMongoClient(client: MongoClient, logger: Logger, target: string): Promise<void> {
  await withTimeout(client.close(), CLOSE_WAIT_MS).catch((err: unknown) =>
    logger.warn({ service: 'mongodb', target, err: errorMessage(err) }, 'closing the client failed'),
  );
}

/** Runs an admin command with the config's time limit on the server and, as a backstop, here. */
export function adminCommand(
  client: MongoClient,
  config: MongodbPollerConfig,
  command: Document,
): Promise<Doc> {
  return withTimeout(
    client.db('admin').command({ ...command, maxTimeMS: config.query_timeout_ms }),
    config.query_timeout_ms + 1500,
  ) as Promise<Doc>;
}

/** The active operations, longest-running first (`$currentOp` over every user's operations). */
export async function currentOperations(client: MongoClient, config: MongodbPollerConfig): Promise<Doc[]> {
  const cursor = client
    .db('admin')
    .aggregate<Doc>(
      [
        { $currentOp: { allUsers: true, idleConnections: false } },
        { $match: { active: true } },
        { $sort: { microsecs_running: -1 } },
        { $limit: MAX_OPERATIONS },
      ],
      { maxTimeMS: config.query_timeout_ms },
    );
  return withTimeout(cursor.toArray(), config.query_timeout_ms + 1500);
}

/** replSetGetStatus, or null on a server outside a replica set. */
export async function replSetStatus(client: MongoClient, config: MongodbPollerConfig): Promise<Doc | null> {
  try {
    return await adminCommand(client, config, { replSetGetStatus: 1 });
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === NO_REPLICATION_ENABLED || code === NOT_YET_INITIALIZED) return null;
    throw err;
  }
}

function role(hello: Doc): string {
  if (hello.isWritablePrimary === true) return 'primary';
  if (hello.secondary === true) return 'secondary';
  if (hello.arbiterOnly === true) return 'arbiter';
  return typeof hello.setName === 'string' ? 'other' : 'standalone';
}

/**
 * Polls a MongoDB server through one client of at most 2 pooled connections, closed once idle.
 * Every command carries maxTimeMS, the driver a socket time-out, and each call a deadline here.
 * Without the clusterMonitor role only serverStatus's own figures are read.
 */
export const createMongodbPoller: PollerFactory<'mongodb'> = (
  config: MongodbPollerConfig,
  { logger }: PollerOptions,
) => {
  const target = hostPort(config.host, config.port);
  const warnings = new SectionWarnings(logger, 'mongodb', target);
  let client: MongoClient | undefined;
  let idle: NodeJS.Timeout | undefined;
  let previous: { at: number; reading: MongoReading } | undefined;
  let sizesReadAt: number | undefined;

  async function closeClient(): Promise<void> {
    clearTimeout(idle);
    const c = client;
    client = undefined;
    if (c) await closeMongoClient(c, logger, target);
  }

  async function withClient<T>(work: (c: MongoClient) => Promise<T>): Promise<T | PollerFailure> {
    clearTimeout(idle);
    if (!client) {
      const opened = await openMongoClient(config, logger);
      if (isFailure(opened)) return opened;
      client = opened.client;
    }
    try {
      const result = await work(client);
      idle = setTimeout(() => void closeClient(), MONGODB_IDLE_CLIENT_MS);
      idle.unref();
      return result;
    } catch (err) {
      // A client that failed may hold a half-dead connection: the next call opens a new one.
      await closeClient();
      if (isProgrammerError(err)) throw err;
      return classifyMongoError(err, config);
    }
  }

  async function optional<T>(section: string, read: () => Promise<T>): Promise<T | undefined> {
    try {
      const value = await read();
      warnings.clear(section);
      return value;
    } catch (err) {
      if (isProgrammerError(err) || err instanceof TimeoutError) throw err;
      warnings.warn(section, err);
      return undefined;
    }
  }

  async function databaseSizes(c: MongoClient) {
    const list = await adminCommand(c, config, { listDatabases: 1, nameOnly: true });
    const names = (Array.isArray(list.databases) ? (list.databases as Doc[]) : [])
      .map((d) => d.name)
      .filter((n): n is string => typeof n === 'string');
    const sizes = [];
    for (const name of names) {
      const stats = await withTimeout(
        c.db(name).command({ dbStats: 1, scale: 1, maxTimeMS: config.query_timeout_ms }),
        config.query_timeout_ms + 1500,
      );
      sizes.push(readDbStats({ ...stats, db: name }));
    }
    return sizes;
  }

  async function read(c: MongoClient, now: number): Promise<MongoReading> {
    const status: MongoStatus = readServerStatus(await adminCommand(c, config, { serverStatus: 1 }));
    const reading: MongoReading = { status };
    reading.replSet =
      status.set_name === null
        ? null
        : await optional('replication', async () => {
            const doc = await replSetStatus(c, config);
            return doc ? readReplSetStatus(doc) : null;
          });
    reading.operations = await optional('operations', async () =>
      (await currentOperations(c, config)).map(readOperation),
    );
    if (sizesReadAt === undefined || now - sizesReadAt >= config.size_interval_s * 1000) {
      reading.sizes = await optional('sizes', () => databaseSizes(c));
      if (reading.sizes) sizesReadAt = now;
    }
    return reading;
  }

  const poller: Poller = {
    service: 'mongodb',
    target,
    async testConnection(): Promise<ConnectionTestResult> {
      const opened = await openMongoClient(config, logger);
      if (isFailure(opened)) return opened;
      const c = opened.client;
      try {
        const hello = await adminCommand(c, config, { hello: 1 });
        const build = await adminCommand(c, config, { buildInfo: 1 });
        // The poll needs serverStatus: a user without clusterMonitor fails here, not later.
        const status = readServerStatus(await adminCommand(c, config, { serverStatus: 1 }));
        const current = status.values.get('connections.current');
        const available = status.values.get('connections.available');
        return {
          ok: true,
          version: typeof build.version === 'string' ? build.version : status.version,
          details: {
            engine: 'MongoDB',
            process: status.process,
            role: role(hello),
            replica_set: typeof hello.setName === 'string' ? hello.setName : null,
            user: config.user ?? null,
            auth_source: config.user ? config.auth_source : null,
            max_connections: current !== undefined && available !== undefined ? current + available : null,
            uptime_s: status.uptime_s === null ? null : Math.round(status.uptime_s),
          },
        };
      } catch (err) {
        if (isProgrammerError(err)) throw err;
        return classifyMongoError(err, config);
      } finally {
        await closeMongoClient(c, logger, target);
      }
    },
    async poll(now): Promise<PollResult> {
      const reading = await withClient((c) => read(c, now));
      if (isFailure(reading)) return reading;
      const prev = previous;
      previous = { at: now, reading };
      const seconds = prev ? (now - prev.at) / 1000 : 0;
      return {
        ok: true,
        samples: mongoSamples(reading, prev?.reading, seconds, config.long_query_s),
        extras: mongoExtras(reading, config.long_query_s),
      };
    },
    async close() {
      previous = undefined;
      await closeClient();
    },
  };
  return poller;
};
