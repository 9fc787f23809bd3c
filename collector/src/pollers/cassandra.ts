import { rootCertificates } from 'node:tls';
import type { CassandraPollerConfig, PollerFailure } from '@flightdeck/schemas';
import { auth, Client, errors, types } from 'cassandra-driver';
import {
  type CassandraHost,
  type CassandraReading,
  cassandraExtras,
  cassandraSamples,
} from './cassandra-metrics';
import {
  CACHES_CQL,
  CASSANDRA_APPLICATION_NAME,
  CLIENTS_CQL,
  DISK_USAGE_CQL,
  LOCAL_CQL,
  MAX_CONNECTIONS_CQL,
  MAX_PARTITION_CQL,
  PEERS_CQL,
  PEERS_V2_CQL,
  QUERIES_CQL,
  readCache,
  readClient,
  readLocal,
  readMaxConnections,
  readPeer,
  readPool,
  readQuery,
  readTableBytes,
  readTask,
  SSTABLE_TASKS_CQL,
  THREAD_POOLS_CQL,
  VIEWS_CQL,
} from './cassandra-queries';
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
import { SectionWarnings } from './warnings';

/** The client of a target is closed once idle this long, and its connections with it. */
export const CASSANDRA_IDLE_CLIENT_MS = 2_000;

const codes = types.responseErrorCodes;

/**
 * The failure for an error of cassandra-driver or the node. A failed connect arrives as a
 * NoHostAvailableError holding each contact point's own error (refused, authentication, time-out),
 * which is classified in its place; then the node's response errors by their protocol code.
 */
export function classifyCassandraError(err: unknown, config: CassandraPollerConfig): PollerFailure {
  const target = hostPort(config.host, config.port);
  const what = `Cassandra at ${target}`;
  const message = errorMessage(err);
  const auth = (why: string) =>
    failure(
      'auth_failed',
      `Authentication error at ${target}${config.user ? ` for user "${config.user}"` : ''}: ${why}. Check the service logs to find the cause.`,
    );
  if (err instanceof errors.NoHostAvailableError) {
    const inner = Object.values(err.innerErrors ?? {}) as unknown[];
    const first = inner.find((e) => e instanceof errors.AuthenticationError) ?? inner[0];
    if (first !== undefined) return classifyCassandraError(first, config);
    return failure('connection_failed', `Failed to connect to the pool at ${target}: ${message}.`);
  }
  if (err instanceof TimeoutError) {
    return failure(
      'timeout',
      `${what} did not respond within ${err.ms} ms. Check the host, the port and any firewall in between, then try again.`,
    );
  }
  if (err instanceof errors.AuthenticationError) {
    if (/requires authentication, but no authenticator/i.test(message)) {
      return auth('the node requires a user and a password; give them in the target settings');
    }
    return auth(config.user ? 'the user or the password was refused' : message);
  }
  if (err instanceof errors.OperationTimedOutError) {
    return failure(
      'timeout',
      `${what} did not answer within ${config.query_timeout_ms} ms. Check that Cassandra listens on this port and is not overloaded.`,
    );
  }
  if (err instanceof errors.ArgumentError && /Datacenter .* was not found/i.test(message)) {
    return failure(
      'not_found',
      `Data center "${config.local_datacenter}" was not found at ${target} (${message}). Set the local data center to the node's.`,
    );
  }
  if (err instanceof errors.ResponseError) {
    switch (err.code) {
      case codes.badCredentials:
        return auth('the user or the password was refused');
      case codes.unauthorized:
        return auth(`${message}; grant the user SELECT on the system and system_views keyspaces`);
      case codes.readTimeout:
      case codes.writeTimeout:
        return failure(
          'timeout',
          `A query to ${what} did not finish in time (${message}). The node may be overloaded.`,
        );
      case codes.overloaded:
      case codes.isBootstrapping:
      case codes.unavailableException:
        return failure('connection_failed', `Failed to connect to the pool at ${target}: ${message}.`);
      case codes.invalid:
        if (config.keyspace && /keyspace/i.test(message) && /does not exist|not found/i.test(message)) {
          return failure(
            'not_found',
            `Keyspace "${config.keyspace}" does not exist at ${target}. Check the keyspace name.`,
          );
        }
        break;
    }
  }
  if (/secure TLS connection|certificate|wrong version number/i.test(message)) {
    return failure('tls_error', `The TLS connection to ${what} failed: ${message}.`);
  }
  const network = networkFailure(err, what, config.host, config.connect_timeout_ms);
  if (network) return network;
  if (errorCode(err) === undefined && err instanceof errors.DriverError && /protocol/i.test(message)) {
    return failure(
      'wrong_engine',
      `${target} does not answer as a Cassandra node speaking CQL (${message}). Check the port: CQL listens on 9042 by default.`,
    );
  }
  return failure('connection_failed', `Failed to connect to the pool at ${target}: ${message}.`);
}

/** A client and its connect, started when the client is made. */
interface CassandraClient {
  client: Client;
  ready: Promise<void>;
}

/** Host address without its port, as system.peers names nodes. */
function bareAddress(address: string): string {
  return address.replace(/:\d+$/, '').replace(/^\[(.*)\]$/, '$1');
}

/**
 * Polls a Cassandra node over CQL with one client, closed when idle. The client holds one
 * connection to each node of the local data center (which tells the driver which are up) and
 * skips the schema metadata. Connecting has the config's connect time-out; each query the
 * driver's read time-out and a bound on the collector's side, after which the client is dropped.
 */
export const createCassandraPoller: PollerFactory<'cassandra'> = (
  config: CassandraPollerConfig,
  { logger }: PollerOptions,
) => {
  const target = hostPort(config.host, config.port);
  const warnings = new SectionWarnings(logger, 'cassandra', target);
  let previous: { at: number; reading: CassandraReading } | undefined;
  let sizesReadAt: number | undefined;
  let peersCql = PEERS_V2_CQL;

  function open(): CassandraClient {
    const client = new Client({
      contactPoints: [config.host],
      protocolOptions: { port: config.port },
      localDataCenter: config.local_datacenter,
      ...(config.keyspace ? { keyspace: config.keyspace } : {}),
      ...(config.user ? { authProvider: new auth.PlainTextAuthProvider(config.user, config.password) } : {}),
      ...(config.tls.enabled
        ? {
            sslOptions: {
              rejectUnauthorized: config.tls.reject_unauthorized,
              // A CA given replaces Node's list, so the system's authorities are added back.
              ...(config.tls.ca ? { ca: [config.tls.ca, ...rootCertificates] } : {}),
            },
          }
        : {}),
      socketOptions: {
        connectTimeout: config.connect_timeout_ms,
        readTimeout: config.query_timeout_ms,
        keepAlive: true,
      },
      pooling: {
        coreConnectionsPerHost: { [types.distance.local]: 1, [types.distance.remote]: 0 },
        warmup: true,
      },
      isMetadataSyncEnabled: false,
      applicationName: CASSANDRA_APPLICATION_NAME,
      queryOptions: { consistency: types.consistencies.localOne, prepare: false, isIdempotent: true },
    });
    const ready = client.connect();
    // Awaited by the first use; a client discarded before that must not leave an unhandled rejection.
    ready.catch(() => {});
    return { client, ready };
  }

  async function shut({ client }: CassandraClient): Promise<void> {
    try {
      await withTimeout(client.shutdown(), config.connect_timeout_ms);
    } catch (err) {
      logger.warn({ service: 'cassandra', target, err: errorMessage(err) }, 'closing the client failed');
    }
  }

  const clients = new IdleClient(open, shut, CASSANDRA_IDLE_CLIENT_MS);

  async function rows(client: Client, cql: string): Promise<types.Row[]> {
    const result = await withTimeout(
      client.execute(cql, [], { readTimeout: config.query_timeout_ms }),
      config.query_timeout_ms + 1000,
    );
    return result.rows;
  }

  async function withClient<T>(work: (client: Client) => Promise<T>): Promise<T | PollerFailure> {
    try {
      return await clients.use(async ({ client, ready }) => {
        await withTimeout(ready, config.connect_timeout_ms);
        return work(client);
      });
    } catch (err) {
      if (isProgrammerError(err)) throw err;
      await clients.discard();
      return classifyCassandraError(err, config);
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

  async function readPeers(client: Client) {
    try {
      return (await rows(client, peersCql)).map(readPeer);
    } catch (err) {
      if (!(err instanceof errors.ResponseError) || err.code !== codes.invalid || peersCql === PEERS_CQL)
        throw err;
      peersCql = PEERS_CQL;
      return (await rows(client, peersCql)).map(readPeer);
    }
  }

  function hostsOf(client: Client): CassandraHost[] {
    return client.hosts.values().map((h) => ({
      address: bareAddress(h.address),
      datacenter: h.datacenter ?? null,
      // The driver connects to the local data center only, so it knows nothing of the others.
      up: h.datacenter === config.local_datacenter ? h.isUp() : null,
    }));
  }

  async function readLocalRow(client: Client) {
    const started = performance.now();
    const row = (await rows(client, LOCAL_CQL))[0];
    if (!row) throw new Error('system.local answered no row');
    return { local: readLocal(row), latencyMs: performance.now() - started };
  }

  async function read(client: Client, now: number): Promise<CassandraReading> {
    const { local, latencyMs } = await readLocalRow(client);
    const peers = await readPeers(client);
    const reading: CassandraReading = { at: now, local, peers, hosts: hostsOf(client), latencyMs };
    const views = await optional(
      'virtual tables',
      async () => new Set((await rows(client, VIEWS_CQL)).map((r) => String(r.get('table_name')))),
    );
    if (!views) return reading;
    const view = async <T>(name: string, section: string, readView: () => Promise<T>) =>
      views.has(name) ? optional(section, readView) : undefined;
    reading.clients = await view('clients', 'clients', async () =>
      (await rows(client, CLIENTS_CQL)).map(readClient),
    );
    reading.pools = await view('thread_pools', 'thread pools', async () =>
      (await rows(client, THREAD_POOLS_CQL)).map(readPool),
    );
    reading.caches = await view('caches', 'caches', async () =>
      (await rows(client, CACHES_CQL)).map(readCache),
    );
    reading.maxConnections = await view('settings', 'settings', async () =>
      readMaxConnections(await rows(client, MAX_CONNECTIONS_CQL)),
    );
    reading.tasks = await view('sstable_tasks', 'sstable tasks', async () =>
      (await rows(client, SSTABLE_TASKS_CQL)).map(readTask),
    );
    reading.queries = await view('queries', 'running queries', async () =>
      (await rows(client, QUERIES_CQL)).map(readQuery),
    );
    if (
      views.has('disk_usage') &&
      (sizesReadAt === undefined || now - sizesReadAt >= config.size_interval_s * 1000)
    ) {
      reading.sizes = await optional('sizes', async () => {
        const tables = (await rows(client, DISK_USAGE_CQL)).map(readTableBytes);
        const partitions = views.has('max_partition_size')
          ? (await rows(client, MAX_PARTITION_CQL)).map(readTableBytes)
          : [];
        const largest = partitions.reduce<number | null>((max, t) => Math.max(max ?? 0, t.bytes), null);
        return { tables, maxPartitionBytes: largest };
      });
      if (reading.sizes) sizesReadAt = now;
    }
    return reading;
  }

  async function connectionTest() {
    const result = await withClient(async (client) => {
      const { local } = await readLocalRow(client);
      return { local, peers: await readPeers(client) };
    });
    if (isFailure(result)) return result;
    return {
      ok: true as const,
      version: result.local.release_version,
      details: {
        engine: 'Cassandra',
        cluster_name: result.local.cluster_name,
        data_center: result.local.data_center,
        rack: result.local.rack,
        nodes: 1 + result.peers.length,
        user: config.user ?? null,
        keyspace: config.keyspace ?? null,
      },
    };
  }

  const poller: Poller = {
    service: 'cassandra',
    target,
    testConnection() {
      return testWithEngineCheck(
        connectionTest(),
        foreignEngine(config.host, config.port, config.connect_timeout_ms, 'Cassandra', config.tls.enabled),
      );
    },
    async poll(now): Promise<PollResult> {
      const reading = await withClient((client) => read(client, now));
      if (isFailure(reading)) return reading;
      const prev = previous;
      previous = { at: now, reading };
      const seconds = prev ? (now - prev.at) / 1000 : 0;
      return {
        ok: true,
        samples: cassandraSamples(reading, prev?.reading, seconds, config.long_query_s),
        extras: cassandraExtras(reading, config.long_query_s, config.top_tables, config.keyspace),
      };
    },
    async close() {
      previous = undefined;
      await clients.close();
    },
  };
  return poller;
};
