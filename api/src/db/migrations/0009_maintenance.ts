import type { Kysely, Migration } from 'kysely';
import { ddl } from './columns';

/**
 * Maintenance windows (spec section 7, "Maintenance, scheduler, business"):
 * - `maintenance_windows`: one row per window of a customer. `start_at`/`end_at` are its first
 *   occurrence; a recurring one (`recurrence` daily or weekly, `weekdays` "1,3,5" in UTC, 0 Sunday)
 *   repeats at the same time of day until `until_at`. `last_end_at` is when its last occurrence
 *   ends (null: repeats with no end), so the alert path and the lists skip the windows that are
 *   over with an index. `finished_at` is set when it is ended early. `all_servers` 1 covers every
 *   server of the customer, otherwise `maintenance_window_servers` lists them; `service` '' covers
 *   the servers and all their services.
 * - `alert_history.maintenance_id`: the window that kept an alert change from being notified
 *   (with `quiet` = 'maintenance'). Not a foreign key: the history outlives a removed window.
 * Every row carries `customer_id`; removing a customer or a server removes its rows.
 */
export const maintenance: Migration = {
  async up(db: Kysely<unknown>) {
    const t = ddl(db);
    const customer = 'customers.id';

    await t
      .id(db.schema.createTable('maintenance_windows'))
      .addColumn('customer_id', 'integer', (c) => c.notNull().references(customer).onDelete('cascade'))
      .addColumn('all_servers', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('service', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('start_at', 'bigint', (c) => c.notNull())
      .addColumn('end_at', 'bigint', (c) => c.notNull())
      .addColumn('recurrence', 'text', (c) => c.notNull().defaultTo('none'))
      .addColumn('weekdays', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('until_at', 'bigint')
      .addColumn('last_end_at', 'bigint')
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('approved', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('finished_at', 'bigint')
      .execute();
    await db.schema
      .createIndex('maintenance_windows_customer_end')
      .on('maintenance_windows')
      .columns(['customer_id', 'last_end_at'])
      .execute();

    await db.schema
      .createTable('maintenance_window_servers')
      .addColumn('customer_id', 'integer', (c) => c.notNull().references(customer).onDelete('cascade'))
      .addColumn('window_id', 'integer', (c) =>
        c.notNull().references('maintenance_windows.id').onDelete('cascade'),
      )
      .addColumn('server_id', 'integer', (c) => c.notNull().references('servers.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('maintenance_window_servers_pk', ['window_id', 'server_id'])
      .execute();
    await db.schema
      .createIndex('maintenance_window_servers_server')
      .on('maintenance_window_servers')
      .columns(['customer_id', 'server_id'])
      .execute();

    await db.schema.alterTable('alert_history').addColumn('maintenance_id', 'integer').execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('alert_history').dropColumn('maintenance_id').execute();
    await db.schema.dropTable('maintenance_window_servers').execute();
    await db.schema.dropTable('maintenance_windows').execute();
  },
};
