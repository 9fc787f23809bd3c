import {
  AddServiceRequest,
  type AvailableServicesData,
  type AvailableWorkersData,
  type CommandEnqueueData,
  CommandEnqueueRequest,
  type CommandRequest,
  type CommandStatusData,
  CommandStatusRequest,
  ConnectionTestResult,
  hostKeyFromHostname,
  type MaskedConfigData,
  type OkEnvelope,
  POLLER_DEFAULT_CONFIGS,
  POLLER_SERVICES,
  PollerService,
  type RegisterServiceData,
  RegisterServiceRequest,
  SaveInSessionRequest,
} from '@flightdeck/schemas';
import { type Context, Hono } from 'hono';
import {
  configFingerprint,
  maskConfig,
  type ParsedConfig,
  parseConfig,
  splitConfig,
} from '../../agentless/configs';
import { requireSession } from '../../auth/middleware';
import { unixNow } from '../../clock';
import { createSecretBox, loadOrCreateSecretsKey, type SecretBox } from '../../crypto/secrets';
import type { AppDeps, AppEnv } from '../../env';
import { ApiError } from '../../errors';
import { freeHostKey } from '../../hosts/installs';
import { jsonBody } from '../../http/body';
import { planContextOf } from '../../plans/context';
import { assertWithinLimit } from '../../plans/limits';
import { availabilityThreshold, insertDefinedThresholdIfMissing } from '../alerts/thresholds';
import { serverOr404 } from '../servers/shared';
import { OnboardingMemory } from './tests';

/** Collectors serve connection tests as this group unless a request names another. */
const COLLECTORS_WORKER = 'collectors';
/** Time for the answer to cross the bus, besides the target's own time-outs. */
const COMMAND_MARGIN_MS = 2_000;
const SERVICE_PARAM = `:service{${POLLER_SERVICES.join('|')}}`;

function ok<T>(data: T): OkEnvelope<T> {
  return { status: 'ok', data };
}

/** How long a connection test of `config` may take, from its own time-outs. */
function testDeadlineMs(config: ParsedConfig): number {
  const n = (k: string) => (typeof config[k] === 'number' ? (config[k] as number) : 0);
  return Math.min(
    120_000,
    n('connect_timeout_ms') + n('query_timeout_ms') + n('timeout_ms') + COMMAND_MARGIN_MS,
  );
}

/** The host and port a config names, for the server row. */
function addressOf(config: ParsedConfig): { host: string; port: number | null } {
  if (typeof config.url === 'string') {
    const u = new URL(config.url);
    return { host: u.hostname, port: u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80 };
  }
  return { host: String(config.host), port: typeof config.port === 'number' ? config.port : null };
}

const MESSAGE_OF_CODE: Partial<Record<string, string>> = {
  timeout: 'The service did not respond in time. Check the credentials and try again.',
};

/**
 * Agentless onboarding (spec section 7, "Service onboarding"): a connection test of a config on a
 * collector over the bus, then register the tested config as a new server or add it to one. A
 * config is registered only when a test of exactly it passed in the last minutes; passwords are
 * sealed with the api's key and every config a call returns has them masked. Each registered
 * service comes with its availability threshold (a "server unreachable" alert when a poll fails).
 */
export function onboardingRoutes(deps: AppDeps) {
  const { db, bus, logger } = deps;
  const memory = new OnboardingMemory();
  let box: SecretBox | undefined;
  // Made on first use, so a process that never registers a service never writes a key file.
  const secrets = () => {
    box ??= createSecretBox(loadOrCreateSecretsKey(deps.config.SECRETS_KEY, deps.config.DATA_DIR));
    return box;
  };

  function serviceOf(c: Context<AppEnv>): PollerService {
    return PollerService.parse(c.req.param('service'));
  }

  /** The config of a register or add call: the one given, else the one saved in the session. */
  function tested(c: Context<AppEnv>, service: PollerService, raw: Record<string, unknown> | undefined) {
    const { customerId, sessionId } = c.get('session');
    const config = raw ? parseConfig(service, raw) : memory.savedConfig(sessionId, service);
    if (!config) {
      throw ApiError.of('validation_failed', 'config: give the configuration or save a tested one first');
    }
    if (!memory.passedTest(configFingerprint(customerId, service, config))) {
      throw ApiError.of(
        'conflict',
        'Test the connection with exactly this configuration before registering it.',
      );
    }
    return config;
  }

  async function runTest(id: string, worker: string, request: CommandRequest): Promise<void> {
    let status: CommandStatusData;
    try {
      const reply = await bus.request(worker, request);
      const parsed = ConnectionTestResult.safeParse(reply.data);
      if (!parsed.success) {
        status = { status: 'error', code: 'connection_failed', message: reply.message ?? 'The test failed.' };
      } else if (parsed.data.ok) {
        status = {
          status: 'ok',
          message: reply.message ?? 'Connected.',
          version: parsed.data.version,
          details: parsed.data.details,
        };
      } else {
        const code = parsed.data.code;
        status = { status: 'error', code, message: MESSAGE_OF_CODE[code] ?? parsed.data.message };
      }
    } catch (err) {
      const timedOut = (err as { code?: string }).code === 'timeout';
      logger.warn({ err, worker, command_id: id }, 'connection test got no answer');
      status = timedOut
        ? { status: 'error', code: 'timeout', message: MESSAGE_OF_CODE.timeout! }
        : {
            status: 'error',
            code: 'connection_failed',
            message: err instanceof Error ? err.message : String(err),
          };
    }
    memory.finishCommand(id, status);
  }

  return new Hono<AppEnv>()
    .use('/v2/worker/*', requireSession(db))
    .use('/workers/available', requireSession(db))
    .use('/services_monitored/services/available', requireSession(db))
    .use(`/${SERVICE_PARAM}/*`, requireSession(db))

    .get('/services_monitored/services/available', (c) =>
      c.json(
        ok<AvailableServicesData>(
          POLLER_SERVICES.map((s) => ({
            service_code: s,
            agentless: true as const,
            interval_s: POLLER_DEFAULT_CONFIGS[s].interval_s,
          })),
        ),
      ),
    )

    .get('/workers/available', (c) =>
      c.json(ok<AvailableWorkersData>(deps.agentless?.liveCollectors() ?? [])),
    )

    .get(`/${SERVICE_PARAM}/default_config`, (c) => {
      const service = serviceOf(c);
      return c.json(ok<MaskedConfigData>({ config: maskConfig({ ...POLLER_DEFAULT_CONFIGS[service] }) }));
    })

    .post('/v2/worker/command/enqueue', jsonBody(CommandEnqueueRequest), async (c) => {
      const body = c.req.valid('json');
      const { customerId } = c.get('session');
      const config = parseConfig(body.service, body.config);
      const worker = body.worker ?? COLLECTORS_WORKER;
      const live = deps.agentless?.liveCollectors().filter((p) => p.worker === worker) ?? [];
      if (live.length === 0) throw ApiError.of('no_collector');
      const id = memory.startCommand(customerId, configFingerprint(customerId, body.service, config));
      const request: CommandRequest = {
        v: 1,
        id,
        tenant: String(customerId),
        command: 'connection_test',
        params: { service: body.service, config },
        deadline: Date.now() + testDeadlineMs(config),
      };
      void runTest(id, worker, request);
      return c.json(ok<CommandEnqueueData>({ command_id: id }));
    })

    .post('/v2/worker/command/status', jsonBody(CommandStatusRequest), (c) => {
      const status = memory.commandStatus(c.get('session').customerId, c.req.valid('json').command_id);
      if (!status) throw ApiError.of('not_found', 'This connection test could not be found.');
      return c.json(ok<CommandStatusData>(status));
    })

    .post(`/${SERVICE_PARAM}/save_in_session`, jsonBody(SaveInSessionRequest), (c) => {
      const service = serviceOf(c);
      const config = tested(c, service, c.req.valid('json').config);
      memory.saveConfig(c.get('session').sessionId, service, config);
      return c.json(ok<MaskedConfigData>({ config: maskConfig(config) }));
    })

    .post(`/${SERVICE_PARAM}/register`, jsonBody(RegisterServiceRequest), async (c) => {
      const service = serviceOf(c);
      const body = c.req.valid('json');
      const { customerId, userId } = c.get('session');
      const config = tested(c, service, body.config);
      const plan = await planContextOf(c, db);
      await assertWithinLimit(db, plan, 'servers');
      await assertWithinLimit(db, plan, 'services');
      const { host, port } = addressOf(config);
      const base = hostKeyFromHostname(`${service}-${host}${port ? `-${port}` : ''}`);
      const stored = splitConfig(secrets(), customerId, config);
      const ids = await db.transaction().execute(async (trx) => {
        const taken = await trx
          .selectFrom('servers')
          .select('host_key')
          .where('customer_id', '=', customerId)
          .where('host_key', 'like', `${base}%`)
          .execute();
        const now = unixNow();
        const server = await trx
          .insertInto('servers')
          .values({
            customer_id: customerId,
            host_key: freeHostKey(base, new Set(taken.map((r) => r.host_key))),
            hostname: host,
            name: body.name,
            type: service,
            port,
            environment: body.environment ?? null,
            created_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const row = await trx
          .insertInto('services')
          .values({
            customer_id: customerId,
            server_id: server.id,
            service_code: service,
            name: body.name,
            config: stored.config,
            secrets: stored.secrets,
            interval_s: Number(config.interval_s),
            created_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await insertDefinedThresholdIfMissing(
          trx,
          customerId,
          userId,
          availabilityThreshold(server.id, service),
          Date.now(),
        );
        return { server_id: server.id, service_id: row.id };
      });
      deps.alerts?.rulesChanged();
      // Collectors in this process pick the new target up now rather than at their next refresh.
      deps.agentless?.servicesChanged?.();
      return c.json(ok<RegisterServiceData>(ids));
    })

    .post(`/${SERVICE_PARAM}/add`, jsonBody(AddServiceRequest), async (c) => {
      const service = serviceOf(c);
      const body = c.req.valid('json');
      const { customerId, userId } = c.get('session');
      const server = await serverOr404(db, customerId, body.server_id);
      const config = tested(c, service, body.config);
      await assertWithinLimit(db, await planContextOf(c, db), 'services');
      const stored = splitConfig(secrets(), customerId, config);
      const row = await db.transaction().execute(async (trx) => {
        const inserted = await trx
          .insertInto('services')
          .values({
            customer_id: customerId,
            server_id: server.id,
            service_code: service,
            name: body.name ?? server.name ?? server.hostname,
            config: stored.config,
            secrets: stored.secrets,
            interval_s: Number(config.interval_s),
            created_at: unixNow(),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        // A server may already have one for this service (a second target of it): that one stays.
        await insertDefinedThresholdIfMissing(
          trx,
          customerId,
          userId,
          availabilityThreshold(server.id, service),
          Date.now(),
        );
        return inserted;
      });
      deps.alerts?.rulesChanged();
      deps.agentless?.servicesChanged?.();
      return c.json(ok<RegisterServiceData>({ server_id: server.id, service_id: row.id }));
    });
}
