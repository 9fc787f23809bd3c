import type { Db } from '../../db/kysely';
import { occurrenceAt, timingOf, type WindowTiming } from './occurrences';

/** An approved window running at the time asked about. */
export interface ActiveWindow {
  id: number;
  reason: string;
}

/**
 * Which approved maintenance window covers a server (and service) at a time, for the alert path.
 * One per database in a process, so the maintenance calls can forget what they changed.
 */
export interface MaintenanceLookup {
  /** The approved window running at `atMs` on the server (and `service`, '' for the server itself). */
  activeWindowFor(
    customerId: number,
    serverId: number,
    service: string,
    atMs: number,
  ): Promise<ActiveWindow | null>;
  /** Forgets a customer's cached windows (a window was created, finished or removed). */
  changed(customerId: number): void;
}

/** How long a customer's windows are reused before being read again. */
export const MAINTENANCE_CACHE_TTL_MS = 5_000;
/** Windows that ended this long before the time asked about are not loaded. */
const LOAD_SLACK_S = 3_600;

interface Candidate {
  id: number;
  reason: string;
  allServers: boolean;
  service: string;
  servers: Set<number>;
  timing: WindowTiming;
}

interface Cached {
  loadedAtMs: number;
  /** Windows ending before this (unix s) were left out: a lookup before it reloads. */
  fromS: number;
  windows: Candidate[];
}

const lookups = new WeakMap<Db, MaintenanceLookup>();

/** The process's lookup on `db`. */
export function maintenanceLookup(db: Db): MaintenanceLookup {
  let lookup = lookups.get(db);
  if (!lookup) {
    lookup = createMaintenanceLookup(db);
    lookups.set(db, lookup);
  }
  return lookup;
}

export function createMaintenanceLookup(
  db: Db,
  options: { ttlMs?: number; clockMs?: () => number } = {},
): MaintenanceLookup {
  const ttlMs = options.ttlMs ?? MAINTENANCE_CACHE_TTL_MS;
  const clockMs = options.clockMs ?? Date.now;
  const cache = new Map<number, Cached>();

  async function load(customerId: number, fromS: number): Promise<Candidate[]> {
    const rows = await db
      .selectFrom('maintenance_windows')
      .selectAll()
      .where('customer_id', '=', customerId)
      .where('approved', '=', 1)
      .where((eb) => eb.or([eb('last_end_at', 'is', null), eb('last_end_at', '>', fromS)]))
      .orderBy('id')
      .execute();
    const named = rows.filter((r) => r.all_servers !== 1).map((r) => r.id);
    const links =
      named.length === 0
        ? []
        : await db
            .selectFrom('maintenance_window_servers')
            .select(['window_id', 'server_id'])
            .where('customer_id', '=', customerId)
            .where('window_id', 'in', named)
            .execute();
    return rows.map((r) => ({
      id: r.id,
      reason: r.reason,
      allServers: r.all_servers === 1,
      service: r.service,
      servers: new Set(links.filter((l) => l.window_id === r.id).map((l) => l.server_id)),
      timing: timingOf(r),
    }));
  }

  return {
    async activeWindowFor(customerId, serverId, service, atMs) {
      const atS = Math.floor(atMs / 1000);
      let entry = cache.get(customerId);
      if (!entry || clockMs() - entry.loadedAtMs >= ttlMs || atS < entry.fromS) {
        const fromS = atS - LOAD_SLACK_S;
        entry = { loadedAtMs: clockMs(), fromS, windows: await load(customerId, fromS) };
        cache.set(customerId, entry);
      }
      for (const w of entry.windows) {
        if (!w.allServers && !w.servers.has(serverId)) continue;
        if (w.service !== '' && w.service !== service) continue;
        if (occurrenceAt(w.timing, atS)) return { id: w.id, reason: w.reason };
      }
      return null;
    },
    changed(customerId) {
      cache.delete(customerId);
    },
  };
}
