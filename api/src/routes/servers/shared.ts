import type { LatestSample, MetricStore } from '@flightdeck/collector/store';
import type { ServerDetail, ServerPlatform, ServerStatus, ServerSummary } from '@flightdeck/schemas';
import { SERVER_PLATFORMS } from '@flightdeck/schemas';
import { unixNow } from '../../clock';
import type { Db } from '../../db/kysely';
import { getServer } from '../../db/queries/servers';
import type { Server, Service } from '../../db/types';
import { ApiError } from '../../errors';
import { HOST_WRITE_INTERVAL_MS } from '../../hosts/registry';

/** Sampling interval assumed for a server whose agent has not said. */
export const DEFAULT_INTERVAL_S = 60;

/** The customer's server, or 404: another customer's id looks exactly like a missing one. */
export async function serverOr404(db: Db, customerId: number, id: number): Promise<Server> {
  const server = await getServer(db, customerId, id);
  if (!server) throw ApiError.of('not_found', 'This server could not be found.');
  return server;
}

/**
 * `down` once three heartbeats are missed (or none came). `last_seen_at` is written at most every
 * HOST_WRITE_INTERVAL_MS, so the stored time may lag that much behind the last heartbeat.
 */
export function serverStatus(server: Server, now = unixNow()): ServerStatus {
  if (server.last_seen_at === null) return 'down';
  const interval = server.interval_s ?? DEFAULT_INTERVAL_S;
  return now - server.last_seen_at > 3 * interval + HOST_WRITE_INTERVAL_MS / 1000 ? 'down' : 'up';
}

function platformOf(value: string | null): ServerPlatform | null {
  return value !== null && (SERVER_PLATFORMS as readonly string[]).includes(value)
    ? (value as ServerPlatform)
    : null;
}

export function toSummary(server: Server, services: readonly Service[], now = unixNow()): ServerSummary {
  return {
    id: server.id,
    name: server.name ?? server.hostname,
    hostname: server.hostname,
    host_key: server.host_key,
    platform: platformOf(server.platform),
    os: server.os,
    environment: server.environment,
    last_seen_at: server.last_seen_at,
    status: serverStatus(server, now),
    services: services
      .filter((s) => s.server_id === server.id)
      .map((s) => ({ id: s.id, service_code: s.service_code, name: s.name })),
  };
}

export function ipsOf(server: Server): string[] {
  if (!server.ips) return [];
  try {
    const parsed: unknown = JSON.parse(server.ips);
    return Array.isArray(parsed) ? parsed.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

export function toDetail(server: Server, services: readonly Service[]): ServerDetail {
  return {
    ...toSummary(server, services),
    os_version: server.os_version,
    kernel: server.kernel,
    architecture: server.architecture,
    cores: server.cores,
    memory_bytes: server.memory_bytes === null ? null : Number(server.memory_bytes),
    swap_bytes: server.swap_bytes === null ? null : Number(server.swap_bytes),
    ips: ipsOf(server),
    containerized: server.containerized === 1,
    agent_version: server.agent_version,
    interval_s: server.interval_s,
    type: server.type,
    version: server.version,
    vendor: server.vendor,
    port: server.port,
    created_at: Number(server.created_at),
  };
}

/** The newest samples of `metrics` on the server's host (its tenant is the customer id). */
export function latestOf(
  store: MetricStore,
  server: Server,
  metrics: readonly string[],
  service?: string,
): Promise<LatestSample[]> {
  return store.latest({
    tenant: String(server.customer_id),
    host: server.host_key,
    metric: metrics,
    ...(service !== undefined ? { service } : {}),
  });
}

/** Latest values of series without labels, by metric (the whole host). */
export function hostValues(samples: readonly LatestSample[]): Map<string, LatestSample> {
  const out = new Map<string, LatestSample>();
  for (const s of samples) {
    if (Object.keys(s.labels).length > 0) continue;
    const prev = out.get(s.metric);
    if (!prev || s.ts > prev.ts) out.set(s.metric, s);
  }
  return out;
}

/** Latest values grouped by one label (mount, device, interface), then by metric; sorted by label. */
export function byLabel(samples: readonly LatestSample[], label: string): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  for (const s of samples) {
    const key = s.labels[label];
    if (key === undefined) continue;
    let metrics = out.get(key);
    if (!metrics) {
      metrics = new Map();
      out.set(key, metrics);
    }
    metrics.set(s.metric, s.value);
  }
  return new Map([...out].sort(([a], [b]) => a.localeCompare(b)));
}
