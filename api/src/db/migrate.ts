import { type MigrationResultSet, Migrator } from 'kysely';
import type { Db } from './kysely';
import { initial } from './migrations/0001_initial';
import { authCodes } from './migrations/0002_auth_codes';
import { planCatalog } from './migrations/0003_plan_catalog';
import { hosts } from './migrations/0004_hosts';
import { monitoredFiles } from './migrations/0005_monitored_files';
import { agentInstalls } from './migrations/0006_agent_installs';
import { agentlessServices } from './migrations/0007_agentless_services';
import { alerts } from './migrations/0008_alerts';
import { maintenance } from './migrations/0009_maintenance';
import { integrations } from './migrations/0010_integrations';
import { escalation } from './migrations/0011_escalation';
import { alertMutes } from './migrations/0012_alert_mutes';
import { alertDynamic } from './migrations/0013_alert_dynamic';

/**
 * Every migration, in order. A static object rather than a folder scan, so the bundled start
 * script carries them. Add new ones at the end; never edit one that has shipped.
 */
export const migrations = {
  '0001_initial': initial,
  '0002_auth_codes': authCodes,
  '0003_plan_catalog': planCatalog,
  '0004_hosts': hosts,
  '0005_monitored_files': monitoredFiles,
  '0006_agent_installs': agentInstalls,
  '0007_agentless_services': agentlessServices,
  '0008_alerts': alerts,
  '0009_maintenance': maintenance,
  '0010_integrations': integrations,
  '0011_escalation': escalation,
  '0012_alert_mutes': alertMutes,
  '0013_alert_dynamic': alertDynamic,
};

/** A migration that failed, with the name of the step. */
export class MigrationError extends Error {
  constructor(
    readonly migration: string | undefined,
    override readonly cause: unknown,
  ) {
    super(
      `metadata DB migration ${migration ?? '(unknown)'} failed: ${cause instanceof Error ? cause.message : String(cause)}`,
    );
    this.name = 'MigrationError';
  }
}

/**
 * Brings the schema up to date (both engines, same migrations). Returns the names applied now;
 * an up-to-date database gives an empty list. Concurrent starts are serialised by Kysely's lock.
 */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results }: MigrationResultSet = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new MigrationError(failed?.migrationName, error);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
