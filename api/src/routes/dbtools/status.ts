import { type MetricStore, seriesField } from '@flightdeck/collector/store';
import {
  type CollectorPresence,
  ERROR_FALLBACK_MESSAGES,
  metricsForChart,
  POLLER_SERVICES,
  PollerFailureCode,
  type ServiceStatusData,
  type SnoopInfoData,
  type SnoopService,
} from '@flightdeck/schemas';
import { ownerOf } from '../../agentless/coordinator';
import type { Db } from '../../db/kysely';
import type { Service } from '../../db/types';
import { ALL_CATALOGUE_METRICS } from '../../hosts/graphs';
import { plainConfig, type ServiceRow, targetOf, withoutCredentials } from './inspect';

/** Figures older than this are left out of the status tiles. */
export const FIGURES_WINDOW_MS = 15 * 60_000;
/** Intervals without a sample after which an available service is no longer known to be up. */
const STALE_INTERVALS = 3;
/** Slack for the first poll's random offset and a slow poll. */
const STALE_GRACE_MS = 30_000;

const UPTIME_METRICS = metricsForChart('service_uptime').map((m) => m.name);

/** The poller's own words from a stored `last_error` (`<code>: <message>`). */
export function pollerMessage(lastError: string | null): string | null {
  if (!lastError) return null;
  const text = withoutCredentials(lastError);
  const m = /^([a-z_]+): ?([\s\S]*)$/.exec(text);
  const code = PollerFailureCode.safeParse(m?.[1]);
  if (!m || !code.success) return text;
  return m[2] || ERROR_FALLBACK_MESSAGES[code.data];
}

/**
 * The status tiles of an agentless service: the availability its collector reported, checked
 * against the age of its newest sample (a collector that stopped reports nothing), and the newest
 * value of each of its series from the last {@link FIGURES_WINDOW_MS}. Series with labels are
 * keyed as the chart contract names them (`pg.database_size_bytes{database=app}`).
 */
export async function serviceStatus(
  store: MetricStore,
  service: ServiceRow,
  now = Date.now(),
): Promise<ServiceStatusData> {
  const samples = await store.latest({
    tenant: String(service.customer_id),
    host: service.host_key,
    service: service.service_code,
    metric: ALL_CATALOGUE_METRICS,
  });
  let newest: number | null = null;
  const figures: Record<string, number> = {};
  for (const s of samples) {
    newest = newest === null ? s.ts : Math.max(newest, s.ts);
    if (s.ts >= now - FIGURES_WINDOW_MS) figures[seriesField(s.metric, s.labels)] = s.value;
  }
  const uptime = UPTIME_METRICS.map((m) => figures[m]).find((v) => v !== undefined);
  const staleAfter = STALE_INTERVALS * service.interval_s * 1000 + STALE_GRACE_MS;
  let status: ServiceStatusData['status'];
  let message: string | null;
  if (service.availability === 'unavailable') {
    status = 'down';
    message = pollerMessage(service.last_error);
  } else if (service.availability === null) {
    status = 'unknown';
    message = 'No collector has polled this service yet.';
  } else if (newest === null || now - newest > staleAfter) {
    status = 'unknown';
    message = `No sample for over ${Math.round(staleAfter / 60_000) || 1} minutes: check that a collector is running.`;
  } else {
    status = 'up';
    message = null;
  }
  return {
    id: service.id,
    server_id: service.server_id,
    service: service.service_code,
    name: service.name,
    target: targetOf(plainConfig(service)),
    status,
    message,
    last_sample_ts: newest,
    version: service.server_version,
    uptime_s: uptime ?? null,
    interval_s: service.interval_s,
    figures,
  };
}

function snoopService(row: Service): SnoopService {
  return {
    id: row.id,
    server_id: row.server_id,
    service: row.service_code,
    name: row.name,
    target: targetOf(plainConfig(row)),
    availability: row.availability,
    availability_since: row.availability_since === null ? null : Number(row.availability_since),
    last_error: row.last_error === null ? null : withoutCredentials(row.last_error),
  };
}

/**
 * The live collectors and which of the customer's agentless services each polls, by the same
 * rendezvous hashing the coordinator assigns them with: within each group of collectors, the one
 * with the highest weight for a service polls it. Only the customer's services are listed.
 */
export async function snoopInfo(
  db: Db,
  customerId: number,
  live: readonly CollectorPresence[],
): Promise<SnoopInfoData> {
  const rows = await db
    .selectFrom('services')
    .innerJoin('servers', 'servers.id', 'services.server_id')
    .selectAll('services')
    .where('services.customer_id', '=', customerId)
    .where('servers.customer_id', '=', customerId)
    .where('services.status', '=', 'active')
    .where('services.config', 'is not', null)
    .where('services.service_code', 'in', POLLER_SERVICES)
    .orderBy('services.id')
    .execute();
  const collectors = [...live]
    .sort((a, b) => a.worker.localeCompare(b.worker) || a.id.localeCompare(b.id))
    .map((p) => ({ ...p, services: [] as SnoopService[] }));
  const groups = new Map<string, string[]>();
  for (const p of collectors) groups.set(p.worker, [...(groups.get(p.worker) ?? []), p.id]);
  const unassigned: SnoopService[] = [];
  for (const row of rows) {
    const service = snoopService(row);
    if (groups.size === 0) unassigned.push(service);
    for (const ids of groups.values()) {
      const owner = ownerOf(row.id, ids);
      collectors.find((p) => p.id === owner)?.services.push(service);
    }
  }
  return { collectors, unassigned };
}
