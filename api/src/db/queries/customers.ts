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
