import type { Kysely, Migration } from 'kysely';
import { ddl } from './columns';

/** Inventory columns a heartbeat fills in, one ALTER each (SQLite adds one column per statement). */
const SERVER_COLUMNS = [
  ['os_version', 'text'],
  ['kernel', 'text'],
  ['platform', 'text'],
  ['ips', 'text'],
  ['containerized', 'integer'],
  ['agent_version', 'text'],
  ['interval_s', 'integer'],
] as const;

/**
 * Hosts registered by their agents: the inventory columns of `servers`, and `agent_keys`, the access
 * keys agents send to the HTTP ingest. Only a SHA-256 of each key is kept, with its first 8
 * characters for display.
 */
export const hosts: Migration = {
  async up(db: Kysely<unknown>) {
    for (const [name, type] of SERVER_COLUMNS) {
      await db.schema.alterTable('servers').addColumn(name, type).execute();
    }

    await ddl(db)
      .id(db.schema.createTable('agent_keys'))
      .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('key_hash', 'text', (c) => c.notNull().unique())
      .addColumn('key_prefix', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_used_at', 'bigint')
      .addColumn('revoked_at', 'bigint')
      .execute();
    await db.schema.createIndex('agent_keys_customer_id').on('agent_keys').column('customer_id').execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('agent_keys').execute();
    for (const [name] of [...SERVER_COLUMNS].reverse()) {
      await db.schema.alterTable('servers').dropColumn(name).execute();
    }
  },
};
