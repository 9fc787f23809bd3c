import type { ReplicationStatus } from '@flightdeck/schemas';
import type { PollSample } from './contract';

/**
 * Always On availability groups as sys.dm_hadr_database_replica_states shows them: the replication
 * status of the extras and the samples of the SQL Server poller.
 */

/** One database replica of an availability group (sys.dm_hadr_database_replica_states). */
export interface MssqlReplicaRow {
  group: string;
  replica: string;
  availability_mode: string | null;
  role: string | null;
  connected_state: string | null;
  is_local: boolean;
  is_primary: boolean;
  database: string | null;
  synchronization_state: string | null;
  synchronization_health: string | null;
  suspended: boolean;
  suspend_reason: string | null;
  log_send_queue_bytes: number | null;
  redo_queue_bytes: number | null;
  lag_s: number | null;
  primary_replica: string | null;
}

const SYNC_RANK: Record<string, number> = {
  'NOT SYNCHRONIZING': 0,
  REVERTING: 1,
  INITIALIZING: 2,
  SYNCHRONIZING: 3,
  SYNCHRONIZED: 4,
};

/** The least synchronized state of some database replicas. */
function worstState(rows: readonly MssqlReplicaRow[]): string | null {
  let worst: string | null = null;
  for (const r of rows) {
    const state = r.synchronization_state;
    if (state && (worst === null || (SYNC_RANK[state] ?? -1) < (SYNC_RANK[worst] ?? -1))) worst = state;
  }
  return worst;
}

function maxOf(values: readonly (number | null)[]): number | null {
  const known = values.filter((v): v is number => v !== null);
  return known.length > 0 ? Math.max(...known) : null;
}

/** A local database replica that is not healthy or whose data movement is suspended. */
export function unhealthyReplica(r: MssqlReplicaRow): boolean {
  return r.suspended || (r.synchronization_health !== null && r.synchronization_health !== 'HEALTHY');
}

/** Remote replicas by name, as a primary sees them. */
function remoteReplicas(rows: readonly MssqlReplicaRow[]): Map<string, MssqlReplicaRow[]> {
  const by = new Map<string, MssqlReplicaRow[]>();
  for (const r of rows) if (!r.is_local) by.set(r.replica, [...(by.get(r.replica) ?? []), r]);
  return by;
}

/** Always On figures: secondaries and lag on a primary, lag on a secondary, unhealthy databases. */
export function replicaSamples(rows: readonly MssqlReplicaRow[]): PollSample[] {
  const local = rows.filter((r) => r.is_local);
  const primary = local.some((r) => r.is_primary);
  const s: PollSample[] = [{ m: 'mssql.ag_databases_not_healthy', v: local.filter(unhealthyReplica).length }];
  if (!primary) {
    s.push({ m: 'mssql.replicas', v: 0 });
    const lag = maxOf(local.map((r) => r.lag_s));
    if (local.length > 0 && lag !== null) s.push({ m: 'mssql.replication_lag', v: lag });
    return s;
  }
  const remote = remoteReplicas(rows);
  s.push({ m: 'mssql.replicas', v: remote.size });
  for (const [name, dbs] of remote) {
    const lag = maxOf(dbs.map((r) => r.lag_s));
    if (lag !== null) s.push({ m: 'mssql.replica_lag', l: { replica: name }, v: lag });
    const queue = dbs.reduce((sum, r) => sum + (r.log_send_queue_bytes ?? 0) + (r.redo_queue_bytes ?? 0), 0);
    s.push({ m: 'mssql.replica_queue_bytes', l: { replica: name }, v: queue });
  }
  return s;
}

/** Always On as the reading shows it; `standalone` without availability group databases. */
export function mssqlReplication(rows: readonly MssqlReplicaRow[] | null | undefined): ReplicationStatus {
  const local = (rows ?? []).filter((r) => r.is_local);
  const suspended = local.find((r) => r.suspended);
  const unhealthy = local.find(unhealthyReplica);
  const lastError = suspended
    ? `${suspended.database ?? 'a database'}: data movement suspended (${suspended.suspend_reason ?? 'no reason given'})`
    : unhealthy
      ? `${unhealthy.database ?? 'a database'}: ${unhealthy.synchronization_health}`
      : null;
  if (local.length === 0) {
    return { role: 'standalone', state: null, lag_s: null, source: null, last_error: null, replicas: [] };
  }
  if (!local.some((r) => r.is_primary)) {
    return {
      role: 'replica',
      state: worstState(local),
      lag_s: maxOf(local.map((r) => r.lag_s)),
      source: local.find((r) => r.primary_replica)?.primary_replica ?? null,
      last_error: lastError,
      replicas: [],
    };
  }
  const replicas = [...remoteReplicas(rows ?? [])].map(([name, dbs]) => ({
    name,
    address: null,
    state: dbs[0]?.connected_state === 'DISCONNECTED' ? 'DISCONNECTED' : worstState(dbs),
    sync_state: dbs[0]?.availability_mode ?? null,
    lag_s: maxOf(dbs.map((r) => r.lag_s)),
    lag_bytes: dbs.reduce((sum, r) => sum + (r.log_send_queue_bytes ?? 0) + (r.redo_queue_bytes ?? 0), 0),
  }));
  return { role: 'primary', state: null, lag_s: null, source: null, last_error: lastError, replicas };
}
