import type { Kysely, Migration } from 'kysely';
import { ddl } from './columns';

/**
 * Escalation chains (spec section 7, "Integrations": `escalation_config`, `save_escalation_config`):
 * - `escalation_chains`: one row per customer and severity (`default`, `R`, `Y`); `steps` is the
 *   chain as JSON (EscalationStep[] of schemas), the first step being the opening notification.
 * - `alert_escalations`: per alert occurrence (`historic_id`), the index of the last step sent, so
 *   an api restart neither resends a step nor forgets where a chain stood. The row outlives the
 *   open alert only as long as its history row.
 * Every row carries `customer_id`; removing a customer removes its rows.
 */
export const escalation: Migration = {
  async up(db: Kysely<unknown>) {
    const t = ddl(db);
    const customer = 'customers.id';
    await t
      .id(db.schema.createTable('escalation_chains'))
      .addColumn('customer_id', 'integer', (c) => c.notNull().references(customer).onDelete('cascade'))
      .addColumn('severity', 'text', (c) => c.notNull())
      .addColumn('steps', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addUniqueConstraint('escalation_chains_customer_severity', ['customer_id', 'severity'])
      .execute();
    await db.schema
      .createTable('alert_escalations')
      .addColumn('historic_id', 'integer', (c) =>
        c.primaryKey().references('alert_history.id').onDelete('cascade'),
      )
      .addColumn('customer_id', 'integer', (c) => c.notNull().references(customer).onDelete('cascade'))
      .addColumn('step', 'integer', (c) => c.notNull())
      .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
      .execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('alert_escalations').execute();
    await db.schema.dropTable('escalation_chains').execute();
  },
};
