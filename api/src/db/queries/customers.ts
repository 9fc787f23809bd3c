import { unixNow } from '../../clock';
import type { Db } from '../kysely';
import type { Customer, NewCustomer } from '../types';

export async function createCustomer(
  db: Db,
  customer: Omit<NewCustomer, 'created_at' | 'register_in'> & { register_in?: number },
): Promise<Customer> {
  const now = unixNow();
  return db
    .insertInto('customers')
    .values({ register_in: now, ...customer, created_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A customer sees only itself; the system admin's customer listing will have its own query. */
export async function getCustomer(db: Db, customerId: number): Promise<Customer | undefined> {
  return db.selectFrom('customers').selectAll().where('id', '=', customerId).executeTakeFirst();
}

/** What a customer uses of its plan's limits: ACTIVE users, servers and services. */
export interface CustomerUsage {
  users: number;
  servers: number;
  services: number;
}

/** The customer's ACTIVE users (REMOVED and BLOCKED ones do not count against the plan). */
export async function countActiveUsers(db: Db, customerId: number): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('customer_id', '=', customerId)
    .where('status', '=', 'ACTIVE')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The customer's registered servers. */
export async function countServers(db: Db, customerId: number): Promise<number> {
  const row = await db
    .selectFrom('servers')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('customer_id', '=', customerId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The customer's registered services, of one type when `serviceCode` is given. */
export async function countServices(db: Db, customerId: number, serviceCode?: string): Promise<number> {
  let q = db
    .selectFrom('services')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('customer_id', '=', customerId);
  if (serviceCode !== undefined) q = q.where('service_code', '=', serviceCode);
  const row = await q.executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The customer's servers that run a service of `serviceCode`, one row per server, by server id. */
export async function listServersWithService(
  db: Db,
  customerId: number,
  serviceCode: string,
): Promise<{ server_id: number; name: string | null; hostname: string; service_code: string }[]> {
  return db
    .selectFrom('servers')
    .innerJoin('services', 'services.server_id', 'servers.id')
    .select(['servers.id as server_id', 'servers.name', 'servers.hostname', 'services.service_code'])
    .distinct()
    .where('servers.customer_id', '=', customerId)
    .where('services.customer_id', '=', customerId)
    .where('services.service_code', '=', serviceCode)
    .orderBy('servers.id')
    .execute();
}
