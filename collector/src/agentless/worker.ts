import { randomBytes } from 'node:crypto';
import { hostname as osHostname } from 'node:os';
import {
  AssignmentsData,
  type CommandRequest,
  type PollAssignment,
  type PollStatusParams,
} from '@flightdeck/schemas';
import type { Logger } from 'pino';
import type { Bus, Subscription } from '../bus/contract';
import { answerDbInspect } from '../dbtools';
import { createPollScheduler, DEFAULT_REFRESH_MS, type PollSchedulerOptions } from '../pollers/scheduler';
import { answerConnectionTest } from './connection-test';

/** Worker the collectors serve connection tests on, as a group. */
export const COLLECTORS_WORKER = 'collectors';
/** Worker the api serves the collectors' `agentless_*` commands on. */
export const API_WORKER = 'api';
/** Tenant of the commands between collectors and the api, which concern every tenant. */
export const SYSTEM_TENANT = '_system';
/** Time a collector waits for the api's answer. */
const API_REQUEST_MS = 10_000;

export interface AgentlessWorkerOptions {
  bus: Bus;
  logger: Logger;
  /** Group of collectors this one belongs to (a customer network's worker); default `collectors`. */
  worker?: string;
  /** Default: a new id per process. */
  collectorId?: string;
  refreshMs?: number;
  maxConcurrent?: number;
  intervalMs?: PollSchedulerOptions['intervalMs'];
}

export interface AgentlessWorker {
  readonly collectorId: string;
  /** Targets being polled, by service id. */
  targets(): number[];
  /** Asks the api for the assignment list now. */
  refresh(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The agentless side of a collector: it answers `connection_test` and `db_inspect` (the database
 * screen's live reads) commands sent to its group and polls its share of the registered targets.
 * The share comes from the api, over the bus (`agentless_assignments` to worker `api`, asked every
 * `refreshMs`): the api owns the metadata DB and the secrets key, knows which collectors asked
 * recently and spreads the targets over them. A collector therefore needs no database, and the
 * embedded product runs this same path on its in-process bus.
 */
export async function startAgentlessWorker(options: AgentlessWorkerOptions): Promise<AgentlessWorker> {
  const { bus, logger } = options;
  const worker = options.worker ?? COLLECTORS_WORKER;
  const collectorId = options.collectorId ?? `col-${randomBytes(6).toString('hex')}`;
  const host = osHostname().slice(0, 255);
  let seq = 0;

  function command(name: CommandRequest['command'], params: Record<string, unknown>): CommandRequest {
    return {
      v: 1,
      id: `${collectorId}-${++seq}`,
      tenant: SYSTEM_TENANT,
      command: name,
      params,
      deadline: Date.now() + API_REQUEST_MS,
    };
  }

  async function assignments(): Promise<PollAssignment[]> {
    const reply = await bus.request(
      API_WORKER,
      command('agentless_assignments', { collector_id: collectorId, worker, hostname: host }),
    );
    if (reply.status !== 'ok') throw new Error(`the api refused the assignments: ${reply.message ?? ''}`);
    return AssignmentsData.parse(reply.data).assignments;
  }

  async function report(status: PollStatusParams): Promise<void> {
    const reply = await bus.request(API_WORKER, command('agentless_status', status));
    if (reply.status !== 'ok') throw new Error(`the api refused the status: ${reply.message ?? ''}`);
  }

  const scheduler = createPollScheduler({
    assignments,
    report,
    publish: (batch) => bus.publishMetrics(batch),
    logger,
    refreshMs: options.refreshMs ?? DEFAULT_REFRESH_MS,
    ...(options.maxConcurrent !== undefined ? { maxConcurrent: options.maxConcurrent } : {}),
    ...(options.intervalMs ? { intervalMs: options.intervalMs } : {}),
  });

  const commands: Subscription = await bus.serveCommands(worker, async (request) => {
    if (request.command === 'connection_test') return answerConnectionTest(request, logger);
    if (request.command === 'db_inspect') return answerDbInspect(request, logger);
    return {
      v: 1,
      id: request.id,
      status: 'error',
      message: `command ${request.command} is not served by collectors`,
      ts: Date.now(),
    };
  });
  await scheduler.start();
  logger.info({ collector_id: collectorId, worker }, 'agentless worker started');

  return {
    collectorId,
    targets: () => scheduler.targets(),
    refresh: () => scheduler.refresh(),
    async stop() {
      await commands.unsubscribe();
      await scheduler.stop();
    },
  };
}
