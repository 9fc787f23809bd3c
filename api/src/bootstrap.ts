import { randomInt } from 'node:crypto';
import { SYSTEM_ADMIN_ROLE } from '@flightdeck/schemas';
import { hashPassword } from './auth/password';
import type { Db } from './db/kysely';
import { createCustomer } from './db/queries/customers';
import { getCataloguePlan } from './db/queries/plans';
import { countUsers, createUser, setUserPreference } from './db/queries/users';

export const DEFAULT_ADMIN_EMAIL = 'admin@flightdeck.local';

export type BootstrapResult =
  | { created: false }
  | {
      created: true;
      email: string;
      /** Present only when it was generated: print it once, it is not stored anywhere readable. */
      password?: string;
    };

/** 20 characters from an alphabet without look-alikes (no 0/O, 1/l/I). */
export function generatePassword(length = 20): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}

/**
 * On the first start (no user at all) creates the first customer, on the catalogue's Enterprise
 * plan (every resource, no limits; seeded by migration 0003), and its system administrator (role 1,
 * is_admin '1'), with the given credentials or admin@flightdeck.local and a generated password.
 * Later starts change nothing.
 */
export async function ensureSystemAdmin(
  db: Db,
  credentials: { email?: string | undefined; password?: string | undefined } = {},
): Promise<BootstrapResult> {
  if ((await countUsers(db)) > 0) return { created: false };
  const email = (credentials.email ?? DEFAULT_ADMIN_EMAIL).toLowerCase();
  const generated = credentials.password ? undefined : generatePassword();
  const passwordHash = await hashPassword(credentials.password ?? generated!);

  const created = await db.transaction().execute(async (trx) => {
    // Checked again inside the transaction: two processes starting together create one admin
    // (the unique e-mail stops the second one's insert if they interleave).
    if ((await countUsers(trx)) > 0) return false;
    const plan = await getCataloguePlan(trx, 'enterprise');
    if (!plan) throw new Error('the plan catalogue is missing: run the metadata DB migrations first');
    const customer = await createCustomer(trx, { name: 'Flightdeck', email, plan_id: plan.id });
    const admin = await createUser(trx, customer.id, {
      email,
      name: 'System administrator',
      password_hash: passwordHash,
      is_admin: '1',
      role_code: SYSTEM_ADMIN_ROLE,
    });
    await setUserPreference(trx, customer.id, admin.id, 'first_access_banner', '1');
    return true;
  });
  if (!created) return { created: false };
  return generated ? { created: true, email, password: generated } : { created: true, email };
}
