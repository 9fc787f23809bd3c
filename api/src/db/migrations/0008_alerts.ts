import type { Kysely, Migration } from 'kysely';
import { ddl } from './columns';

/**
 * The alert engine's tables (spec sections 3, 4 and 7, "Alerts and thresholds"):
 * - `alert_thresholds`: defined and dynamic thresholds of a customer, on one server or (server_id
 *   null) on all of them. `scope_key` (server, service, metric, labels, mode) is unique per
 *   customer, so saving the same threshold again replaces it.
 * - `alerts`: one row per open alert, i.e. per (threshold, series) whose level is yellow or red,
 *   with its acknowledgement. Deleted when the alert resolves.
 * - `alert_history`: one row per occurrence (its id is the spec's historic_id), from when it opened
 *   to when it resolved, with the most severe level reached and the acknowledgement.
 * - `alert_rule_states`: the "for" durations the collectors had running, so a restarted collector
 *   carries on with them instead of starting the wait again.
 * - `notification_integrations`: each user's notification channels (e-mail address...).
 * - `notification_outbox`: notifications waiting to be sent, sent or given up (the queue's outbox).
 * Every row carries `customer_id`; removing a customer, a server or a user removes its rows.
 * Times in `_ms` columns are unix milliseconds, the others unix seconds.
 */
export const alerts: Migration = {
  async up(db: Kysely<unknown>) {
    const t = ddl(db);
    const customer = 'customers.id';

    await t
      .id(db.schema.createTable('alert_thresholds'))
      .addColumn('customer_id', 'integer', (c) => c.notNull().references(customer).onDelete('cascade'))
      .addColumn('server_id', 'integer', (c) => c.references('servers.id').onDelete('cascade'))
      .addColumn('service', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('metric', 'text', (c) => c.notNull())
      .addColumn('labels', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('scope_key', 'text', (c) => c.notNull())
      .addColumn('mode', 'text', (c) => c.notNull().defaultTo('defined'))
      .addColumn('operator', 'text', (c) => c.notNull())
      .addColumn('yellow', t.float)
      .addColumn('red', t.float)
      .addColumn('recovery', t.float)
      .addColumn('for_s', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('type_id', 'integer', (c) => c.notNull())
      .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('sensitivity', t.float)
      .addColumn('direction', 'text')
      .addColumn('created_by', 'integer')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('alert_thresholds_customer_scope', ['customer_id', 'scope_key'])
      .execute();
    await db.schema
      .createIndex('alert_thresholds_server')
      .on('alert_thresholds')
      .columns(['customer_id', 'server_id'])
      .execute();

    await t
      .id(db.schema.createTable('alert_history'))
      .addColumn('customer_id', 'integer', (c) => c.notNull().references(customer).onDelete('cascade'))
      .addColumn('server_id', 'integer', (c) => c.notNull().references('servers.id').onDelete('cascade'))
      // Not a foreign key: the history outlives a removed threshold.
      .addColumn('threshold_id', 'integer', (c) => c.notNull())
      .addColumn('alert_id', 'integer')
      .addColumn('host_key', 'text', (c) => c.notNull())
      .addColumn('service', 'text', (c) => c.notNull())
      .addColumn('metric', 'text', (c) => c.notNull())
      .addColumn('labels', 'text', (c) => c.notNull())
      .addColumn('type_id', 'integer', (c) => c.notNull())
      .addColumn('level', 'text', (c) => c.notNull())
      .addColumn('last_level', 'text', (c) => c.notNull())
      .addColumn('event', 'text', (c) => c.notNull())
      .addColumn('text', 'text', (c) => c.notNull())
      .addColumn('value', t.float, (c) => c.notNull())
      .addColumn('date_enter', 'bigint', (c) => c.notNull())
      .addColumn('date_exit', 'bigint')
      .addColumn('acknowledged_until', 'bigint')
      .addColumn('ack_by', 'text')
      .addColumn('ack_user_id', 'integer')
      .addColumn('ack_comment', 'text')
      .addColumn('notified', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('quiet', 'text')
      .execute();
    await db.schema
      .createIndex('alert_history_customer_enter')
      .on('alert_history')
      .columns(['customer_id', 'date_enter'])
      .execute();
    await db.schema
      .createIndex('alert_history_server_enter')
      .on('alert_history')
      .columns(['server_id', 'date_enter'])
      .execute();
    await db.schema
      .createIndex('alert_history_series')
      .on('alert_history')
      .columns(['threshold_id', 'host_key', 'service', 'labels', 'date_exit'])
      .execute();

    await t
      .id(db.schema.createTable('alerts'))
      .addColumn('customer_id', 'integer', (c) => c.notNull().references(customer).onDelete('cascade'))
      .addColumn('server_id', 'integer', (c) => c.notNull().references('servers.id').onDelete('cascade'))
      .addColumn('threshold_id', 'integer', (c) =>
        c.notNull().references('alert_thresholds.id').onDelete('cascade'),
      )
      .addColumn('historic_id', 'integer', (c) =>
        c.notNull().references('alert_history.id').onDelete('cascade'),
      )
      .addColumn('host_key', 'text', (c) => c.notNull())
      .addColumn('service', 'text', (c) => c.notNull())
      .addColumn('metric', 'text', (c) => c.notNull())
      .addColumn('labels', 'text', (c) => c.notNull())
      .addColumn('type_id', 'integer', (c) => c.notNull())
      .addColumn('level', 'text', (c) => c.notNull())
      .addColumn('event', 'text', (c) => c.notNull())
      .addColumn('text', 'text', (c) => c.notNull())
      .addColumn('value', t.float, (c) => c.notNull())
      .addColumn('recurring', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('entered_at_ms', 'bigint', (c) => c.notNull())
      .addColumn('changed_at_ms', 'bigint', (c) => c.notNull())
      .addColumn('ack_until', 'bigint')
      .addColumn('ack_by', 'text')
      .addColumn('ack_user_id', 'integer')
      .addColumn('ack_comment', 'text')
      /** Changes so far: part of each notification's id, so a replayed change is not sent twice. */
      .addColumn('change_seq', 'integer', (c) => c.notNull().defaultTo(0))
      .addUniqueConstraint('alerts_series', ['customer_id', 'threshold_id', 'host_key', 'service', 'labels'])
      .addUniqueConstraint('alerts_historic', ['historic_id'])
      .execute();
    await db.schema.createIndex('alerts_server').on('alerts').columns(['customer_id', 'server_id']).execute();

    await db.schema
      .createTable('alert_rule_states')
      .addColumn('customer_id', 'integer', (c) => c.notNull().references(customer).onDelete('cascade'))
      .addColumn('threshold_id', 'integer', (c) =>
        c.notNull().references('alert_thresholds.id').onDelete('cascade'),
      )
      .addColumn('host_key', 'text', (c) => c.notNull())
      .addColumn('service', 'text', (c) => c.notNull())
      .addColumn('labels', 'text', (c) => c.notNull())
      .addColumn('level', 'text', (c) => c.notNull())
      .addColumn('pending', 'text', (c) => c.notNull())
      .addColumn('pending_since_ms', 'bigint', (c) => c.notNull())
      .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('alert_rule_states_pk', ['threshold_id', 'host_key', 'service', 'labels'])
      .execute();

    await t
      .id(db.schema.createTable('notification_integrations'))
      .addColumn('customer_id', 'integer', (c) => c.notNull().references(customer).onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('channel', 'text', (c) => c.notNull())
      /** The channel's address: an e-mail address, a chat id, a webhook URL. */
      .addColumn('target', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('enabled'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addColumn('last_sent_at', 'bigint')
      .addColumn('last_error', 'text')
      .addUniqueConstraint('notification_integrations_user_channel', ['user_id', 'channel'])
      .execute();
    await db.schema
      .createIndex('notification_integrations_customer')
      .on('notification_integrations')
      .columns(['customer_id', 'channel', 'status'])
      .execute();

    await t
      .id(db.schema.createTable('notification_outbox'))
      .addColumn('customer_id', 'integer', (c) => c.notNull().references(customer).onDelete('cascade'))
      .addColumn('notification_id', 'text', (c) => c.notNull().unique())
      .addColumn('channel', 'text', (c) => c.notNull())
      .addColumn('recipient_key', 'text', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull().defaultTo('pending'))
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('enqueued_at_ms', 'bigint', (c) => c.notNull())
      .addColumn('next_at_ms', 'bigint', (c) => c.notNull())
      .addColumn('done_at_ms', 'bigint')
      .addColumn('last_error', 'text')
      .execute();
    await db.schema
      .createIndex('notification_outbox_pending')
      .on('notification_outbox')
      .columns(['channel', 'state', 'recipient_key', 'id'])
      .execute();
    await db.schema
      .createIndex('notification_outbox_done')
      .on('notification_outbox')
      .columns(['state', 'done_at_ms'])
      .execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('notification_outbox').execute();
    await db.schema.dropTable('notification_integrations').execute();
    await db.schema.dropTable('alert_rule_states').execute();
    await db.schema.dropTable('alerts').execute();
    await db.schema.dropTable('alert_history').execute();
    await db.schema.dropTable('alert_thresholds').execute();
  },
};
