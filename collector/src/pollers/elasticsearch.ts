import { Client, type ClientOptions, errors } from '@elastic/elasticsearch';
import type { ConnectionTestResult, ElasticsearchPollerConfig, PollerFailure } from '@flightdeck/schemas';
import type { Poller, PollerFactory, PollerOptions, PollResult } from './contract';
import {
  type Doc,
  type EsReading,
  esExtras,
  esSamples,
  readCatIndex,
  readClusterHealth,
  readInfo,
  readNodesStats,
  readTasks,
} from './elasticsearch-metrics';
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
import { sniffEngine, wrongEngine } from './sniff';
import { SectionWarnings } from './warnings';

/** A client idle this long is closed, so between polls a target holds no connection. */
export const ELASTICSEARCH_IDLE_CLIENT_MS = 2_000;

/** Where the poller reaches the cluster: the node's URL, its host and port, and how messages name it. */
export interface EsEndpoint {
  url: URL;
  host: string;
  port: number;
  /** `host:port`, or the configured URL without a trailing slash. */
  target: string;
}

export function esEndpoint(config: ElasticsearchPollerConfig): EsEndpoint {
  if (config.url) {
    const url = new URL(config.url);
    const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    return { url, host, port, target: config.url.replace(/\/+$/, '') };
  }
  const host = config.host ?? 'localhost';
  const target = hostPort(host, config.port);
  return {
    url: new URL(`${config.tls.enabled ? 'https' : 'http'}://${target}`),
    host,
    port: config.port,
    target,
  };
}

/** The client's options: no retries, no sniffing, the config's time-outs and credentials. */
export function esClientOptions(config: ElasticsearchPollerConfig): ClientOptions {
  const { url } = esEndpoint(config);
  const https = url.protocol === 'https:';
  return {
    node: url.toString(),
    maxRetries: 0,
    requestTimeout: config.query_timeout_ms,
    compression: false,
    ...(config.user
      ? { auth: { username: config.user, password: config.password } }
      : config.api_key
        ? { auth: { apiKey: config.api_key } }
        : {}),
    // undici reads its connect time-out from the TLS options, in plain http too.
    tls: {
      timeout: config.connect_timeout_ms,
      ...(https
        ? {
            rejectUnauthorized: config.tls.reject_unauthorized,
            ...(config.tls.ca ? { ca: config.tls.ca } : {}),
          }
        : {}),
    },
  };
}

/** The code a connection error names in its message (the client keeps only the message). */
function codeIn(message: string): string | undefined {
  return /\b(E[A-Z]{4,}|ERR_[A-Z_]+|UND_ERR_[A-Z_]+)\b/.exec(message)?.[1];
}

function statusOf(err: unknown): number | undefined {
  return err instanceof errors.ResponseError ? err.statusCode : undefined;
}

/** An error answer of Elasticsearch's own: `{error: {type, reason}, status}`. */
function esReason(body: unknown): string | undefined {
  const error = (body as { error?: unknown } | null)?.error;
  if (typeof error === 'string') return error;
  const reason = (error as { reason?: unknown } | null)?.reason;
  return typeof reason === 'string' ? reason : undefined;
}

/**
 * The failure for an error of the Elasticsearch client: 401 and 403 answers, a server that is not
 * Elasticsearch (the client's product check, or an error answer without Elasticsearch's body),
 * time-outs, TLS, and the network errors its messages name.
 */
export function classifyEsError(err: unknown, config: ElasticsearchPollerConfig): PollerFailure {
  const { target, host } = esEndpoint(config);
  const what = `Elasticsearch at ${target}`;
  const who = config.user ? ` for user "${config.user}"` : config.api_key ? ' for the API key' : '';
  const auth = (why: string) =>
    failure(
      'auth_failed',
      `Authentication error at ${target}${who}: ${why}. Check the service logs to find the cause.`,
    );
  if (err instanceof errors.ProductNotSupportedError) {
    const server = err.meta?.headers?.server;
    const distribution = (err.meta?.body as { version?: { distribution?: unknown } } | undefined)?.version
      ?.distribution;
    const said = typeof distribution === 'string' ? distribution : typeof server === 'string' ? server : '';
    return failure(
      'wrong_engine',
      `${target} answers as an HTTP server${said ? ` (${said})` : ''}, not Elasticsearch. Check the port and the URL.`,
    );
  }
  const status = statusOf(err);
  if (err instanceof errors.ResponseError && status !== undefined) {
    const reason = esReason(err.body);
    const elastic = err.headers?.['x-elastic-product'] === 'Elasticsearch' || reason !== undefined;
    if (status === 401) {
      return auth(
        config.user || config.api_key
          ? `the ${config.api_key ? 'API key' : 'user or the password'} was refused${reason ? ` (${reason})` : ''}`
          : `the cluster requires authentication${reason ? ` (${reason})` : ''}; give a user and password or an API key`,
      );
    }
    if (!elastic) {
      return failure(
        'wrong_engine',
        `${target} answers as an HTTP server (status ${status}), not Elasticsearch. Check the port and the URL.`,
      );
    }
    if (status === 403) return auth(`${reason}; grant the monitor cluster privilege`);
    if (status === 408 || status === 504) {
      return failure('timeout', `A request to ${what} did not finish within ${config.query_timeout_ms} ms.`);
    }
    return failure('connection_failed', `${what} answered ${status}: ${reason}.`);
  }
  if (err instanceof errors.TimeoutError || err instanceof TimeoutError) {
    return failure(
      'timeout',
      `${what} did not respond within ${config.query_timeout_ms} ms. Check the host, the port and any firewall in between, then try again.`,
    );
  }
  const message = errorMessage(err);
  const code = codeIn(message);
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || /Connect Timeout Error/i.test(message)) {
    return failure(
      'timeout',
      `${what} did not respond within ${config.connect_timeout_ms} ms. Check the host, the port and any firewall in between, then try again.`,
    );
  }
  const network = code ? networkFailure({ code, message }, what, host, config.connect_timeout_ms) : undefined;
  if (network) return network;
  if (/SSL|TLS|certificate|wrong version number/i.test(message)) {
    return failure(
      'tls_error',
      `The TLS connection to ${what} failed: ${message.trim()}. If the node serves plain http, turn TLS off (or use an http:// URL).`,
    );
  }
  return failure('connection_failed', `Failed to connect to ${what}: ${message}.`);
}

/**
 * Polls an Elasticsearch cluster through one client (no retries, no sniffing), closed once idle.
 * Every request has the config's time-out in the client and a deadline here; sections other than
 * the cluster health and node statistics are left out with a warning when they fail.
 */
export const createElasticsearchPoller: PollerFactory<'elasticsearch'> = (
  config: ElasticsearchPollerConfig,
  { logger }: PollerOptions,
) => {
  const endpoint = esEndpoint(config);
  const { target } = endpoint;
  const warnings = new SectionWarnings(logger, 'elasticsearch', target);
  const deadline = config.connect_timeout_ms + config.query_timeout_ms + 500;
  let client: Client | undefined;
  let idle: NodeJS.Timeout | undefined;
  let previous: { at: number; reading: EsReading } | undefined;
  let sizesReadAt: number | undefined;

  function getClient(): Client {
    clearTimeout(idle);
    client ??= new Client(esClientOptions(config));
    return client;
  }

  async function closeClient(): Promise<void> {
    clearTimeout(idle);
    const c = client;
    client = undefined;
    await c
      ?.close()
      .catch((err: unknown) =>
        logger.warn(
          { service: 'elasticsearch', target, err: errorMessage(err) },
          'closing the client failed',
        ),
      );
  }

  const call = <T>(work: Promise<T>): Promise<T> => withTimeout(work, deadline);

  async function optional<T>(section: string, read: () => Promise<T>): Promise<T | undefined> {
    try {
      const value = await read();
      warnings.clear(section);
      return value;
    } catch (err) {
      if (isProgrammerError(err)) throw err;
      warnings.warn(section, err);
      return undefined;
    }
  }

  async function read(c: Client, now: number): Promise<EsReading> {
    const [info, health, nodes] = await Promise.all([
      call(c.info()),
      call(c.cluster.health()),
      call(
        c.nodes.stats({
          metric: ['indices', 'os', 'process', 'jvm', 'thread_pool', 'fs', 'http'],
          index_metric: ['store', 'indexing', 'search', 'query_cache', 'request_cache'],
        }),
      ),
    ]);
    const reading: EsReading = {
      info: readInfo(info as unknown as Doc),
      health: readClusterHealth(health as unknown as Doc),
      nodes: readNodesStats(nodes as unknown as Doc),
    };
    reading.tasks = await optional('searches', async () =>
      readTasks((await call(c.tasks.list({ actions: '*search*', detailed: true }))) as unknown as Doc),
    );
    if (sizesReadAt === undefined || now - sizesReadAt >= config.size_interval_s * 1000) {
      reading.indices = await optional('index sizes', async () => {
        const rows = await call(
          c.cat.indices({
            format: 'json',
            bytes: 'b',
            h: ['index', 'health', 'status', 'docs.count', 'store.size'],
          }),
        );
        return (rows as unknown as Doc[]).map(readCatIndex);
      });
      if (reading.indices) sizesReadAt = now;
    }
    return reading;
  }

  /** Runs `work` with the client; a failure closes it, so the next call starts afresh. */
  async function withClient<T>(work: (c: Client) => Promise<T>): Promise<T | PollerFailure> {
    try {
      const result = await work(getClient());
      idle = setTimeout(() => void closeClient(), ELASTICSEARCH_IDLE_CLIENT_MS);
      idle.unref();
      return result;
    } catch (err) {
      await closeClient();
      if (isProgrammerError(err)) throw err;
      return classifyEsError(err, config);
    }
  }

  /**
   * A server that is no HTTP server at all (PostgreSQL, MySQL) breaks the client's request: tell
   * what answers instead of the client's protocol error.
   */
  async function identify(result: PollerFailure): Promise<PollerFailure> {
    if (result.code !== 'connection_failed' || endpoint.url.protocol !== 'http:') return result;
    const guess = await sniffEngine(endpoint.host, endpoint.port, config.connect_timeout_ms, 'Elasticsearch');
    if (isFailure(guess)) return result;
    return wrongEngine(guess, 'http', target, 'Elasticsearch') ?? result;
  }

  const poller: Poller = {
    service: 'elasticsearch',
    target,
    async testConnection(): Promise<ConnectionTestResult> {
      const result = await withClient(async (c) => {
        const info = readInfo((await call(c.info())) as unknown as Doc);
        // The poll reads cluster health: a user without the monitor privilege fails here, not later.
        const health = readClusterHealth((await call(c.cluster.health())) as unknown as Doc);
        return { info, health };
      });
      if (isFailure(result)) return identify(result);
      const { info, health } = result;
      return {
        ok: true,
        version: info.version,
        details: {
          engine: 'Elasticsearch',
          cluster_name: info.cluster_name,
          node: info.node_name,
          build_flavor: info.build_flavor,
          status: health.status,
          nodes: health.values.get('number_of_nodes') ?? null,
          user: config.user ?? null,
          api_key: config.api_key !== undefined,
        },
      };
    },
    async poll(now): Promise<PollResult> {
      const reading = await withClient((c) => read(c, now));
      if (isFailure(reading)) return reading;
      const prev = previous;
      previous = { at: now, reading };
      const seconds = prev ? (now - prev.at) / 1000 : 0;
      const options = { longQueryS: config.long_query_s, topIndices: config.top_tables };
      return {
        ok: true,
        samples: esSamples(reading, prev?.reading, seconds, options),
        extras: esExtras(reading, options),
      };
    },
    async close() {
      previous = undefined;
      await closeClient();
    },
  };
  return poller;
};
