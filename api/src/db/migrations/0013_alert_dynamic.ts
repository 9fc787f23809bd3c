import type { Kysely, Migration } from 'kysely';

/**
 * Why a dynamic threshold fired (issue #6): `dynamic` on `alert_history` and `alerts` holds, as
 * JSON, the band the value was judged against, the season it was learnt from, the algorithm and
 * the score (schemas `DynamicReason`), the latest change's. Null for a defined threshold and for
 * occurrences recorded before this column existed.
 */
export const alertDynamic: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('alert_history').addColumn('dynamic', 'text').execute();
    await db.schema.alterTable('alerts').addColumn('dynamic', 'text').execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('alerts').dropColumn('dynamic').execute();
    await db.schema.alterTable('alert_history').dropColumn('dynamic').execute();
  },
};
