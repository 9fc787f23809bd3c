import type { HostInventory } from '@flightdeck/schemas';
import { unixNow } from '../../clock';
import type { Db } from '../kysely';
import type { NewServer, NewService, Server, Service } from '../types';

export async function createServer(
  db: Db,
  customerId: number,
  server: Omit<NewServer, 'customer_id' | 'created_at'>,
): Promise<Server> {
  return db
    .insertInto('servers')
    .values({ ...server, customer_id: customerId, created_at: unixNow() })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function listServers(db: Db, customerId: number): Promise<Server[]> {
  return db.selectFrom('servers').selectAll().where('customer_id', '=', customerId).orderBy('id').execute();
}

export async function getServer(db: Db, customerId: number, serverId: number): Promise<Server | undefined> {
  return db
    .selectFrom('servers')
    .selectAll()
    .where('customer_id', '=', customerId)
    .where('id', '=', serverId)
    .executeTakeFirst();
}

/** Looks a server up by its bus host token, as ingest and heartbeats name it. */
export async function getServerByHostKey(
  db: Db,
  customerId: number,
  hostKey: string,
): Promise<Server | undefined> {
  return db
    .selectFrom('servers')
    .selectAll()
    .where('customer_id', '=', customerId)
    .where('host_key', '=', hostKey)
    .executeTakeFirst();
}

/**
 * Adds a service to a server of the same customer. Returns undefined when the server is not the
 * customer's, so an id guessed from another tenant cannot attach anything.
 */
export async function createService(
  db: Db,
  customerId: number,
  serverId: number,
  service: Omit<NewService, 'customer_id' | 'server_id' | 'created_at'>,
): Promise<Service | undefined> {
  const server = await getServer(db, customerId, serverId);
  if (!server) return undefined;
  return db
    .insertInto('services')
    .values({ ...service, customer_id: customerId, server_id: serverId, created_at: unixNow() })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Services of the customer, optionally of one server. */
export async function listServices(db: Db, customerId: number, serverId?: number): Promise<Service[]> {
  let q = db.selectFrom('services').selectAll().where('customer_id', '=', customerId);
  if (serverId !== undefined) q = q.where('server_id', '=', serverId);
  return q.orderBy('id').execute();
}

/** What a heartbeat says about its host. */
export interface HostSighting {
  hostKey: string;
  agentVersion: string;
  intervalSeconds: number;
  inventory?: HostInventory | undefined;
  /** Unix seconds. */
  seenAt: number;
}

function inventoryColumns(inv: HostInventory) {
  return {
    hostname: inv.hostname,
    os: inv.os,
    os_version: inv.os_version ?? null,
    kernel: inv.kernel ?? null,
    platform: inv.platform,
    architecture: inv.architecture,
    cores: inv.cores,
    memory_bytes: inv.memory_bytes,
    swap_bytes: inv.swap_bytes,
    ips: JSON.stringify(inv.ips),
    containerized: inv.containerized === undefined ? null : inv.containerized ? 1 : 0,
  };
}

/**
 * Creates or updates the server an agent reports as `hostKey`, with its inventory when the heartbeat
 * carries one, and makes sure it has its host service (`linux` or `windows` by platform, named by
 * the hostname). Both rows carry `customerId`.
 */
export async function upsertHostServer(db: Db, customerId: number, seen: HostSighting): Promise<Server> {
  const inv = seen.inventory ? inventoryColumns(seen.inventory) : undefined;
  const common = {
    last_seen_at: seen.seenAt,
    agent_version: seen.agentVersion,
    interval_s: seen.intervalSeconds,
  };
  let server = await getServerByHostKey(db, customerId, seen.hostKey);
  if (server) {
    server = await db
      .updateTable('servers')
      .set({ ...common, ...inv })
      .where('customer_id', '=', customerId)
      .where('id', '=', server.id)
      .returningAll()
      .executeTakeFirstOrThrow();
  } else {
    server = await db
      .insertInto('servers')
      .values({
        hostname: seen.hostKey,
        name: null,
        ...common,
        ...inv,
        host_key: seen.hostKey,
        customer_id: customerId,
        created_at: seen.seenAt,
      })
      // Two heartbeats of a new host racing: the second one updates the row the first made.
      .onConflict((oc) => oc.columns(['customer_id', 'host_key']).doUpdateSet({ ...common, ...inv }))
      .returningAll()
      .executeTakeFirstOrThrow();
  }
  const platform = server.platform;
  if (platform === 'linux' || platform === 'windows') {
    const existing = await db
      .selectFrom('services')
      .select(['id', 'name'])
      .where('customer_id', '=', customerId)
      .where('server_id', '=', server.id)
      .where('service_code', '=', platform)
      .executeTakeFirst();
    if (!existing) {
      await createService(db, customerId, server.id, {
        service_code: platform,
        name: server.hostname,
        config: null,
      });
    } else if (existing.name !== server.hostname) {
      await db
        .updateTable('services')
        .set({ name: server.hostname })
        .where('customer_id', '=', customerId)
        .where('id', '=', existing.id)
        .execute();
    }
  }
  return server;
}
