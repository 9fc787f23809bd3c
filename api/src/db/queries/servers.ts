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
