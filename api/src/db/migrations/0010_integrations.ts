import type { Kysely, Migration } from 'kysely';

/**
 * The chat integrations (spec section 7, "Integrations") on `notification_integrations`:
 * - `secret`: a secret part of the target sealed with the api's key (a Slack or Google Chat
 *   webhook URL); `target` then holds only the masked URL.
 * - `detail`: what the channel tells about the target (the Telegram username; `webhook` or `bot`
 *   for Slack).
 * - `pending_target`, `verify_hash`, `verify_until`, `verify_attempts`: a one-time key waiting to
 *   be confirmed (a Telegram `/start <key>`, a WhatsApp code for `pending_target`), kept as a
 *   SHA-256 hash until it expires.
 * A Telegram row made by `integration_key` has an empty `target` until the chat is linked.
 */
export const integrations: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('notification_integrations').addColumn('secret', 'text').execute();
    await db.schema.alterTable('notification_integrations').addColumn('detail', 'text').execute();
    await db.schema.alterTable('notification_integrations').addColumn('pending_target', 'text').execute();
    await db.schema.alterTable('notification_integrations').addColumn('verify_hash', 'text').execute();
    await db.schema.alterTable('notification_integrations').addColumn('verify_until', 'bigint').execute();
    await db.schema
      .alterTable('notification_integrations')
      .addColumn('verify_attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createIndex('notification_integrations_verify')
      .on('notification_integrations')
      .columns(['channel', 'verify_hash'])
      .execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('notification_integrations_verify').execute();
    for (const column of [
      'verify_attempts',
      'verify_until',
      'verify_hash',
      'pending_target',
      'detail',
      'secret',
    ]) {
      await db.schema.alterTable('notification_integrations').dropColumn(column).execute();
    }
  },
};
