import { createHash, randomBytes } from 'node:crypto';
import { unixNow } from '../clock';
import type { Db } from '../db/kysely';
import type { AgentKey } from '../db/types';

/** Every access key starts with this, so a leaked one is recognisable in logs and scanners. */
export const AGENT_KEY_PREFIX = 'fdk_';
/** Characters of a key kept in clear for display. */
export const AGENT_KEY_PREFIX_LENGTH = 8;
/** Name a key gets when the caller gives none. */
export const DEFAULT_AGENT_KEY_NAME = 'default';

/** SHA-256 of a key, hex: the only form stored. */
export function hashAgentKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** A new key: `fdk_` + 32 random bytes in base64url. */
export function generateAgentKey(): string {
  return `${AGENT_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/** The customer's newest key that is not revoked. */
export async function activeAgentKey(db: Db, customerId: number): Promise<AgentKey | undefined> {
  return db
    .selectFrom('agent_keys')
    .selectAll()
    .where('customer_id', '=', customerId)
    .where('revoked_at', 'is', null)
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

/**
 * Creates a key for the customer and revokes the ones it had (rotation), in one transaction.
 * Returns the row and the full key, which is never readable again.
 */
export async function createAgentKey(
  db: Db,
  customerId: number,
  name: string,
): Promise<{ row: AgentKey; key: string }> {
  const key = generateAgentKey();
  const now = unixNow();
  const row = await db.transaction().execute(async (tx) => {
    await tx
      .updateTable('agent_keys')
      .set({ revoked_at: now })
      .where('customer_id', '=', customerId)
      .where('revoked_at', 'is', null)
      .execute();
    return tx
      .insertInto('agent_keys')
      .values({
        customer_id: customerId,
        name,
        key_hash: hashAgentKey(key),
        key_prefix: key.slice(0, AGENT_KEY_PREFIX_LENGTH),
        created_at: now,
        last_used_at: null,
        revoked_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  });
  return { row, key };
}

/** Minimum seconds between two `last_used_at` updates of one key: ingest calls come every interval. */
const LAST_USED_RESOLUTION_S = 60;

/**
 * The customer id of an active key, or undefined for an unknown or revoked one. Marks the key used
 * (at most once a minute, so the hot path seldom writes).
 */
export async function verifyAgentKey(db: Db, key: string): Promise<number | undefined> {
  if (!key.startsWith(AGENT_KEY_PREFIX) || key.length > 128) return undefined;
  const row = await db
    .selectFrom('agent_keys')
    .select(['id', 'customer_id', 'last_used_at'])
    .where('key_hash', '=', hashAgentKey(key))
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (!row) return undefined;
  const now = unixNow();
  if (row.last_used_at === null || now - row.last_used_at >= LAST_USED_RESOLUTION_S) {
    await db.updateTable('agent_keys').set({ last_used_at: now }).where('id', '=', row.id).execute();
  }
  return row.customer_id;
}
