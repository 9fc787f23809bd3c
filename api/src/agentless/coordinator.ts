import { createHash } from 'node:crypto';
import type { Bus, Subscription } from '@flightdeck/collector/bus';
import {
  type AssignmentsData,
  AssignmentsParams,
  type CollectorPresence,
  type CommandReply,
  type CommandRequest,
  type PollAssignment,
  PollerService,
  PollStatusParams,
} from '@flightdeck/schemas';
import type { Logger } from 'pino';
import type { SecretBox } from '../crypto/secrets';
import type { Db } from '../db/kysely';
import { ensureAvailabilityThresholds } from '../routes/alerts/thresholds';
import { joinConfig } from './configs';

/** Worker the api serves the collectors' commands on (the collector's `API_WORKER`). */
export const API_WORKER = 'api';
/** How often collectors ask for their targets, unless told otherwise. */
export const DEFAULT_ASSIGNMENT_REFRESH_MS = 30_000;

export interface AgentlessCoordinatorOptions {
  db: Db;
  bus: Bus;
  box: SecretBox;
  logger: Logger;
  refreshMs?: number;
  now?: () => number;
}

export interface AgentlessCoordinator {
  /** Collectors that asked for their targets within the last three refresh periods. */
  liveCollectors(): CollectorPresence[];
  /** Called when a service is registered or added: collectors listening in this process ask again now. */
  servicesChanged(): void;
  /** Runs `listener` on every `servicesChanged`; returns the unsubscribe. */
  onServicesChanged(listener: () => void): () => void;
  stop(): Promise<void>;
}

/** Rendezvous hashing: the collector with the highest weight for a target polls it, so a collector that comes or goes moves only its own share. */
function weight(serviceId: number, collectorId: string): string {
  return createHash('sha256').update(`${serviceId}/${collectorId}`).digest('hex');
}

export function ownerOf(serviceId: number, collectorIds: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestWeight = '';
  for (const id of collectorIds) {
    const w = weight(serviceId, id);
    if (best === undefined || w > bestWeight) {
      best = id;
      bestWeight = w;
    }
  }
  return best;
}

/**
 * The api's side of agentless polling: it answers collectors on worker `api`. A collector asking
 * for its targets is alive; the registered agentless services are spread over the live
 * collectors of the same group by rendezvous hashing, and each gets its share with configs and
 * secrets opened. A collector's availability reports land on the service row.
 *
 * Presence lives in this process: with several api processes, collectors must reach one of them.
 */
export async function startAgentlessCoordinator(
  options: AgentlessCoordinatorOptions,
): Promise<AgentlessCoordinator> {
  const { db, bus, box, logger } = options;
  const refreshMs = options.refreshMs ?? DEFAULT_ASSIGNMENT_REFRESH_MS;
  const now = options.now ?? Date.now;
  const seen = new Map<string, CollectorPresence>();
  /** Services whose availability threshold this process made sure of. */
  const ensured = new Set<number>();

  function live(worker?: string): CollectorPresence[] {
    const cutoff = now() - 3 * refreshMs;
    for (const [id, p] of seen) if (p.last_seen < cutoff) seen.delete(id);
    return [...seen.values()].filter((p) => worker === undefined || p.worker === worker);
  }

  async function assignmentsFor(params: AssignmentsParams): Promise<AssignmentsData> {
    const previous = seen.get(params.collector_id);
    seen.set(params.collector_id, {
      id: params.collector_id,
      worker: params.worker,
      hostname: params.hostname,
      last_seen: now(),
      targets: previous?.targets ?? 0,
    });
    const group = live(params.worker).map((p) => p.id);
    const rows = await db
      .selectFrom('services')
      .innerJoin('servers', 'servers.id', 'services.server_id')
      .select([
        'services.id',
        'services.customer_id',
        'services.server_id',
        'services.service_code',
        'services.config',
        'services.secrets',
        'services.interval_s',
        'servers.host_key',
      ])
      .whereRef('servers.customer_id', '=', 'services.customer_id')
      .where('services.status', '=', 'active')
      .where('services.config', 'is not', null)
      .orderBy('services.id')
      .execute();
    await ensureThresholds(
      rows.filter((r) => !ensured.has(r.id) && PollerService.safeParse(r.service_code).success),
    );
    const assignments: PollAssignment[] = [];
    for (const row of rows) {
      const service = PollerService.safeParse(row.service_code);
      if (!service.success) continue;
      if (ownerOf(row.id, group) !== params.collector_id) continue;
      try {
        assignments.push({
          service_id: row.id,
          server_id: row.server_id,
          tenant: String(row.customer_id),
          host: row.host_key,
          service: service.data,
          interval_s: row.interval_s,
          config: joinConfig(box, row),
        });
      } catch (err) {
        logger.warn({ err, service_id: row.id }, 'agentless service left out: its secrets do not open');
      }
    }
    seen.get(params.collector_id)!.targets = assignments.length;
    return { assignments, refresh_ms: refreshMs };
  }

  /**
   * Services registered before agentless targets got their availability threshold at registration
   * get it when first assigned. Only a missing one is created, so a changed or disabled one stays
   * as the user left it (a removed one comes back at the next start: disabling is what keeps it off).
   */
  async function ensureThresholds(
    rows: readonly { id: number; customer_id: number; server_id: number; service_code: string }[],
  ): Promise<void> {
    if (rows.length === 0) return;
    try {
      const created = await ensureAvailabilityThresholds(db, rows, now());
      for (const r of rows) ensured.add(r.id);
      if (created > 0) logger.info({ created }, 'availability thresholds created for agentless services');
    } catch (err) {
      // Polling goes on; the next assignment request tries again.
      logger.warn(
        { err, services: rows.length },
        'availability thresholds of agentless services not created',
      );
    }
  }

  async function storeStatus(status: PollStatusParams): Promise<void> {
    const customerId = Number(status.tenant);
    await db
      .updateTable('services')
      .set({
        availability: status.available ? 'available' : 'unavailable',
        availability_since: Math.floor(status.ts / 1000),
        ...(status.available
          ? {}
          : { last_error: `${status.code ?? 'connection_failed'}: ${status.message ?? ''}` }),
      })
      .where('id', '=', status.service_id)
      .where('customer_id', '=', customerId)
      .execute();
    if (!status.available) {
      // The alert itself comes from the service's availability threshold (`service.up`).
      logger.warn(
        { service_id: status.service_id, tenant: status.tenant, code: status.code },
        `agentless service unavailable: ${status.message ?? ''}`,
      );
    }
  }

  async function handle(request: CommandRequest): Promise<CommandReply> {
    const reply = (data?: unknown): CommandReply => ({
      v: 1,
      id: request.id,
      status: 'ok',
      data,
      ts: Date.now(),
    });
    if (request.command === 'agentless_assignments') {
      return reply(await assignmentsFor(AssignmentsParams.parse(request.params)));
    }
    if (request.command === 'agentless_status') {
      await storeStatus(PollStatusParams.parse(request.params));
      return reply();
    }
    return {
      v: 1,
      id: request.id,
      status: 'error',
      message: `the api does not serve ${request.command}`,
      ts: Date.now(),
    };
  }

  const subscription: Subscription = await bus.serveCommands(API_WORKER, handle);
  const listeners = new Set<() => void>();
  return {
    liveCollectors: () => live(),
    servicesChanged() {
      for (const listener of listeners) {
        try {
          listener();
        } catch (err) {
          logger.warn({ err }, 'a services-changed listener failed');
        }
      }
    },
    onServicesChanged(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    stop: () => subscription.unsubscribe(),
  };
}
