import { z } from 'zod';
import { Heartbeat, ProcessSnapshot } from '../wire';

/**
 * Calls of spec section 7, "Servers and services": `/bot/*`, `/services_monitored/linux/*`,
 * `/workers/get_agent_key`, and the agent's HTTP ingest (`/ingest`). All but ingest need a session
 * and answer only the signed-in customer's servers. `data` of each answer is the schema named in
 * its comment; bodies are strict. Times are unix seconds unless a name says otherwise.
 */

/** A server or row id: a positive integer, also accepted as a numeric string. */
export const RowId = z.coerce.number().int().positive();

/** Body of the calls that name one server: `{id}`. */
export const ServerIdRequest = z.object({ id: RowId }).strict();
export type ServerIdRequest = z.infer<typeof ServerIdRequest>;

/** `up` while heartbeats arrive; `down` when the last one is older than 3 × the agent interval. */
export const SERVER_STATUSES = ['up', 'down'] as const;
export const ServerStatus = z.enum(SERVER_STATUSES);
export type ServerStatus = z.infer<typeof ServerStatus>;

/** Host platforms, as the agent's inventory names them. */
export const SERVER_PLATFORMS = ['linux', 'windows', 'darwin', 'other'] as const;
export const ServerPlatform = z.enum(SERVER_PLATFORMS);
export type ServerPlatform = z.infer<typeof ServerPlatform>;

/** One service of a server, as lists show it. */
export const ServerServiceSummary = z
  .object({ id: z.number().int(), service_code: z.string(), name: z.string().nullable() })
  .strict();
export type ServerServiceSummary = z.infer<typeof ServerServiceSummary>;

/** A server in `/bot/servers/list`. `name` is the display name: the server's name or its hostname. */
export const ServerSummary = z
  .object({
    id: z.number().int(),
    name: z.string(),
    hostname: z.string(),
    host_key: z.string(),
    platform: ServerPlatform.nullable(),
    os: z.string().nullable(),
    environment: z.enum(['prd', 'hmg', 'stg', 'dsv']).nullable(),
    /** Unix seconds of the last heartbeat; null before the first. */
    last_seen_at: z.number().int().nullable(),
    status: ServerStatus,
    services: z.array(ServerServiceSummary),
  })
  .strict();
export type ServerSummary = z.infer<typeof ServerSummary>;

/** `POST /bot/servers/list` {} → data. */
export const ServersListData = z.array(ServerSummary);
export type ServersListData = z.infer<typeof ServersListData>;

/** `POST /bot/servers/get` {id} → data: the summary plus the whole inventory. 404 for another customer's id. */
export const ServerDetail = ServerSummary.extend({
  os_version: z.string().nullable(),
  kernel: z.string().nullable(),
  architecture: z.string().nullable(),
  cores: z.number().int().nullable(),
  memory_bytes: z.number().nullable(),
  swap_bytes: z.number().nullable(),
  ips: z.array(z.string()),
  containerized: z.boolean(),
  agent_version: z.string().nullable(),
  /** Seconds between the agent's samples; null before the first heartbeat. */
  interval_s: z.number().int().nullable(),
  type: z.string().nullable(),
  version: z.string().nullable(),
  vendor: z.string().nullable(),
  port: z.number().int().nullable(),
  created_at: z.number().int(),
}).strict();
export type ServerDetail = z.infer<typeof ServerDetail>;

/** Graph categories of the server page, in display order. */
export const GRAPH_CATEGORIES = [
  'cpu',
  'memory',
  'disk',
  'network',
  'system',
  'processes',
  'containers',
  'database',
] as const;
export const GraphCategory = z.enum(GRAPH_CATEGORIES);
export type GraphCategory = z.infer<typeof GraphCategory>;

/** `POST /bot/get_available_server_graphic` body. `service` narrows to one service's series. */
export const AvailableGraphsRequest = z
  .object({ server_id: RowId, service: z.string().min(1).max(128).optional() })
  .strict();
export type AvailableGraphsRequest = z.infer<typeof AvailableGraphsRequest>;

/** A graph the server has data for: a catalogue chart (`graph_id` is the chart id). */
export const ServerGraph = z
  .object({
    graph_id: z.string(),
    title: z.string(),
    category: GraphCategory,
    /** A catalogue unit (`percent`, `bytes`, `per_second`...). */
    unit: z.string(),
  })
  .strict();
export type ServerGraph = z.infer<typeof ServerGraph>;

/** `get_available_server_graphic` → data, in catalogue order. */
export const AvailableGraphsData = z.array(ServerGraph);
export type AvailableGraphsData = z.infer<typeof AvailableGraphsData>;

/** `POST /bot/get_available_server_graphic_by_category` body. */
export const GraphsByCategoryRequest = z.object({ server_id: RowId }).strict();
export type GraphsByCategoryRequest = z.infer<typeof GraphsByCategoryRequest>;

/** `get_available_server_graphic_by_category` → data: category → graphs; empty categories left out. */
export const GraphsByCategoryData = z.record(z.string(), z.array(ServerGraph));
export type GraphsByCategoryData = z.infer<typeof GraphsByCategoryData>;

// `POST /bot/get_server_service_graphic_data` takes ChartDataRequest and answers ChartData (chart.ts):
// y fields are named by metric and labels, e.g. `disk.used_pct{mount=/}`. Unknown graph_id → 404.

/** `POST /services_monitored/linux/get_status` {id} → data: the current tiles; null = no sample yet. */
export const LinuxStatusData = z
  .object({
    status: ServerStatus,
    /** Unix seconds of the last heartbeat. */
    last_seen_at: z.number().int().nullable(),
    cpu: z
      .object({
        total_pct: z.number().nullable(),
        user_pct: z.number().nullable(),
        system_pct: z.number().nullable(),
        iowait_pct: z.number().nullable(),
        steal_pct: z.number().nullable(),
        idle_pct: z.number().nullable(),
      })
      .strict(),
    load: z
      .object({ m1: z.number().nullable(), m5: z.number().nullable(), m15: z.number().nullable() })
      .strict(),
    memory: z
      .object({
        used_bytes: z.number().nullable(),
        total_bytes: z.number().nullable(),
        available_bytes: z.number().nullable(),
        used_pct: z.number().nullable(),
      })
      .strict(),
    swap: z
      .object({
        used_bytes: z.number().nullable(),
        total_bytes: z.number().nullable(),
        used_pct: z.number().nullable(),
      })
      .strict(),
    uptime_s: z.number().nullable(),
    /** Unix seconds of the newest sample among these tiles. */
    sampled_at: z.number().int().nullable(),
  })
  .strict();
export type LinuxStatusData = z.infer<typeof LinuxStatusData>;

/** One file system of `get_disk_status`. */
export const DiskStatus = z
  .object({
    mount: z.string(),
    size_bytes: z.number().nullable(),
    used_bytes: z.number().nullable(),
    free_bytes: z.number().nullable(),
    used_pct: z.number().nullable(),
    inodes_total: z.number().nullable(),
    inodes_used: z.number().nullable(),
    inodes_used_pct: z.number().nullable(),
  })
  .strict();
export type DiskStatus = z.infer<typeof DiskStatus>;

/** `POST /services_monitored/linux/get_disk_status` {id} → data, by mount. */
export const DiskStatusData = z.array(DiskStatus);
export type DiskStatusData = z.infer<typeof DiskStatusData>;

/** `POST /services_monitored/linux/get_process_status` {id} → data: the last heartbeat's top processes. */
export const ProcessStatusData = z
  .object({
    count: z.number().nullable(),
    running: z.number().nullable(),
    blocked: z.number().nullable(),
    by_cpu: z.array(ProcessSnapshot),
    by_memory: z.array(ProcessSnapshot),
    /** Unix seconds of the heartbeat the lists came with; null when none arrived since the api started. */
    ts: z.number().int().nullable(),
  })
  .strict();
export type ProcessStatusData = z.infer<typeof ProcessStatusData>;

/** One interface of `get_network_status`; rates per second. */
export const InterfaceStatus = z
  .object({
    interface: z.string(),
    rx_bytes_rate: z.number().nullable(),
    tx_bytes_rate: z.number().nullable(),
    rx_packets_rate: z.number().nullable(),
    tx_packets_rate: z.number().nullable(),
    rx_errors_rate: z.number().nullable(),
    tx_errors_rate: z.number().nullable(),
    rx_drops_rate: z.number().nullable(),
    tx_drops_rate: z.number().nullable(),
  })
  .strict();
export type InterfaceStatus = z.infer<typeof InterfaceStatus>;

/** `POST /services_monitored/linux/get_network_status` {id} → data. `tcp`: state → sockets. */
export const NetworkStatusData = z
  .object({ interfaces: z.array(InterfaceStatus), tcp: z.record(z.string(), z.number()) })
  .strict();
export type NetworkStatusData = z.infer<typeof NetworkStatusData>;

/** One block device of `get_system_block_status`; rates per second. */
export const BlockDeviceStatus = z
  .object({
    device: z.string(),
    read_ops_rate: z.number().nullable(),
    write_ops_rate: z.number().nullable(),
    read_bytes_rate: z.number().nullable(),
    write_bytes_rate: z.number().nullable(),
    busy_pct: z.number().nullable(),
  })
  .strict();
export type BlockDeviceStatus = z.infer<typeof BlockDeviceStatus>;

/** `POST /services_monitored/linux/get_system_block_status` {id} → data, by device. */
export const BlockStatusData = z.array(BlockDeviceStatus);
export type BlockStatusData = z.infer<typeof BlockStatusData>;

/** One inventory entry of `get_variables`. */
export const ServerVariable = z.object({ name: z.string(), value: z.string() }).strict();
export type ServerVariable = z.infer<typeof ServerVariable>;

/** `POST /services_monitored/linux/get_variables` {id} → data: the inventory as name/value pairs. */
export const ServerVariablesData = z.array(ServerVariable);
export type ServerVariablesData = z.infer<typeof ServerVariablesData>;

/** `POST /services_monitored/linux/get_disks` {id} → data: the mounts with data, sorted. */
export const DisksData = z.array(z.object({ mount: z.string(), size_bytes: z.number().nullable() }).strict());
export type DisksData = z.infer<typeof DisksData>;

/**
 * `POST /workers/get_agent_key` body: `{}` answers the active key (creating one when absent);
 * `rotate: true` creates a new key and revokes the old one.
 */
export const AgentKeyRequest = z
  .object({ name: z.string().trim().min(1).max(100).optional(), rotate: z.boolean().optional() })
  .strict();
export type AgentKeyRequest = z.infer<typeof AgentKeyRequest>;

/**
 * `get_agent_key` → data. `key` is the full access key (`fdk_...`) only in the answer that created
 * it; afterwards null, and `key_prefix` (its first 8 characters) identifies it.
 */
export const AgentKeyData = z
  .object({
    key: z.string().nullable(),
    key_prefix: z.string(),
    name: z.string(),
    created_at: z.number().int(),
    last_used_at: z.number().int().nullable(),
  })
  .strict();
export type AgentKeyData = z.infer<typeof AgentKeyData>;

/** Most batches one ingest request may carry. */
export const MAX_INGEST_BATCHES = 100;

/**
 * `POST /ingest` body (open route, `Authorization: Bearer <access key>`). Batches are checked one by
 * one with `parseMetricBatch`, so a bad one is named by its path (`batches[2].samples[7].v`).
 */
export const IngestRequest = z
  .object({ batches: z.array(z.unknown()).max(MAX_INGEST_BATCHES), heartbeat: Heartbeat.optional() })
  .strict();
export type IngestRequest = z.infer<typeof IngestRequest>;

/** `POST /ingest` → 202, data: how many batches were published. */
export const IngestData = z.object({ accepted: z.number().int().nonnegative() }).strict();
export type IngestData = z.infer<typeof IngestData>;
