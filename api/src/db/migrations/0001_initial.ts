import { type Kysely, type Migration, sql } from 'kysely';
import { ddl } from './columns';

/** Plans, customers, users and their preferences, sessions, servers and services. */
export const initial: Migration = {
  async up(db: Kysely<unknown>) {
    const t = ddl(db);

    await t
      .id(db.schema.createTable('plans'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('is_freemium', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('lifetime_days', 'integer')
      .addColumn('user_limit', 'integer')
      .addColumn('min_servers', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('max_servers', 'integer')
      .addColumn('max_services', 'integer')
      .addColumn('data_retention_days', 'integer')
      .addColumn('concurrent_sessions', 'integer')
      .addColumn('price', t.float, (c) => c.notNull().defaultTo(0))
      .addColumn('instance_quantity', 'integer')
      .addColumn('resources', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('product_permissions', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('deploy_permissions', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();

    await t
      .id(db.schema.createTable('customers'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('company_code', 'text')
      .addColumn('email', 'text')
      .addColumn('address', 'text')
      .addColumn('complement', 'text')
      .addColumn('zip_code', 'text')
      .addColumn('country', 'text')
      .addColumn('city', 'text')
      .addColumn('plan_id', 'integer', (c) => c.notNull().references('plans.id'))
      .addColumn('status', 'text', (c) =>
        c.notNull().defaultTo('active').check(sql`status in ('active', 'suspended', 'canceled')`),
      )
      .addColumn('subscription_id', 'text')
      .addColumn('trial_cycle', 'integer')
      .addColumn('next_payment', 'bigint')
      .addColumn('cancel_date', 'bigint')
      .addColumn('cycles', 'integer')
      .addColumn('register_in', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();

    await t
      .id(db.schema.createTable('users'))
      .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id').onDelete('cascade'))
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('password_hash', 'text')
      .addColumn('timezone_code', 'text', (c) => c.notNull().defaultTo('UTC'))
      .addColumn('picture', 'text')
      .addColumn('is_admin', 'text', (c) => c.notNull().defaultTo('0').check(sql`is_admin in ('0', '1')`))
      .addColumn('role_code', 'integer', (c) => c.notNull().defaultTo(5))
      .addColumn('locale', 'text', (c) => c.notNull().defaultTo('en'))
      .addColumn('phone', 'text')
      .addColumn('type', 'text')
      .addColumn('team_level', 'integer')
      .addColumn('permission_level', 'integer')
      .addColumn('status', 'text', (c) =>
        c.notNull().defaultTo('ACTIVE').check(sql`status in ('ACTIVE', 'REMOVED', 'BLOCKED')`),
      )
      .addColumn('last_login', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('users_customer_id').on('users').column('customer_id').execute();

    await db.schema
      .createTable('user_preferences')
      .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('preference', 'text', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('user_preferences_pk', ['user_id', 'preference'])
      .execute();
    await db.schema
      .createIndex('user_preferences_customer_id')
      .on('user_preferences')
      .column('customer_id')
      .execute();

    await t
      .id(db.schema.createTable('sessions'))
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id').onDelete('cascade'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
      .addColumn('revoked_at', 'bigint')
      .addColumn('ip', 'text')
      .addColumn('user_agent', 'text')
      .execute();
    await db.schema.createIndex('sessions_customer_id').on('sessions').column('customer_id').execute();
    await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();

    await t
      .id(db.schema.createTable('servers'))
      .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id').onDelete('cascade'))
      .addColumn('host_key', 'text', (c) => c.notNull())
      .addColumn('hostname', 'text', (c) => c.notNull())
      .addColumn('name', 'text')
      .addColumn('type', 'text')
      .addColumn('version', 'text')
      .addColumn('vendor', 'text')
      .addColumn('environment', 'text', (c) => c.check(sql`environment in ('prd', 'hmg', 'stg', 'dsv')`))
      .addColumn('os', 'text')
      .addColumn('port', 'integer')
      .addColumn('cores', 'integer')
      .addColumn('memory_bytes', 'bigint')
      .addColumn('swap_bytes', 'bigint')
      .addColumn('architecture', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_seen_at', 'bigint')
      .addUniqueConstraint('servers_customer_host_key', ['customer_id', 'host_key'])
      .execute();
    await db.schema.createIndex('servers_customer_id').on('servers').column('customer_id').execute();

    await t
      .id(db.schema.createTable('services'))
      .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id').onDelete('cascade'))
      .addColumn('server_id', 'integer', (c) => c.notNull().references('servers.id').onDelete('cascade'))
      .addColumn('service_code', 'text', (c) => c.notNull())
      .addColumn('name', 'text')
      .addColumn('config', 'text')
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
      .addColumn('interval_s', 'integer', (c) => c.notNull().defaultTo(60))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('services_customer_id').on('services').column('customer_id').execute();
    await db.schema.createIndex('services_server_id').on('services').column('server_id').execute();
  },

  async down(db: Kysely<unknown>) {
    for (const table of [
      'services',
      'servers',
      'sessions',
      'user_preferences',
      'users',
      'customers',
      'plans',
    ]) {
      await db.schema.dropTable(table).execute();
    }
  },
};
