import { z } from 'zod';
import { PollerFailureCode, PollerService } from './pollers';

/**
 * Agentless onboarding (spec section 7, "Service onboarding") and the messages between the api and
 * the collectors that poll registered targets. A target is registered only after a collector
 * answered a `connection_test` of exactly that config; its password is kept encrypted and never
 * returned by any call.
 */

/** What any call that returns a config shows instead of a secret. */
export const SECRET_MASK = '********';
/** Config fields that are secrets: stored encrypted, apart from the rest of the config. */
export const SECRET_CONFIG_FIELDS = ['password', 'api_key'] as const;

const RawConfig = z.record(z.string(), z.unknown());
const WorkerName = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'letters, digits, "_" or "-" (1-128)');

/** `POST /v2/worker/command/enqueue`: run a connection test of `config` on a collector. */
export const CommandEnqueueRequest = z
  .object({
    command: z.literal('connection_test'),
    service: PollerService,
    config: RawConfig,
    /** The collector group to ask; `collectors` (every collector) unless given. */
    worker: WorkerName.optional(),
  })
  .strict();
export type CommandEnqueueRequest = z.infer<typeof CommandEnqueueRequest>;

export const CommandEnqueueData = z.object({ command_id: z.string() }).strict();
export type CommandEnqueueData = z.infer<typeof CommandEnqueueData>;

/** `POST /v2/worker/command/status`. */
export const CommandStatusRequest = z.object({ command_id: z.string().min(1).max(64) }).strict();
export type CommandStatusRequest = z.infer<typeof CommandStatusRequest>;

/**
 * Where a command stands. On `error`, `code` says why (a poller failure code, `timeout` when no
 * answer came in time, `no_collector`); on `ok`, `version` and `details` are what answered.
 */
export const CommandStatusData = z
  .object({
    status: z.enum(['pending', 'ok', 'error']),
    message: z.string(),
    code: z.union([PollerFailureCode, z.literal('no_collector')]).optional(),
    version: z.string().optional(),
    details: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
  })
  .strict();
export type CommandStatusData = z.infer<typeof CommandStatusData>;

/** `POST /{service}/save_in_session`: keeps a tested config for the rest of the onboarding. */
export const SaveInSessionRequest = z.object({ config: RawConfig }).strict();
export type SaveInSessionRequest = z.infer<typeof SaveInSessionRequest>;

/** A config as calls return it: every secret replaced by {@link SECRET_MASK}. */
export const MaskedConfigData = z.object({ config: RawConfig }).strict();
export type MaskedConfigData = z.infer<typeof MaskedConfigData>;

const Environment = z.enum(['prd', 'hmg', 'stg', 'dsv']);

/**
 * `POST /{service}/register`: a new server with this service. Without `config`, the one saved in
 * the session for this service is used.
 */
export const RegisterServiceRequest = z
  .object({
    name: z.string().trim().min(1).max(255),
    config: RawConfig.optional(),
    environment: Environment.optional(),
  })
  .strict();
export type RegisterServiceRequest = z.infer<typeof RegisterServiceRequest>;

export const RegisterServiceData = z
  .object({ server_id: z.number().int().positive(), service_id: z.number().int().positive() })
  .strict();
export type RegisterServiceData = z.infer<typeof RegisterServiceData>;

/** `POST /{service}/add`: this service on a server the customer already has. */
export const AddServiceRequest = z
  .object({
    server_id: z.coerce.number().int().positive(),
    name: z.string().trim().min(1).max(255).optional(),
    config: RawConfig.optional(),
  })
  .strict();
export type AddServiceRequest = z.infer<typeof AddServiceRequest>;

/** `GET /services_monitored/services/available`: services that can be registered without an agent. */
export const AvailableServicesData = z.array(
  z.object({ service_code: PollerService, agentless: z.literal(true), interval_s: z.number() }).strict(),
);
export type AvailableServicesData = z.infer<typeof AvailableServicesData>;

/** A collector that asked for its targets recently (`GET /workers/available`). */
export const CollectorPresence = z
  .object({
    id: z.string(),
    /** The command group it serves: connection tests sent there may reach it. */
    worker: z.string(),
    hostname: z.string(),
    /** Unix ms of its last request for targets. */
    last_seen: z.number(),
    /** Targets it polls. */
    targets: z.number().int().nonnegative(),
  })
  .strict();
export type CollectorPresence = z.infer<typeof CollectorPresence>;

export const AvailableWorkersData = z.array(CollectorPresence);
export type AvailableWorkersData = z.infer<typeof AvailableWorkersData>;

/** One of the customer's agentless services as `GET /workers/get_snoop_info` lists it. */
export const SnoopService = z
  .object({
    id: z.number().int().positive(),
    server_id: z.number().int().positive(),
    service: z.string(),
    name: z.string().nullable(),
    /** `host:port` or the URL (never with a user or password). */
    target: z.string(),
    /** As the polling collector last reported; null before the first poll. */
    availability: z.enum(['available', 'unavailable']).nullable(),
    /** Unix seconds of the poll that set `availability`. */
    availability_since: z.number().nullable(),
    /** `<code>: <message>` of the last failed poll. */
    last_error: z.string().nullable(),
  })
  .strict();
export type SnoopService = z.infer<typeof SnoopService>;

/**
 * `GET /workers/get_snoop_info`: the live collectors, each with the customer's services it polls
 * (`targets` counts every target it polls), and the customer's services no live collector polls.
 */
export const SnoopInfoData = z
  .object({
    collectors: z.array(CollectorPresence.extend({ services: z.array(SnoopService) }).strict()),
    unassigned: z.array(SnoopService),
  })
  .strict();
export type SnoopInfoData = z.infer<typeof SnoopInfoData>;

// ---------------------------------------------------------------------------------------------
// Bus: collector -> api (worker `api`)

/** Params of `agentless_assignments`: a collector asks which targets are its share. */
export const AssignmentsParams = z
  .object({
    collector_id: WorkerName,
    worker: WorkerName,
    hostname: z.string().max(255),
  })
  .strict();
export type AssignmentsParams = z.infer<typeof AssignmentsParams>;

/**
 * One target a collector polls: its config with secrets (only ever on the bus between the api and
 * the collectors), the tenant and the server's host key its samples are published under.
 */
export const PollAssignment = z
  .object({
    service_id: z.number().int().positive(),
    server_id: z.number().int().positive(),
    tenant: z.string(),
    host: z.string(),
    service: PollerService,
    interval_s: z.number().int().positive(),
    config: RawConfig,
  })
  .strict();
export type PollAssignment = z.infer<typeof PollAssignment>;

/** Data of the reply to `agentless_assignments`. */
export const AssignmentsData = z
  .object({
    assignments: z.array(PollAssignment),
    /** How often the collector should ask again; a collector silent for 3 times this is gone. */
    refresh_ms: z.number().int().positive(),
  })
  .strict();
export type AssignmentsData = z.infer<typeof AssignmentsData>;

/** Params of `agentless_status`: a target became unavailable (with why) or available again. */
export const PollStatusParams = z
  .object({
    service_id: z.number().int().positive(),
    tenant: z.string(),
    available: z.boolean(),
    code: PollerFailureCode.optional(),
    message: z.string().max(2048).optional(),
    /** Unix ms of the poll. */
    ts: z.number().int().positive(),
  })
  .strict();
export type PollStatusParams = z.infer<typeof PollStatusParams>;
