import type { Bus, Subscription } from '@flightdeck/collector/bus';
import type { Heartbeat, HostInventory, ProcessSnapshot } from '@flightdeck/schemas';
import type { Logger } from 'pino';
import type { Db } from '../db/kysely';
import { getCustomer } from '../db/queries/customers';
import { upsertHostServer } from '../db/queries/servers';

/** At most one DB write per server in this window, unless the inventory changed. */
export const HOST_WRITE_INTERVAL_MS = 30_000;

/** The top processes a host sent with its last heartbeat. */
export interface TopProcesses {
  /** Unix milliseconds of the heartbeat. */
  ts: number;
  by_cpu: ProcessSnapshot[];
  by_memory: ProcessSnapshot[];
}

/**
 * Latest top processes per host, in memory: they change every interval and only the newest is
 * shown, so they never go to the metadata DB. Keyed by tenant and host key.
 */
export class TopProcessCache {
  private readonly byHost = new Map<string, TopProcesses>();

  set(tenant: string, host: string, value: TopProcesses): void {
    this.byHost.set(`${tenant}/${host}`, value);
  }

  get(tenant: string, host: string): TopProcesses | undefined {
    return this.byHost.get(`${tenant}/${host}`);
  }
}

/**
 * The process-wide cache the registry fills and `get_process_status` reads. AppDeps carries no
 * registry, so the two meet here; the api and its registry always run in the same process.
 */
export const topProcesses = new TopProcessCache();

export interface HostRegistryOptions {
  db: Db;
  bus: Bus;
  logger: Logger;
  /** Defaults to the shared {@link topProcesses}. */
  processes?: TopProcessCache;
  /** Unix milliseconds; for tests. */
  now?: () => number;
}

export interface HostRegistry {
  /** Resolves once the heartbeats received so far are written (tests, shutdown). */
  idle(): Promise<void>;
  /** Stops listening and waits for writes in flight. */
  stop(): Promise<void>;
}

interface HostState {
  lastWriteMs: number;
  inventory: string | undefined;
  /** An inventory whose write failed; sent again with the next write (agents send it only on change). */
  retryInventory: HostInventory | undefined;
  /** Writes of this host run one after another. */
  chain: Promise<void>;
}

/**
 * Registers hosts from agent heartbeats of every tenant: the server row (with the inventory when
 * the heartbeat has one, `last_seen_at`, agent version and interval) and its `linux`/`windows`
 * service. A tenant that is no customer is ignored with one warning per host.
 */
export async function startHostRegistry(options: HostRegistryOptions): Promise<HostRegistry> {
  const { db, bus, logger } = options;
  const processes = options.processes ?? topProcesses;
  const now = options.now ?? Date.now;
  const hosts = new Map<string, HostState>();
  const knownCustomers = new Set<number>();
  const warnedUnknown = new Set<string>();
  const pending = new Set<Promise<void>>();

  async function customerOf(tenant: string): Promise<number | undefined> {
    if (!/^[1-9][0-9]{0,15}$/.test(tenant)) return undefined;
    const id = Number(tenant);
    if (knownCustomers.has(id)) return id;
    if (!(await getCustomer(db, id))) return undefined;
    knownCustomers.add(id);
    return id;
  }

  async function write(hb: Heartbeat, inventory: HostInventory | undefined, nowMs: number): Promise<void> {
    const customerId = await customerOf(hb.tenant);
    if (customerId === undefined) {
      const key = `${hb.tenant}/${hb.host}`;
      if (!warnedUnknown.has(key)) {
        warnedUnknown.add(key);
        logger.warn({ tenant: hb.tenant, host: hb.host }, 'heartbeat of an unknown tenant ignored');
      }
      return;
    }
    await upsertHostServer(db, customerId, {
      hostKey: hb.host,
      agentVersion: hb.agent_version,
      intervalSeconds: hb.interval_s,
      inventory,
      seenAt: Math.floor(nowMs / 1000),
    });
  }

  function onHeartbeat(hb: Heartbeat): void {
    const nowMs = now();
    if (hb.top_processes) {
      processes.set(hb.tenant, hb.host, {
        ts: hb.ts,
        by_cpu: hb.top_processes.by_cpu,
        by_memory: hb.top_processes.by_memory,
      });
    }
    const key = `${hb.tenant}/${hb.host}`;
    const inventory = hb.inventory ? JSON.stringify(hb.inventory) : undefined;
    let state = hosts.get(key);
    const changed = inventory !== undefined && inventory !== state?.inventory;
    if (state && !changed && nowMs - state.lastWriteMs < HOST_WRITE_INTERVAL_MS) return;
    if (!state) {
      state = { lastWriteMs: nowMs, inventory, retryInventory: undefined, chain: Promise.resolve() };
      hosts.set(key, state);
    }
    state.lastWriteMs = nowMs;
    if (inventory !== undefined) state.inventory = inventory;
    const host = state;
    const toWrite = hb.inventory ?? host.retryInventory;
    host.retryInventory = undefined;
    const job = host.chain.then(() =>
      write(hb, toWrite, nowMs).catch((err: unknown) => {
        // Let the next heartbeat try again rather than wait out the window.
        host.lastWriteMs = 0;
        host.retryInventory ??= toWrite;
        logger.warn({ err, tenant: hb.tenant, host: hb.host }, 'host registry write failed');
      }),
    );
    host.chain = job;
    pending.add(job);
    void job.finally(() => pending.delete(job));
  }

  const subscription: Subscription = await bus.subscribeHeartbeats(onHeartbeat);

  const idle = async () => {
    while (pending.size > 0) await Promise.all([...pending]);
  };
  return {
    idle,
    async stop() {
      await subscription.unsubscribe();
      await idle();
    },
  };
}
