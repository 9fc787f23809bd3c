import { hostKeyFromHostname } from '@flightdeck/schemas';
import { unixNow } from '../clock';
import type { Db } from '../db/kysely';
import type { AgentInstall } from '../db/types';

/** What an agent says about the system it is installed on. */
export interface InstallSighting {
  machineId: string;
  hostname: string;
  platform: string;
}

/** True for a unique-constraint violation, as SQLite (better-sqlite3) and PostgreSQL (pg) report it. */
function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505';
}

/** `base`, else `base-2`, `base-3`...: the first not in `taken`, cut so it stays a 128-character token. */
export function freeHostKey(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const key = `${base.slice(0, 128 - suffix.length)}${suffix}`;
    if (!taken.has(key)) return key;
  }
}

/** Registrations racing for one host key retry this many times before giving up. */
const MAX_ATTEMPTS = 5;

/**
 * The install of this system for the customer: found by machine id (a re-install: same row, same
 * host key, hostname and platform refreshed) or made with a host key derived from the host name,
 * made unique among the customer's installs. A server that already publishes under that key with
 * no install of its own (an agent configured by hand) is taken over, with its history.
 */
export async function registerInstall(
  db: Db,
  customerId: number,
  seen: InstallSighting,
): Promise<AgentInstall> {
  const base = hostKeyFromHostname(seen.hostname);
  let lastError: unknown;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const now = unixNow();
    const existing = await db
      .updateTable('agent_installs')
      .set({ hostname: seen.hostname, platform: seen.platform, last_registered_at: now })
      .where('customer_id', '=', customerId)
      .where('machine_id', '=', seen.machineId)
      .returningAll()
      .executeTakeFirst();
    if (existing) return existing;

    const rows = await db
      .selectFrom('agent_installs')
      .select('host_key')
      .where('customer_id', '=', customerId)
      .where((eb) => eb.or([eb('host_key', '=', base), eb('host_key', 'like', `${base}-%`)]))
      .execute();
    try {
      return await db
        .insertInto('agent_installs')
        .values({
          customer_id: customerId,
          machine_id: seen.machineId,
          host_key: freeHostKey(base, new Set(rows.map((r) => r.host_key))),
          hostname: seen.hostname,
          platform: seen.platform,
          registered_at: now,
          last_registered_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    } catch (err) {
      // Another registration of this machine, or of a machine with the same host name, got in
      // first: look again.
      if (!isUniqueViolation(err)) throw err;
      lastError = err;
    }
  }
  throw new Error(`agent registration kept colliding with concurrent registrations: ${String(lastError)}`);
}
