import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db, Engine } from '../../db/kysely';
import { migrateToLatest } from '../../db/migrate';
import { createTestDatabase, type TestDatabase } from '../../db/testing';
import { AUTH_CODE_TTL_S, checkAuthCode, consumeAuthCode, destroyAuthCode, issueAuthCode } from './codes';

/** The auth-code data access, run by codes.test.ts (SQLite) and codes.integration.test.ts (PostgreSQL). */
export function authCodesSuite(engine: Engine) {
  describe(`auth codes on ${engine}`, () => {
    let t: TestDatabase;
    let db: Db;
    const now = 1_800_000_000;
    beforeAll(async () => {
      t = await createTestDatabase(engine);
      db = t.db;
      await migrateToLatest(db);
    });
    afterAll(async () => {
      await t?.drop();
    });

    function wrong(code: string) {
      return code === '000000' ? '000001' : '000000';
    }

    it('issues 6-digit codes, stores only their hash and keeps the payload', async () => {
      const code = await issueAuthCode(db, 'signup', 'a@example.com', '{"name":"A"}', now);
      expect(code).toMatch(/^\d{6}$/);
      const rows = await db
        .withTables<{ auth_codes: { code_hash: string; expires_at: number; attempts: number } }>()
        .selectFrom('auth_codes')
        .selectAll()
        .execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]!.code_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(rows)).not.toContain(`"${code}"`);
      expect(rows[0]!.expires_at).toBe(now + AUTH_CODE_TTL_S);
      const matched = await checkAuthCode(db, 'signup', 'a@example.com', code, now);
      expect(matched?.payload).toBe('{"name":"A"}');
      // The code of one purpose does not open the other.
      expect(await checkAuthCode(db, 'recovery', 'a@example.com', code, now)).toBeUndefined();
    });

    it('expires a code after 15 minutes', async () => {
      const code = await issueAuthCode(db, 'recovery', 'exp@example.com', null, now);
      expect(
        await checkAuthCode(db, 'recovery', 'exp@example.com', code, now + AUTH_CODE_TTL_S - 1),
      ).toBeTruthy();
      expect(
        await checkAuthCode(db, 'recovery', 'exp@example.com', code, now + AUTH_CODE_TTL_S),
      ).toBeUndefined();
    });

    it('kills a code after 5 wrong tries; right tries do not count', async () => {
      const code = await issueAuthCode(db, 'recovery', 'tries@example.com', null, now);
      for (let i = 0; i < 4; i++) {
        expect(await checkAuthCode(db, 'recovery', 'tries@example.com', wrong(code), now)).toBeUndefined();
        expect(await checkAuthCode(db, 'recovery', 'tries@example.com', code, now)).toBeTruthy();
      }
      expect(await checkAuthCode(db, 'recovery', 'tries@example.com', wrong(code), now)).toBeUndefined();
      expect(await checkAuthCode(db, 'recovery', 'tries@example.com', code, now)).toBeUndefined();
    });

    it('counts parallel wrong tries without going past the limit', async () => {
      const code = await issueAuthCode(db, 'recovery', 'burst@example.com', null, now);
      const guesses = Array.from({ length: 20 }, () =>
        checkAuthCode(db, 'recovery', 'burst@example.com', wrong(code), now),
      );
      expect((await Promise.all(guesses)).every((g) => g === undefined)).toBe(true);
      expect(await checkAuthCode(db, 'recovery', 'burst@example.com', code, now)).toBeUndefined();
    });

    it('replaces the live code on a new request, with fresh tries', async () => {
      const first = await issueAuthCode(db, 'recovery', 'again@example.com', null, now);
      for (let i = 0; i < 5; i++) await checkAuthCode(db, 'recovery', 'again@example.com', wrong(first), now);
      const second = await issueAuthCode(db, 'recovery', 'again@example.com', null, now + 60);
      if (first !== second) {
        expect(await checkAuthCode(db, 'recovery', 'again@example.com', first, now + 60)).toBeUndefined();
      }
      expect(await checkAuthCode(db, 'recovery', 'again@example.com', second, now + 60)).toBeTruthy();
    });

    it('uses a code once, and not once it was replaced', async () => {
      const code = await issueAuthCode(db, 'signup', 'once@example.com', null, now);
      const matched = await checkAuthCode(db, 'signup', 'once@example.com', code, now);
      expect(await consumeAuthCode(db, matched!, now)).toBe(true);
      expect(await consumeAuthCode(db, matched!, now)).toBe(false);
      expect(await checkAuthCode(db, 'signup', 'once@example.com', code, now)).toBeUndefined();

      const old = await issueAuthCode(db, 'signup', 'replaced@example.com', null, now);
      const stale = await checkAuthCode(db, 'signup', 'replaced@example.com', old, now);
      let fresh = old;
      while (fresh === old) fresh = await issueAuthCode(db, 'signup', 'replaced@example.com', null, now);
      expect(await consumeAuthCode(db, stale!, now)).toBe(false);
    });

    it('destroys the live code of one e-mail and purpose only', async () => {
      const mine = await issueAuthCode(db, 'recovery', 'mine@example.com', null, now);
      const other = await issueAuthCode(db, 'recovery', 'other@example.com', null, now);
      await destroyAuthCode(db, 'recovery', 'mine@example.com');
      expect(await checkAuthCode(db, 'recovery', 'mine@example.com', mine, now)).toBeUndefined();
      expect(await checkAuthCode(db, 'recovery', 'other@example.com', other, now)).toBeTruthy();
    });

    it('rolls the use of a code back with the transaction that failed', async () => {
      const code = await issueAuthCode(db, 'signup', 'rollback@example.com', null, now);
      const matched = await checkAuthCode(db, 'signup', 'rollback@example.com', code, now);
      await expect(
        db.transaction().execute(async (trx) => {
          expect(await consumeAuthCode(trx, matched!, now)).toBe(true);
          throw new Error('account creation failed');
        }),
      ).rejects.toThrow('account creation failed');
      expect(await checkAuthCode(db, 'signup', 'rollback@example.com', code, now)).toBeTruthy();
    });
  });
}
