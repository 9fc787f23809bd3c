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

/** A plan row, catalogue columns included. */
export type CataloguePlan = Plan;

/** Codes of the catalogue seeded by migration 0003. */
export const CATALOGUE_PLAN_CODES = ['freemium', 'standard', 'enterprise'] as const;
export type CataloguePlanCode = (typeof CATALOGUE_PLAN_CODES)[number];

/** A plan with its catalogue columns (null for those of a plan made by hand). */
export async function getPlanWithCatalogue(db: Db, planId: number): Promise<CataloguePlan | undefined> {
  return db.selectFrom('plans').selectAll().where('id', '=', planId).executeTakeFirst();
}

/** The catalogue plan with this code; undefined before migration 0003 has run. */
export async function getCataloguePlan(db: Db, code: CataloguePlanCode): Promise<CataloguePlan | undefined> {
  return db.selectFrom('plans').selectAll().where('code', '=', code).executeTakeFirst();
}

/** Every catalogue plan (those with a code), cheapest first. */
export async function listCataloguePlans(db: Db): Promise<CataloguePlan[]> {
  return db
    .selectFrom('plans')
    .selectAll()
    .where('code', 'is not', null)
    .orderBy('price')
    .orderBy('id')
    .execute();
}
