import type { Kysely, Migration } from 'kysely';
import { ddl } from './columns';

/**
 * Critical files (spec section 7, "Files"):
 * - `monitored_files`: one row per file a customer watches on one of its servers, with the
 *   baseline hash, what the agent last found and the status the console shows. A path is
 *   monitored once per server.
 * - `monitored_file_changes`: every detected change of a file's content (the hash before and
 *   after), kept until the file is removed, at most MAX_FILE_CHANGES_KEPT per file.
 * - `file_path_tests`: "does this path exist and can the agent read it?" questions waiting for
 *   (or answered by) the server's agent.
 * Every row carries `customer_id`; removing a server or a customer removes its rows.
 */
export const monitoredFiles: Migration = {
  async up(db: Kysely<unknown>) {
    const t = ddl(db);

    await t
      .id(db.schema.createTable('monitored_files'))
      .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id').onDelete('cascade'))
      .addColumn('server_id', 'integer', (c) => c.notNull().references('servers.id').onDelete('cascade'))
      .addColumn('path', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
      .addColumn('baseline_sha256', 'text')
      .addColumn('sha256', 'text')
      .addColumn('size', 'bigint')
      .addColumn('mtime', 'bigint')
      .addColumn('error', 'text')
      .addColumn('last_checked_at', 'bigint')
      .addColumn('changed_at', 'bigint')
      .addColumn('baseline_at', 'bigint')
      .addColumn('baseline_by', 'integer')
      .addColumn('created_by', 'integer')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('monitored_files_server_path', ['server_id', 'path'])
      .execute();
    await db.schema
      .createIndex('monitored_files_customer_id')
      .on('monitored_files')
      .column('customer_id')
      .execute();

    await t
      .id(db.schema.createTable('monitored_file_changes'))
      .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id').onDelete('cascade'))
      .addColumn('file_id', 'integer', (c) =>
        c.notNull().references('monitored_files.id').onDelete('cascade'),
      )
      .addColumn('detected_at', 'bigint', (c) => c.notNull())
      .addColumn('previous_sha256', 'text')
      .addColumn('sha256', 'text', (c) => c.notNull())
      .addColumn('size', 'bigint')
      .addColumn('mtime', 'bigint')
      .addColumn('accepted_at', 'bigint')
      .addColumn('accepted_by', 'integer')
      .execute();
    await db.schema
      .createIndex('monitored_file_changes_file_id')
      .on('monitored_file_changes')
      .columns(['file_id', 'id'])
      .execute();

    await t
      .id(db.schema.createTable('file_path_tests'))
      .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id').onDelete('cascade'))
      .addColumn('server_id', 'integer', (c) => c.notNull().references('servers.id').onDelete('cascade'))
      .addColumn('path', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
      .addColumn('reason', 'text')
      .addColumn('message', 'text')
      .addColumn('size', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('answered_at', 'bigint')
      .execute();
    await db.schema
      .createIndex('file_path_tests_server_status')
      .on('file_path_tests')
      .columns(['server_id', 'status'])
      .execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('file_path_tests').execute();
    await db.schema.dropTable('monitored_file_changes').execute();
    await db.schema.dropTable('monitored_files').execute();
  },
};
