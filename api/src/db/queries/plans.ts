import { unixNow } from '../../clock';
import type { Db } from '../kysely';
import type { NewPlan, Plan } from '../types';

/** Plans are shared by all customers (the system admin manages them), so they take no customer id. */
export async function createPlan(db: Db, plan: Omit<NewPlan, 'created_at'>): Promise<Plan> {
  return db
    .insertInto('plans')
    .values({ ...plan, created_at: unixNow() })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function getPlan(db: Db, planId: number): Promise<Plan | undefined> {
  return db.selectFrom('plans').selectAll().where('id', '=', planId).executeTakeFirst();
}
