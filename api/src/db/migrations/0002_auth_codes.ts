import { type Kysely, type Migration, sql } from 'kysely';
import { ddl } from './columns';

/**
 * Codes sent by e-mail for sign-up verification and password recovery. Only a SHA-256 of each code
 * is kept; one row per (purpose, e-mail), so a new request replaces the live code.
 */
export const authCodes: Migration = {
  async up(db: Kysely<unknown>) {
    await ddl(db)
      .id(db.schema.createTable('auth_codes'))
      .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose in ('signup', 'recovery')`))
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('code_hash', 'text', (c) => c.notNull())
      .addColumn('payload', 'text')
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('auth_codes_purpose_email', ['purpose', 'email'])
      .execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('auth_codes').execute();
  },
};
