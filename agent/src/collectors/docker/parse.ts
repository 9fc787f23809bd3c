import { round } from '../linux/proc';

/**
 * Pure readers of Docker Engine API answers (`/containers/json`, `/containers/{id}/stats`,
 * `/containers/{id}/json`) and the arithmetic `docker stats` does on them.
 */

/** Container states of the Engine API, as the `state` label of `docker.containers` spells them. */
export const DOCKER_STATES = [
  'created',
  'running',
  'paused',
  'restarting',
  'removing',
  'exited',
  'dead',
] as const;

/** One entry of `GET /containers/json?all=1`, reduced to what the agent reports. */
export interface ContainerSummary {
  id: string;
  /** The name without its leading slash (`web`). */
  name: string;
  image: string;
  /** `running`, `exited`... (lower case, as the engine sends it). */
  state: string;
  /** The engine's human status, e.g. `Up 2 hours (healthy)`; it changes whenever the container restarts. */
  status: string;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Label values are at most 256 characters on the wire. */
const label = (text: string) => text.slice(0, 256);

/**
 * The name a person knows a container by. `Names` also holds the aliases of legacy links
 * (`/web/db` for `db` linked into `web`); the container's own name is the one without a second slash.
 */
export function containerName(names: unknown, id: string): string {
  const list = Array.isArray(names) ? names.filter((n): n is string => typeof n === 'string') : [];
  const own = list.find((n) => n.lastIndexOf('/') === 0) ?? list[0];
  return own ? own.replace(/^\//, '') : id.slice(0, 12);
}

/** The containers of a `/containers/json` answer; entries without an id or a state are returned as problems. */
export function parseContainerList(body: unknown): { containers: ContainerSummary[]; problems: string[] } {
  const containers: ContainerSummary[] = [];
  const problems: string[] = [];
  if (!Array.isArray(body)) return { containers, problems: ['the container list is not an array'] };
  for (const entry of body) {
    if (!isObject(entry) || typeof entry.Id !== 'string' || typeof entry.State !== 'string') {
      problems.push(JSON.stringify(entry)?.slice(0, 200) ?? String(entry));
      continue;
    }
    containers.push({
      id: entry.Id,
      name: label(containerName(entry.Names, entry.Id)),
      image: label(typeof entry.Image === 'string' ? entry.Image : ''),
      state: entry.State.toLowerCase(),
      status: typeof entry.Status === 'string' ? entry.Status : '',
    });
  }
  return { containers, problems };
}

/** What the agent keeps of `GET /containers/{id}/json`. */
export interface ContainerDetails {
  /** Restarts done by the restart policy since the container was created (`docker restart` does not count). */
  restarts?: number;
  /** The memory limit set on the container in bytes; 0 when it has none. */
  memoryLimit?: number;
}

export function parseInspect(body: unknown): ContainerDetails {
  if (!isObject(body)) return {};
  const restarts = num(body.RestartCount);
  const memoryLimit = isObject(body.HostConfig) ? num(body.HostConfig.Memory) : undefined;
  return {
    ...(restarts !== undefined ? { restarts } : {}),
    ...(memoryLimit !== undefined ? { memoryLimit } : {}),
  };
}

/** The counters of one `/containers/{id}/stats` answer that the agent reports. */
export interface StatsReading {
  /** Unix ms when the engine read the counters; undefined for the zero time of an empty reading. */
  readAt?: number;
  /** CPU time of the container: nanoseconds on Linux, 100 ns units on Windows. */
  cpuTotal?: number;
  /** CPU time of the whole host in nanoseconds (Linux only). */
  systemCpu?: number;
  onlineCpus?: number;
  /** Processors of a Windows container (Windows only; 0 on Linux). */
  numProcs?: number;
  /** `precpu_stats` when the engine filled them (a call without `one-shot`). */
  pre?: { readAt?: number; cpuTotal?: number; systemCpu?: number };
  memBytes?: number;
  memLimit?: number;
  /** Bytes received and sent, summed over the container's interfaces; absent without a network of its own. */
  netRx?: number;
  netTx?: number;
}

/** Unix ms of an RFC 3339 time, or undefined for Go's zero time (`0001-01-01T00:00:00Z`) and garbage. */
export function engineTime(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) && ms > 0 ? ms : undefined;
}

/**
 * Memory in use as `docker stats` shows it: usage minus the inactive page cache, which the kernel
 * can drop at any time (`total_inactive_file` on cgroup v1, `inactive_file` on cgroup v2). A
 * Windows container reports its private working set instead.
 */
export function memoryInUse(memoryStats: unknown): number | undefined {
  if (!isObject(memoryStats)) return undefined;
  const privateWorkingSet = num(memoryStats.privateworkingset);
  if (privateWorkingSet !== undefined) return privateWorkingSet;
  const usage = num(memoryStats.usage);
  if (usage === undefined) return undefined;
  const stats = isObject(memoryStats.stats) ? memoryStats.stats : {};
  const v1 = num(stats.total_inactive_file);
  if (v1 !== undefined && v1 < usage) return usage - v1;
  const v2 = num(stats.inactive_file);
  if (v2 !== undefined && v2 < usage) return usage - v2;
  return usage;
}

function cpuOf(cpuStats: unknown): { cpuTotal?: number; systemCpu?: number; onlineCpus?: number } {
  if (!isObject(cpuStats)) return {};
  const usage = isObject(cpuStats.cpu_usage) ? cpuStats.cpu_usage : {};
  const cpuTotal = num(usage.total_usage);
  const systemCpu = num(cpuStats.system_cpu_usage);
  // Engines before API 1.27 had no online_cpus; `docker stats` falls back to the per-CPU list.
  const onlineCpus =
    num(cpuStats.online_cpus) || (Array.isArray(usage.percpu_usage) ? usage.percpu_usage.length : undefined);
  return {
    ...(cpuTotal !== undefined ? { cpuTotal } : {}),
    ...(systemCpu !== undefined ? { systemCpu } : {}),
    ...(onlineCpus ? { onlineCpus } : {}),
  };
}

/** The counters of a stats answer, or undefined when the body is not a stats object. */
export function parseStats(body: unknown): StatsReading | undefined {
  if (!isObject(body) || !isObject(body.cpu_stats)) return undefined;
  const reading: StatsReading = { ...cpuOf(body.cpu_stats) };
  const readAt = engineTime(body.read);
  if (readAt !== undefined) reading.readAt = readAt;
  const numProcs = num(body.num_procs);
  if (numProcs) reading.numProcs = numProcs;
  const pre = cpuOf(body.precpu_stats);
  const preReadAt = engineTime(body.preread);
  // A one-shot answer leaves precpu_stats at zero: that is no reading.
  if (pre.cpuTotal && (pre.systemCpu || preReadAt !== undefined)) {
    reading.pre = { cpuTotal: pre.cpuTotal };
    if (pre.systemCpu) reading.pre.systemCpu = pre.systemCpu;
    if (preReadAt !== undefined) reading.pre.readAt = preReadAt;
  }
  const mem = memoryInUse(body.memory_stats);
  if (mem !== undefined) reading.memBytes = mem;
  const limit = isObject(body.memory_stats) ? num(body.memory_stats.limit) : undefined;
  if (limit) reading.memLimit = limit;
  if (isObject(body.networks)) {
    let rx = 0;
    let tx = 0;
    for (const iface of Object.values(body.networks)) {
      if (!isObject(iface)) continue;
      rx += num(iface.rx_bytes) ?? 0;
      tx += num(iface.tx_bytes) ?? 0;
    }
    reading.netRx = rx;
    reading.netTx = tx;
  }
  return reading;
}

/**
 * CPU use between two readings of one container the way `docker stats` computes it. On Linux: the
 * container's share of the host's CPU time times the number of CPUs, so 100 is one whole CPU and a
 * busy container can pass 100. On Windows (no host CPU time in the answer): the container's CPU
 * time over the wall-clock time of all its processors, 0-100. Undefined when the readings cannot
 * be compared (no baseline, the clock did not move, a counter went backwards after a restart).
 */
export function cpuPercent(
  prev: { readAt?: number; cpuTotal?: number; systemCpu?: number },
  cur: StatsReading,
): number | undefined {
  if (cur.cpuTotal === undefined || prev.cpuTotal === undefined) return undefined;
  const cpuDelta = cur.cpuTotal - prev.cpuTotal;
  if (cpuDelta < 0) return undefined;
  if (cur.systemCpu !== undefined && prev.systemCpu !== undefined) {
    const systemDelta = cur.systemCpu - prev.systemCpu;
    if (systemDelta <= 0 || !cur.onlineCpus) return undefined;
    return round((cpuDelta / systemDelta) * cur.onlineCpus * 100, 2);
  }
  if (cur.numProcs && cur.readAt !== undefined && prev.readAt !== undefined && cur.readAt > prev.readAt) {
    // Windows counts CPU time in 100 ns units: one processor for one millisecond is 10,000 of them.
    const possible = (cur.readAt - prev.readAt) * 10_000 * cur.numProcs;
    return round(Math.min(100, (cpuDelta / possible) * 100), 2);
  }
  return undefined;
}
