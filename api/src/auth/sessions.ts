import { createHash, randomBytes } from 'node:crypto';
import type { RoleCode } from '@flightdeck/schemas';
import { unixNow } from '../clock';
import type { Db } from '../db/kysely';

/** What a route knows about the caller once `requireSession` let the request through. */
export interface SessionInfo {
  sessionId: number;
  userId: number;
  customerId: number;
  isAdmin: boolean;
  roleCode: RoleCode;
}

/** A new session token: 32 random bytes, base64url. Only its SHA-256 is stored. */
export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface NewSessionInput {
  userId: number;
  customerId: number;
  ttlHours: number;
  ip?: string | null;
  userAgent?: string | null;
}

/** Opens a session and returns its token (shown once, to the client) and expiry (unix seconds). */
export async function createSession(
  db: Db,
  input: NewSessionInput,
  now = unixNow(),
): Promise<{ token: string; expiresAt: number }> {
  const token = newSessionToken();
  const expiresAt = now + Math.round(input.ttlHours * 3600);
  await db
    .insertInto('sessions')
    .values({
      token_hash: hashSessionToken(token),
      user_id: input.userId,
      customer_id: input.customerId,
      created_at: now,
      expires_at: expiresAt,
      last_seen_at: now,
      ip: input.ip?.slice(0, 64) ?? null,
      user_agent: input.userAgent?.slice(0, 512) ?? null,
    })
    .execute();
  return { token, expiresAt };
}

/** last_seen_at is written at most this often per session, not on every request. */
const TOUCH_EVERY_S = 60;

/**
 * The session a token opens: not revoked, not expired, and its user still ACTIVE in the same
 * customer. The token is the credential here, so this lookup has no customer id of its own.
 */
export async function findActiveSession(
  db: Db,
  token: string,
  now = unixNow(),
): Promise<SessionInfo | undefined> {
  const row = await db
    .selectFrom('sessions as s')
    .innerJoin('users as u', (j) =>
      j.onRef('u.id', '=', 's.user_id').onRef('u.customer_id', '=', 's.customer_id'),
    )
    .select(['s.id', 's.user_id', 's.customer_id', 's.last_seen_at', 'u.is_admin', 'u.role_code'])
    .where('s.token_hash', '=', hashSessionToken(token))
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', now)
    .where('u.status', '=', 'ACTIVE')
    .executeTakeFirst();
  if (!row) return undefined;
  if (now - row.last_seen_at >= TOUCH_EVERY_S) {
    await db.updateTable('sessions').set({ last_seen_at: now }).where('id', '=', row.id).execute();
  }
  return {
    sessionId: row.id,
    userId: row.user_id,
    customerId: row.customer_id,
    isAdmin: row.is_admin === '1',
    roleCode: row.role_code as RoleCode,
  };
}

/** Revokes the session of a token; returns whether one was open. */
export async function revokeSession(db: Db, token: string, now = unixNow()): Promise<boolean> {
  const result = await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('token_hash', '=', hashSessionToken(token))
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Revokes every open session of a user of the customer (password change, user blocked). */
export async function revokeUserSessions(db: Db, customerId: number, userId: number, now = unixNow()) {
  const result = await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('customer_id', '=', customerId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
