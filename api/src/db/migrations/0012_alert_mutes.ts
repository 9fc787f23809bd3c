import type { Kysely, Migration } from 'kysely';
import { ddl } from './columns';

/**
 * Alert follow-up (spec section 7):
 * - `alert_history.acknowledged_at`: unix seconds of an occurrence's first acknowledgement, which
 *   the mean time to acknowledge (`/services_monitored/mttx/historic`) is measured to. A later
 *   acknowledgement keeps the first time; occurrences acknowledged before this column existed
 *   have none and count as not acknowledged.
 * - `alert_history.parent_id`: the historic id of the "server unreachable" alert that was open on
 *   the same server when this one opened (a dependency: recorded, not told; `quiet` = `dependency`).
 * - `alert_mutes`: what raises nothing. `disabled`: an alert type turned off for one server or
 *   (server_id null) for all of the customer's servers (`alerts/change_alert_status`);
 *   `unavailable`: a server, or one service of it, marked as intentionally unavailable
 *   (`alerts/set_unavailable`), with `type_id` null. `scope_key` is unique per customer, so
 *   setting the same mute again keeps one row.
 */
export const alertMutes: Migration = {
  async up(db: Kysely<unknown>) {
    const t = ddl(db);
    await db.schema.alterTable('alert_history').addColumn('acknowledged_at', 'bigint').execute();
    await db.schema.alterTable('alert_history').addColumn('parent_id', 'integer').execute();
    await t
      .id(db.schema.createTable('alert_mutes'))
      .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id').onDelete('cascade'))
      .addColumn('server_id', 'integer', (c) => c.references('servers.id').onDelete('cascade'))
      .addColumn('service', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('type_id', 'integer')
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('scope_key', 'text', (c) => c.notNull())
      .addColumn('created_by', 'integer')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('alert_mutes_customer_scope', ['customer_id', 'scope_key'])
      .execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('alert_mutes').execute();
    await db.schema.alterTable('alert_history').dropColumn('parent_id').execute();
    await db.schema.alterTable('alert_history').dropColumn('acknowledged_at').execute();
  },
};
