import type { UserPreference } from '@flightdeck/schemas';
import { unixNow } from '../../clock';
import type { Db } from '../kysely';
import type { NewUser, User } from '../types';

export async function createUser(
  db: Db,
  customerId: number,
  user: Omit<NewUser, 'customer_id' | 'created_at'>,
): Promise<User> {
  return db
    .insertInto('users')
    .values({ ...user, email: user.email.toLowerCase(), customer_id: customerId, created_at: unixNow() })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * The one user lookup without a customer id: sign-in and password recovery know only the e-mail,
 * which is unique across customers. Its answer must only feed the credential (or code) check.
 */
export async function findUserForSignin(db: Db, email: string): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
}

export async function getUser(db: Db, customerId: number, userId: number): Promise<User | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('customer_id', '=', customerId)
    .where('id', '=', userId)
    .executeTakeFirst();
}

export async function listUsers(db: Db, customerId: number): Promise<User[]> {
  return db.selectFrom('users').selectAll().where('customer_id', '=', customerId).orderBy('id').execute();
}

export async function countUsers(db: Db): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function recordLogin(db: Db, customerId: number, userId: number, at = unixNow()): Promise<void> {
  await db
    .updateTable('users')
    .set({ last_login: at })
    .where('customer_id', '=', customerId)
    .where('id', '=', userId)
    .execute();
}

/** Whether any user, of any customer, has the e-mail (it is the login, unique across customers). */
export async function emailInUse(db: Db, email: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', email.toLowerCase())
    .executeTakeFirst();
  return row !== undefined;
}

/** Replaces the user's password hash; returns whether the user is the customer's. */
export async function setUserPassword(
  db: Db,
  customerId: number,
  userId: number,
  passwordHash: string,
): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ password_hash: passwordHash })
    .where('customer_id', '=', customerId)
    .where('id', '=', userId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Sets the user's language (users.locale), as the `locale` preference does. */
export async function setUserLocale(
  db: Db,
  customerId: number,
  userId: number,
  locale: string,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ locale })
    .where('customer_id', '=', customerId)
    .where('id', '=', userId)
    .execute();
}

/** The user's preferences ordered by name; only `only` when given. */
export async function getUserPreferences(
  db: Db,
  customerId: number,
  userId: number,
  only?: string,
): Promise<UserPreference[]> {
  let q = db
    .selectFrom('user_preferences')
    .select(['preference', 'value'])
    .where('customer_id', '=', customerId)
    .where('user_id', '=', userId);
  if (only !== undefined) q = q.where('preference', '=', only);
  return q.orderBy('preference').execute();
}

/** Sets one preference; a user of another customer is left untouched (nothing is written). */
export async function setUserPreference(
  db: Db,
  customerId: number,
  userId: number,
  preference: string,
  value: string,
): Promise<void> {
  const owner = await getUser(db, customerId, userId);
  if (!owner) return;
  await db
    .insertInto('user_preferences')
    .values({ customer_id: customerId, user_id: userId, preference, value })
    .onConflict((oc) => oc.columns(['user_id', 'preference']).doUpdateSet({ value }))
    .execute();
}
