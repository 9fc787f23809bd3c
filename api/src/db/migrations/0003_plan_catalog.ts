import type { Generated, Kysely, Migration } from 'kysely';

/**
 * The plan catalogue: Freemium, Standard and Enterprise, seeded idempotently, and the columns the
 * catalogue needs on `plans`:
 * - `code`: the catalogue's stable key (`freemium`, `standard`, `enterprise`); null for plans made
 *   by hand. Unique (both engines allow many NULLs in a unique index).
 * - `description`: one line for the plan-gated overlay.
 * - `max_flashback_days`: how far back the period picker may go; null = unlimited.
 *
 * Limits keep the rule of 0001: null means unlimited, never a large number.
 *
 * A plan already named like a catalogue plan but without a code (the sign-up's "Freemium", or the
 * "Enterprise" the first start created before this migration) is adopted and updated in place, so
 * customers on it keep their plan and nothing is duplicated. The data is written out here, not
 * imported, so the migration stays what it was when it shipped.
 */

const COCKPIT = [
  'avaiability',
  'capacity',
  'files_criticals',
  'inbound_ip',
  'insight_hub',
  'inventory',
  'master_warning',
  'situational_awareness',
  'spam_check',
  'url_monitor',
  'connection_inspector',
  'devices',
];
const COPILOT = ['advisor', 'health_check', 'query_performance', 'storage_trends', 'capacity_report'];
const AUTOPILOT = ['business_engine', 'history', 'scheduler'];
const DBA_TOOLKIT = [
  'dictionary',
  'flashback',
  'query_catalog',
  'query_performance',
  'setup_control',
  'thread_radar',
  'assessment_consultancy',
  'data_growth',
  'database_capacity',
  'sql_runner',
];
const FLASHBACK = ['alerts', 'database', 'infrastructure'];
const INFRASTRUCTURE = ['flashback', 'network', 'storage'];
const MANAGEMENT = ['alerts', 'maintenance', 'thresholds', 'user_access', 'escalation'];
const REPORTS = ['reports'];
const SECURITY = ['audit_user', 'patch_analyses', 'patch_management'];
const MANAGEMENTS = ['about', 'metrics', 'plans', 'services_plans', 'profile'];

const ALL_SERVICES = [
  'linux',
  'windows',
  'docker',
  'mysql',
  'postgresql',
  'mssql',
  'oracle',
  'mongodb',
  'redis',
  'nginx',
  'url',
];

/** `{a: 1, b: 1}` from `['a', 'b']`: the pages of a section the plan grants. */
function pages(names: readonly string[]): Record<string, 1> {
  return Object.fromEntries(names.map((n) => [n, 1 as const]));
}

/** Menu item names of `plan_config.product_permition`, 1 shown or 0 hidden. */
function products(hidden: readonly string[]): Record<string, 0 | 1> {
  const names = [
    'cockpit',
    'copilot',
    'autopilot',
    'dba_toolkit',
    'flashback',
    'infrastructure',
    'management',
    'reports',
    'security',
    'services',
    'apm',
    'tower_control',
    'managements',
    'about',
  ];
  return Object.fromEntries(names.map((n) => [n, hidden.includes(n) ? 0 : 1]));
}

interface CataloguePlan {
  code: string;
  name: string;
  description: string;
  is_freemium: 0 | 1;
  lifetime_days: number | null;
  user_limit: number | null;
  min_servers: number;
  max_servers: number | null;
  max_services: number | null;
  data_retention_days: number | null;
  concurrent_sessions: number | null;
  max_flashback_days: number | null;
  price: number;
  instance_quantity: number | null;
  resources: unknown;
  product_permissions: Record<string, 0 | 1>;
  deploy_permissions: { agent: 0 | 1; agentless: 0 | 1 };
}

export const PLAN_CATALOGUE: readonly CataloguePlan[] = [
  {
    code: 'freemium',
    name: 'Freemium',
    description:
      '14-day trial: the cockpit, flashbacks and alerts for a few Linux, Windows or database hosts.',
    is_freemium: 1,
    lifetime_days: 14,
    user_limit: 3,
    min_servers: 0,
    max_servers: 3,
    max_services: 5,
    data_retention_days: 7,
    concurrent_sessions: 2,
    max_flashback_days: 7,
    price: 0,
    instance_quantity: 3,
    resources: {
      flightdeck: {
        cockpit: pages([
          'avaiability',
          'capacity',
          'inventory',
          'master_warning',
          'situational_awareness',
          'url_monitor',
        ]),
        flashback: pages(['alerts', 'infrastructure']),
        infrastructure: pages(['network', 'storage']),
        management: pages(['alerts', 'maintenance', 'thresholds', 'user_access']),
      },
      managements: pages(MANAGEMENTS),
      service: ['linux', 'windows', 'docker', 'mysql', 'postgresql', 'url'],
      apm: 0,
      tower_control: 0,
    },
    product_permissions: products([
      'copilot',
      'autopilot',
      'dba_toolkit',
      'security',
      'apm',
      'tower_control',
    ]),
    deploy_permissions: { agent: 1, agentless: 0 },
  },
  {
    code: 'standard',
    name: 'Standard',
    description: 'Every monitoring screen, DBA toolkit and reports for a growing team.',
    is_freemium: 0,
    lifetime_days: null,
    user_limit: 25,
    min_servers: 1,
    max_servers: 50,
    max_services: 150,
    data_retention_days: 90,
    concurrent_sessions: 10,
    max_flashback_days: 90,
    price: 49,
    instance_quantity: 50,
    resources: {
      flightdeck: {
        cockpit: pages(COCKPIT),
        copilot: pages(COPILOT),
        dba_toolkit: pages(DBA_TOOLKIT),
        flashback: pages(FLASHBACK),
        infrastructure: pages(INFRASTRUCTURE),
        management: pages(MANAGEMENT),
        reports: pages(REPORTS),
      },
      managements: pages(MANAGEMENTS),
      service: ALL_SERVICES,
      apm: 0,
      tower_control: 0,
    },
    product_permissions: products(['autopilot', 'security', 'apm', 'tower_control']),
    deploy_permissions: { agent: 1, agentless: 1 },
  },
  {
    code: 'enterprise',
    name: 'Enterprise',
    description: 'Everything, without limits: APM, security, autopilot and tower control tickets.',
    is_freemium: 0,
    lifetime_days: null,
    user_limit: null,
    min_servers: 0,
    max_servers: null,
    max_services: null,
    data_retention_days: null,
    concurrent_sessions: null,
    max_flashback_days: null,
    price: 199,
    instance_quantity: null,
    resources: {
      flightdeck: {
        cockpit: pages(COCKPIT),
        copilot: pages(COPILOT),
        autopilot: pages(AUTOPILOT),
        dba_toolkit: pages(DBA_TOOLKIT),
        flashback: pages(FLASHBACK),
        infrastructure: pages(INFRASTRUCTURE),
        management: pages(MANAGEMENT),
        reports: pages(REPORTS),
        security: pages(SECURITY),
      },
      managements: pages(MANAGEMENTS),
      service: ALL_SERVICES,
      apm: 1,
      tower_control: 1,
    },
    product_permissions: products([]),
    deploy_permissions: { agent: 1, agentless: 1 },
  },
];

/** The shape of `plans` this migration reads and writes. */
interface PlanRow {
  id: Generated<number>;
  code: string | null;
  name: string;
  description: string | null;
  is_freemium: number;
  lifetime_days: number | null;
  user_limit: number | null;
  min_servers: number;
  max_servers: number | null;
  max_services: number | null;
  data_retention_days: number | null;
  concurrent_sessions: number | null;
  max_flashback_days: number | null;
  price: number;
  instance_quantity: number | null;
  resources: string;
  product_permissions: string;
  deploy_permissions: string;
  created_at: number;
}

function rowOf(plan: CataloguePlan) {
  return {
    ...plan,
    resources: JSON.stringify(plan.resources),
    product_permissions: JSON.stringify(plan.product_permissions),
    deploy_permissions: JSON.stringify(plan.deploy_permissions),
  };
}

export const planCatalog: Migration = {
  async up(raw: Kysely<unknown>) {
    await raw.schema.alterTable('plans').addColumn('code', 'text').execute();
    await raw.schema.alterTable('plans').addColumn('description', 'text').execute();
    await raw.schema.alterTable('plans').addColumn('max_flashback_days', 'integer').execute();
    await raw.schema.createIndex('plans_code').unique().on('plans').column('code').execute();
    await seedPlanCatalogue(raw);
  },

  async down(raw: Kysely<unknown>) {
    // Catalogue rows stay: customers reference them.
    await raw.schema.dropIndex('plans_code').execute();
    await raw.schema.alterTable('plans').dropColumn('max_flashback_days').execute();
    await raw.schema.alterTable('plans').dropColumn('description').execute();
    await raw.schema.alterTable('plans').dropColumn('code').execute();
  },
};

/**
 * Writes the catalogue: each plan found by code, else adopted by name (case-insensitive, a plan
 * without code), else inserted. Running it again changes nothing.
 */
export async function seedPlanCatalogue(raw: Kysely<unknown>): Promise<void> {
  const db = raw as unknown as Kysely<{ plans: PlanRow }>;
  for (const plan of PLAN_CATALOGUE) {
    const values = rowOf(plan);
    const existing =
      (await db.selectFrom('plans').select('id').where('code', '=', plan.code).executeTakeFirst()) ??
      (await db
        .selectFrom('plans')
        .select('id')
        .where('code', 'is', null)
        .where((eb) => eb(eb.fn('lower', ['name']), '=', plan.name.toLowerCase()))
        .orderBy('id')
        .executeTakeFirst());
    if (existing) {
      await db.updateTable('plans').set(values).where('id', '=', existing.id).execute();
    } else {
      await db
        .insertInto('plans')
        .values({ ...values, created_at: Math.floor(Date.now() / 1000) })
        .execute();
    }
  }
}
