import type { Kysely, Migration } from 'kysely';

/**
 * What a registered agentless service needs besides the `services` row of 0001 (whose `config`
 * holds its config as JSON, without secrets, and `interval_s` its poll interval): its secrets
 * sealed with the api's key, and its availability as the polling collector last reported it.
 * A registered database or URL is a `servers` row with no platform plus this `services` row.
 */
const SERVICE_COLUMNS = [
  /** AES-256-GCM sealed JSON of the config's secret fields; null when it has none. */
  ['secrets', 'text'],
  /** `available` or `unavailable`; null until the first poll. */
  ['availability', 'text'],
  /** Unix seconds of the poll that set `availability`. */
  ['availability_since', 'bigint'],
  /** Why the last failed poll failed: `<code>: <message>`. */
  ['last_error', 'text'],
] as const;

export const agentlessServices: Migration = {
  async up(db: Kysely<unknown>) {
    for (const [name, type] of SERVICE_COLUMNS) {
      await db.schema.alterTable('services').addColumn(name, type).execute();
    }
    await db.schema.createIndex('services_service_code').on('services').column('service_code').execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('services_service_code').execute();
    for (const [name] of [...SERVICE_COLUMNS].reverse()) {
      await db.schema.alterTable('services').dropColumn(name).execute();
    }
  },
};
