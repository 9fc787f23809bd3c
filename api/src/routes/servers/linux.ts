import {
  type BlockStatusData,
  type DiskStatusData,
  type DisksData,
  type LinuxStatusData,
  type NetworkStatusData,
  type OkEnvelope,
  type ProcessStatusData,
  ServerIdRequest,
  type ServerVariablesData,
} from '@flightdeck/schemas';
import { Hono } from 'hono';
import { requireSession } from '../../auth/middleware';
import type { Server } from '../../db/types';
import type { AppDeps, AppEnv } from '../../env';
import { topProcesses } from '../../hosts/registry';
import { jsonBody } from '../../http/body';
import { byLabel, hostValues, ipsOf, latestOf, serverOr404, serverStatus } from './shared';

function ok<T>(data: T): OkEnvelope<T> {
  return { status: 'ok', data };
}

const STATUS_METRICS = [
  'cpu.total',
  'cpu.user',
  'cpu.system',
  'cpu.iowait',
  'cpu.steal',
  'cpu.idle',
  'load.1m',
  'load.5m',
  'load.15m',
  'mem.used_bytes',
  'mem.total_bytes',
  'mem.available_bytes',
  'mem.used_pct',
  'swap.used_bytes',
  'swap.total_bytes',
  'swap.used_pct',
  'system.uptime',
] as const;

const DISK_METRICS = [
  'disk.size_bytes',
  'disk.used_bytes',
  'disk.free_bytes',
  'disk.used_pct',
  'disk.inodes_total',
  'disk.inodes_used',
  'disk.inodes_used_pct',
] as const;

const NET_METRICS = [
  'net.rx_bytes_rate',
  'net.tx_bytes_rate',
  'net.rx_packets_rate',
  'net.tx_packets_rate',
  'net.rx_errors_rate',
  'net.tx_errors_rate',
  'net.rx_drops_rate',
  'net.tx_drops_rate',
] as const;

const BLOCK_METRICS = [
  'disk_io.read_ops_rate',
  'disk_io.write_ops_rate',
  'disk_io.read_bytes_rate',
  'disk_io.write_bytes_rate',
  'disk_io.busy_pct',
] as const;

/** `{metric: value}` of the names given (dots as the part after the prefix), null where absent. */
function pick<const M extends readonly string[]>(values: ReadonlyMap<string, number>, metrics: M) {
  const out: Record<string, number | null> = {};
  for (const m of metrics) out[m.slice(m.indexOf('.') + 1)] = values.get(m) ?? null;
  return out as { [K in M[number] as K extends `${string}.${infer R}` ? R : K]: number | null };
}

/** The inventory of a server as the name/value pairs `get_variables` lists; unknown values left out. */
function variablesOf(server: Server): ServerVariablesData {
  const pairs: [string, string | number | null][] = [
    ['hostname', server.hostname],
    ['host_key', server.host_key],
    ['platform', server.platform],
    ['os', server.os],
    ['os_version', server.os_version],
    ['kernel', server.kernel],
    ['architecture', server.architecture],
    ['cores', server.cores],
    ['memory_bytes', server.memory_bytes],
    ['swap_bytes', server.swap_bytes],
    ['ips', ipsOf(server).join(', ') || null],
    ['containerized', server.containerized === null ? null : server.containerized ? 'yes' : 'no'],
    ['environment', server.environment],
    ['agent_version', server.agent_version],
    ['interval_s', server.interval_s],
  ];
  return pairs.filter(([, v]) => v !== null && v !== '').map(([name, v]) => ({ name, value: String(v) }));
}

/**
 * `/services_monitored/linux/*` (spec section 7): the current state of a host, from the newest
 * samples in the metric store and the last heartbeat's top processes. Session; the customer's own
 * servers only (404 otherwise).
 */
export function linuxRoutes(deps: AppDeps) {
  const { db, store } = deps;
  const serverOf = (customerId: number, id: number) => serverOr404(db, customerId, id);

  return new Hono<AppEnv>()
    .use('/services_monitored/linux/*', requireSession(db))

    .post('/services_monitored/linux/get_status', jsonBody(ServerIdRequest), async (c) => {
      const server = await serverOf(c.get('session').customerId, c.req.valid('json').id);
      const latest = hostValues(await latestOf(store, server, STATUS_METRICS));
      const v = (m: string) => latest.get(m)?.value ?? null;
      let newest = 0;
      for (const s of latest.values()) newest = Math.max(newest, s.ts);
      return c.json(
        ok<LinuxStatusData>({
          status: serverStatus(server),
          last_seen_at: server.last_seen_at,
          cpu: {
            total_pct: v('cpu.total'),
            user_pct: v('cpu.user'),
            system_pct: v('cpu.system'),
            iowait_pct: v('cpu.iowait'),
            steal_pct: v('cpu.steal'),
            idle_pct: v('cpu.idle'),
          },
          load: { m1: v('load.1m'), m5: v('load.5m'), m15: v('load.15m') },
          memory: {
            used_bytes: v('mem.used_bytes'),
            total_bytes: v('mem.total_bytes'),
            available_bytes: v('mem.available_bytes'),
            used_pct: v('mem.used_pct'),
          },
          swap: {
            used_bytes: v('swap.used_bytes'),
            total_bytes: v('swap.total_bytes'),
            used_pct: v('swap.used_pct'),
          },
          uptime_s: v('system.uptime'),
          sampled_at: newest ? Math.floor(newest / 1000) : null,
        }),
      );
    })

    .post('/services_monitored/linux/get_disk_status', jsonBody(ServerIdRequest), async (c) => {
      const server = await serverOf(c.get('session').customerId, c.req.valid('json').id);
      const mounts = byLabel(await latestOf(store, server, DISK_METRICS), 'mount');
      const data: DiskStatusData = [...mounts].map(([mount, values]) => ({
        mount,
        ...pick(values, DISK_METRICS),
      }));
      return c.json(ok<DiskStatusData>(data));
    })

    .post('/services_monitored/linux/get_disks', jsonBody(ServerIdRequest), async (c) => {
      const server = await serverOf(c.get('session').customerId, c.req.valid('json').id);
      const mounts = byLabel(await latestOf(store, server, ['disk.size_bytes', 'disk.used_pct']), 'mount');
      return c.json(
        ok<DisksData>(
          [...mounts].map(([mount, v]) => ({ mount, size_bytes: v.get('disk.size_bytes') ?? null })),
        ),
      );
    })

    .post('/services_monitored/linux/get_process_status', jsonBody(ServerIdRequest), async (c) => {
      const server = await serverOf(c.get('session').customerId, c.req.valid('json').id);
      const latest = hostValues(
        await latestOf(store, server, ['proc.count', 'proc.running', 'proc.blocked']),
      );
      const top = topProcesses.get(String(server.customer_id), server.host_key);
      return c.json(
        ok<ProcessStatusData>({
          count: latest.get('proc.count')?.value ?? null,
          running: latest.get('proc.running')?.value ?? null,
          blocked: latest.get('proc.blocked')?.value ?? null,
          by_cpu: top?.by_cpu ?? [],
          by_memory: top?.by_memory ?? [],
          ts: top ? Math.floor(top.ts / 1000) : null,
        }),
      );
    })

    .post('/services_monitored/linux/get_network_status', jsonBody(ServerIdRequest), async (c) => {
      const server = await serverOf(c.get('session').customerId, c.req.valid('json').id);
      const samples = await latestOf(store, server, [...NET_METRICS, 'tcp.connections']);
      const interfaces = byLabel(
        samples.filter((s) => s.metric !== 'tcp.connections'),
        'interface',
      );
      const tcp: Record<string, number> = {};
      for (const s of samples) {
        const state = s.labels.state;
        if (s.metric === 'tcp.connections' && state !== undefined) tcp[state] = s.value;
      }
      return c.json(
        ok<NetworkStatusData>({
          interfaces: [...interfaces].map(([name, values]) => ({
            interface: name,
            ...pick(values, NET_METRICS),
          })),
          tcp,
        }),
      );
    })

    .post('/services_monitored/linux/get_system_block_status', jsonBody(ServerIdRequest), async (c) => {
      const server = await serverOf(c.get('session').customerId, c.req.valid('json').id);
      const devices = byLabel(await latestOf(store, server, BLOCK_METRICS), 'device');
      return c.json(
        ok<BlockStatusData>(
          [...devices].map(([device, values]) => ({ device, ...pick(values, BLOCK_METRICS) })),
        ),
      );
    })

    .post('/services_monitored/linux/get_variables', jsonBody(ServerIdRequest), async (c) => {
      const server = await serverOf(c.get('session').customerId, c.req.valid('json').id);
      return c.json(ok<ServerVariablesData>(variablesOf(server)));
    });
}
