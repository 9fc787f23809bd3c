import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { EMAIL_CODE_MAX_ATTEMPTS, EMAIL_CODE_TTL_MINUTES } from '@flightdeck/schemas';
import { unixNow } from '../../clock';
import type { Db } from '../../db/kysely';

/** What an e-mailed code is for. */
export const AUTH_CODE_PURPOSES = ['signup', 'recovery'] as const;
export type AuthCodePurpose = (typeof AUTH_CODE_PURPOSES)[number];

/** Seconds a code stays valid. */
export const AUTH_CODE_TTL_S = EMAIL_CODE_TTL_MINUTES * 60;

/** A 6-digit code, uniformly drawn (leading zeros kept). */
export function newAuthCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

function hashCode(code: string): string {
  return createHash('sha256').update(code).digest('hex');
}

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Codes long dead are removed when a new one is issued, so the table stays small. */
const PURGE_AFTER_S = 24 * 3600;

/**
 * Stores a new code for (purpose, e-mail), replacing the live one with fresh tries, and returns it
 * (the caller e-mails it; only its hash is kept).
 */
export async function issueAuthCode(
  db: Db,
  purpose: AuthCodePurpose,
  email: string,
  payload: string | null = null,
  now = unixNow(),
): Promise<string> {
  const code = newAuthCode();
  const fields = {
    code_hash: hashCode(code),
    payload,
    attempts: 0,
    expires_at: now + AUTH_CODE_TTL_S,
    used_at: null,
    created_at: now,
  };
  await db
    .deleteFrom('auth_codes')
    .where('expires_at', '<', now - PURGE_AFTER_S)
    .execute();
  await db
    .insertInto('auth_codes')
    .values({ purpose, email, ...fields })
    .onConflict((oc) => oc.columns(['purpose', 'email']).doUpdateSet(fields))
    .execute();
  return code;
}

/** A code that matched: what identifies it (to consume it) and the payload stored with it. */
export interface MatchedAuthCode {
  id: number;
  codeHash: string;
  payload: string | null;
}

/**
 * Checks a code without using it up. Undefined when there is no live code (none, used, expired,
 * or out of tries) or it does not match; each wrong try counts. A try is reserved with one atomic
 * update before comparing, so parallel guesses cannot exceed the limit; a right code gives its
 * try back.
 */
export async function checkAuthCode(
  db: Db,
  purpose: AuthCodePurpose,
  email: string,
  code: string,
  now = unixNow(),
): Promise<MatchedAuthCode | undefined> {
  const row = await db
    .updateTable('auth_codes')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('purpose', '=', purpose)
    .where('email', '=', email)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .where('attempts', '<', EMAIL_CODE_MAX_ATTEMPTS)
    .returning(['id', 'code_hash', 'payload'])
    .executeTakeFirst();
  if (!row || !sameHash(row.code_hash, hashCode(code))) return undefined;
  await db
    .updateTable('auth_codes')
    .set((eb) => ({ attempts: eb('attempts', '-', 1) }))
    .where('id', '=', row.id)
    .execute();
  return { id: row.id, codeHash: row.code_hash, payload: row.payload };
}

/**
 * Marks a matched code used; false when it was used or replaced (same row, new hash) meanwhile.
 * Run it in the transaction that acts on the code, so a failure there leaves the code live.
 */
export async function consumeAuthCode(db: Db, matched: MatchedAuthCode, now = unixNow()): Promise<boolean> {
  const result = await db
    .updateTable('auth_codes')
    .set({ used_at: now })
    .where('id', '=', matched.id)
    .where('code_hash', '=', matched.codeHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Removes the live code of (purpose, e-mail), if any. */
export async function destroyAuthCode(db: Db, purpose: AuthCodePurpose, email: string): Promise<void> {
  await db.deleteFrom('auth_codes').where('purpose', '=', purpose).where('email', '=', email).execute();
}
