import { randomBytes } from 'node:crypto';
import { CommandTimeoutError } from '@flightdeck/collector/bus';
import {
  type CollectorPresence,
  type CommandReply,
  type CommandRequest,
  DB_INSPECTION_DATA,
  type DbInspection,
  type DbInspectParams,
  ERROR_FALLBACK_MESSAGES,
  ERROR_HTTP_STATUS,
  PollerFailureCode,
  SERVICE_INSPECTIONS,
  type TableRef,
} from '@flightdeck/schemas';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from 'zod';
import { joinConfig, type ParsedConfig } from '../../agentless/configs';
import { type SecretBox, SecretsError } from '../../crypto/secrets';
import type { Db } from '../../db/kysely';
import type { Service } from '../../db/types';
import type { AppDeps } from '../../env';
import { ApiError } from '../../errors';

/** The group collectors serve commands on unless deployed as a customer network's worker. */
export const COLLECTORS_WORKER = 'collectors';
/** Time for the command and its answer to cross the bus, besides the target's own time-outs. */
const COMMAND_MARGIN_MS = 2_000;
/** Bounds of the time an inspection is awaited: the console's call must neither fail at once nor hang. */
const MIN_DEADLINE_MS = 3_000;
const MAX_DEADLINE_MS = 60_000;
/** A bus timeout this long before the deadline means nobody serves the group. */
const NO_RESPONDER_SLACK_MS = 250;

/** An agentless service with the host key its samples are published under and its server's version. */
export type ServiceRow = Service & { host_key: string; server_version: string | null };

const ENGINE_NAMES: Readonly<Record<string, string>> = {
  postgresql: 'PostgreSQL',
  mysql: 'MySQL',
  mssql: 'SQL Server',
  mongodb: 'MongoDB',
  nginx: 'Nginx',
  apache: 'Apache',
  url: 'URL',
};

const INSPECTION_NAMES: Readonly<Record<DbInspection, string>> = {
  process_list: 'process list',
  database_tables: 'table list',
  table_definition: 'table definition',
  table_counters: 'table counters',
  db_health: 'database health',
  replication_members: 'replication members',
};

export function engineName(serviceCode: string): string {
  return ENGINE_NAMES[serviceCode] ?? serviceCode;
}

/**
 * The customer's service `id` with its server's host key, or 404: another customer's id looks
 * exactly like a missing one.
 */
export async function serviceOr404(db: Db, customerId: number, id: number): Promise<ServiceRow> {
  const row = await db
    .selectFrom('services')
    .innerJoin('servers', 'servers.id', 'services.server_id')
    .selectAll('services')
    .select(['servers.host_key', 'servers.version as server_version'])
    .where('services.id', '=', id)
    .where('services.customer_id', '=', customerId)
    .where('servers.customer_id', '=', customerId)
    .executeTakeFirst();
  if (!row) throw ApiError.of('not_found', 'This service could not be found.');
  return row;
}

/** The config as stored, without its secrets: enough to name the target. */
export function plainConfig(service: Pick<Service, 'config'>): ParsedConfig {
  if (!service.config) return {};
  try {
    const value: unknown = JSON.parse(service.config);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as ParsedConfig)
      : {};
  } catch {
    return {};
  }
}

/** `host:port`, or the URL without any user or password in it. */
export function targetOf(config: ParsedConfig): string {
  if (typeof config.url === 'string') {
    try {
      const url = new URL(config.url);
      url.username = '';
      url.password = '';
      return url.toString();
    } catch {
      return withoutCredentials(config.url);
    }
  }
  const host = typeof config.host === 'string' ? config.host : '';
  const shown = host.includes(':') ? `[${host}]` : host;
  return typeof config.port === 'number' ? `${shown}:${config.port}` : shown;
}

/**
 * `text` with the user and password taken out of every URL in it (`https://u:p@host` -> `https://host`):
 * a poller's message may name the URL it was given, credentials included.
 */
export function withoutCredentials(text: string): string {
  return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]*@/gi, '$1');
}

/** How long an inspection of `config` is awaited: its connect and query time-outs plus the bus. */
export function inspectionDeadlineMs(config: ParsedConfig): number {
  const n = (k: string) => (typeof config[k] === 'number' ? (config[k] as number) : 0);
  const own = n('connect_timeout_ms') + n('query_timeout_ms') + n('timeout_ms');
  return Math.min(MAX_DEADLINE_MS, Math.max(MIN_DEADLINE_MS, own + COMMAND_MARGIN_MS));
}

/**
 * The group to ask. Every group with a live collector polls every target (the coordinator spreads
 * them within each group), so the default group is asked when it has one, else the first other.
 */
export function workerFor(live: readonly CollectorPresence[]): string | undefined {
  if (live.some((p) => p.worker === COLLECTORS_WORKER)) return COLLECTORS_WORKER;
  return live.map((p) => p.worker).sort()[0];
}

export interface InspectOptions<I extends DbInspection> {
  deps: AppDeps;
  /** Opens the sealed secrets; only asked for when the service has some. */
  box: () => SecretBox;
  customerId: number;
  service: ServiceRow;
  inspection: I;
  table?: TableRef;
}

/**
 * Runs one inspection of a service on a collector over the bus (`db_inspect`) and returns its
 * data, checked against its schema. Every failure becomes an ApiError in the envelope: the
 * target's own failure code and message, `no_collector` when no collector serves the group,
 * `timeout` when none answered in time. The config travels with its secrets only on the bus; no
 * answer and no log line carries it.
 */
export async function inspect<I extends DbInspection>(
  options: InspectOptions<I>,
): Promise<z.infer<(typeof DB_INSPECTION_DATA)[I]>> {
  const { deps, customerId, service, inspection } = options;
  const engine = engineName(service.service_code);
  const offered = Object.hasOwn(SERVICE_INSPECTIONS, service.service_code)
    ? SERVICE_INSPECTIONS[service.service_code]
    : undefined;
  if (!offered?.includes(inspection)) {
    const offering = Object.entries(SERVICE_INSPECTIONS)
      .filter(([, list]) => list.includes(inspection))
      .map(([code]) => engineName(code));
    throw ApiError.of(
      'validation_failed',
      `${engine} services have no ${INSPECTION_NAMES[inspection]}: only ${offering.join(', ')} services have one.`,
    );
  }
  const config = openConfig(options);
  const target = targetOf(config);
  const worker = workerFor(deps.agentless?.liveCollectors() ?? []);
  if (!worker) {
    throw ApiError.of(
      'no_collector',
      `No collector is running to reach ${target}: start a collector that reaches the api over the bus, then try again.`,
    );
  }
  const params: DbInspectParams = {
    service: service.service_code,
    config,
    inspection,
    ...(options.table ? { table: options.table } : {}),
  };
  const request: CommandRequest = {
    v: 1,
    id: randomBytes(16).toString('hex'),
    tenant: String(customerId),
    command: 'db_inspect',
    params,
    deadline: Date.now() + inspectionDeadlineMs(config),
  };
  const reply = await send(deps, worker, request, target, inspection);
  const log = { service_id: service.id, inspection, worker, command_id: request.id };
  if (reply.status === 'error') {
    const code = PollerFailureCode.safeParse((reply.data as { code?: unknown } | undefined)?.code);
    if (code.success) {
      throw new ApiError(
        ERROR_HTTP_STATUS[code.data] as ContentfulStatusCode,
        code.data,
        withoutCredentials(reply.message ?? ERROR_FALLBACK_MESSAGES[code.data]),
      );
    }
    const reason = withoutCredentials(reply.message ?? 'no reason given');
    deps.logger.warn({ ...log, reason }, 'a collector could not run a database inspection');
    throw new ApiError(
      502,
      'internal',
      `The collector could not read the ${INSPECTION_NAMES[inspection]} of ${target}: ${reason}.`,
    );
  }
  const data = DB_INSPECTION_DATA[inspection].safeParse(reply.data);
  if (!data.success) {
    deps.logger.error({ ...log, issues: data.error.issues.slice(0, 5) }, 'inspection answer off its schema');
    throw new ApiError(
      502,
      'internal',
      `The collector answered the ${INSPECTION_NAMES[inspection]} of ${target} in a form this api does not read: run the same version of the collector and the api.`,
    );
  }
  return data.data as z.infer<(typeof DB_INSPECTION_DATA)[I]>;
}

function openConfig(options: InspectOptions<DbInspection>): ParsedConfig {
  const { service } = options;
  const box: SecretBox = {
    seal: (plaintext, context) => options.box().seal(plaintext, context),
    open: (sealed, context) => options.box().open(sealed, context),
  };
  try {
    return joinConfig(box, service);
  } catch (err) {
    if (!(err instanceof SecretsError)) throw err;
    options.deps.logger.warn({ service_id: service.id, reason: err.message }, 'service secrets do not open');
    throw new ApiError(
      500,
      'bad_config',
      "The stored password of this service cannot be opened with the api's secrets key (was SECRETS_KEY changed?): register the service again with its password.",
    );
  }
}

async function send(
  deps: AppDeps,
  worker: string,
  request: CommandRequest,
  target: string,
  inspection: DbInspection,
): Promise<CommandReply> {
  try {
    return await deps.bus.request(worker, request);
  } catch (err) {
    if (!(err instanceof CommandTimeoutError)) {
      deps.logger.warn({ err, worker, command_id: request.id }, 'database inspection not sent');
      throw ApiError.of('bus_unavailable');
    }
    if (Date.now() < request.deadline - NO_RESPONDER_SLACK_MS) {
      throw ApiError.of(
        'no_collector',
        `No collector of group "${worker}" is serving commands: start one (or check its connection to the bus), then try again.`,
      );
    }
    throw ApiError.of(
      'timeout',
      `No collector answered the ${INSPECTION_NAMES[inspection]} of ${target} in time: check that the collectors of group "${worker}" are running and reach it.`,
    );
  }
}
