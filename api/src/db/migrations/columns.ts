import type { CreateTableBuilder, Kysely } from 'kysely';
import { engineOf } from '../kysely';

/**
 * The only place where the two engines' DDL differs: an auto-increment id, and a float column.
 * Everything else (bigint unix seconds, integer 0/1 flags, text JSON) is spelled the same.
 */
export function ddl(db: Kysely<unknown>) {
  const postgres = engineOf(db) === 'postgres';
  return {
    /** `integer primary key autoincrement` on SQLite, an identity column on PostgreSQL. */
    id<T extends string>(table: CreateTableBuilder<T, never>) {
      return postgres
        ? table.addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
        : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
    },
    float: postgres ? ('double precision' as const) : ('real' as const),
  };
}
