import type { Kysely, Migration } from 'kysely';
import { ddl } from './columns';

/**
 * `agent_installs`: one row per system an agent was installed on, made by `POST /agent/register`.
 * A system is its hashed machine id, unique per customer, so a re-install finds its row again and
 * keeps its host key (and with it the server and its history). The host key is unique per customer
 * too: two machines with the same host name get `web`, `web-2`.
 */
export const agentInstalls: Migration = {
  async up(db: Kysely<unknown>) {
    await ddl(db)
      .id(db.schema.createTable('agent_installs'))
      .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id').onDelete('cascade'))
      .addColumn('machine_id', 'text', (c) => c.notNull())
      .addColumn('host_key', 'text', (c) => c.notNull())
      .addColumn('hostname', 'text', (c) => c.notNull())
      .addColumn('platform', 'text', (c) => c.notNull())
      .addColumn('registered_at', 'bigint', (c) => c.notNull())
      .addColumn('last_registered_at', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('agent_installs_customer_machine', ['customer_id', 'machine_id'])
      .addUniqueConstraint('agent_installs_customer_host_key', ['customer_id', 'host_key'])
      .execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('agent_installs').execute();
  },
};
