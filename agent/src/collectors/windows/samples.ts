import type { SampleLike } from '../contract';
import { percent, round } from '../linux/proc';
import { type CimRow, cimDate, num, text } from './parse';

/**
 * Pure functions from the CIM instances of one or two runs to samples of the host metric names
 * (metrics-catalog.ts): the same names as on Linux, `swap.*` being the page file and `disk.*` a
 * drive (`mount` = "C:").
 */

const clampPct = (v: number) => round(Math.min(100, Math.max(0, v)), 2);

/**
 * CPU from Win32_PerfFormattedData_PerfOS_Processor: `_Total` as the host, each other instance as
 * a core. Windows computes these percentages between its own two readings; the first query of a
 * new shell has no earlier reading and gives all zeros, which is no measurement and is left out.
 */
export function cpuSamples(rows: readonly CimRow[]): SampleLike[] {
  const samples: SampleLike[] = [];
  for (const row of rows) {
    const name = text(row.Name);
    const user = num(row.PercentUserTime);
    const system = num(row.PercentPrivilegedTime);
    const idle = num(row.PercentIdleTime);
    if (name === undefined || user === undefined || system === undefined || idle === undefined) continue;
    if (user + system + idle === 0) continue;
    const values: [string, number][] = [
      ['cpu.user', clampPct(user)],
      ['cpu.system', clampPct(system)],
      ['cpu.idle', clampPct(idle)],
      // Busy is what is not idle: Windows has no I/O wait or steal to set aside.
      ['cpu.total', clampPct(100 - idle)],
    ];
    const interrupt = num(row.PercentInterruptTime);
    if (interrupt !== undefined) values.push(['cpu.interrupt', clampPct(interrupt)]);
    for (const [m, v] of values) samples.push(name === '_Total' ? { m, v } : { m, l: { core: name }, v });
  }
  return samples;
}

/**
 * Memory and page file from Win32_OperatingSystem (sizes in KiB): available memory is
 * FreePhysicalMemory, which counts the standby list as Task Manager's "Available" does. Commit
 * charge comes from the Memory performance class, or from the virtual memory totals without it.
 */
export function memorySamples(os: CimRow | undefined, perf: CimRow | undefined): SampleLike[] {
  const samples: SampleLike[] = [];
  const push = (m: string, v: number | undefined) => {
    if (v !== undefined) samples.push({ m, v });
  };
  const kib = (v: unknown) => {
    const n = num(v);
    return n === undefined ? undefined : n * 1024;
  };
  const total = kib(os?.TotalVisibleMemorySize);
  const available = kib(os?.FreePhysicalMemory);
  push('mem.total_bytes', total);
  push('mem.available_bytes', available);
  if (total !== undefined && available !== undefined) {
    const used = Math.max(0, total - available);
    push('mem.used_bytes', used);
    push('mem.used_pct', percent(used, total));
  }

  const swapTotal = kib(os?.SizeStoredInPagingFiles);
  const swapFree = kib(os?.FreeSpaceInPagingFiles);
  push('swap.total_bytes', swapTotal);
  if (swapTotal !== undefined && swapFree !== undefined) {
    const used = Math.max(0, swapTotal - swapFree);
    push('swap.used_bytes', used);
    push('swap.free_bytes', swapFree);
    push('swap.used_pct', percent(used, swapTotal));
  }

  const virtualTotal = kib(os?.TotalVirtualMemorySize);
  const virtualFree = kib(os?.FreeVirtualMemory);
  push(
    'win.committed_bytes',
    num(perf?.CommittedBytes) ??
      (virtualTotal !== undefined && virtualFree !== undefined ? virtualTotal - virtualFree : undefined),
  );
  push('win.commit_limit_bytes', num(perf?.CommitLimit) ?? virtualTotal);
  push('win.page_faults_rate', num(perf?.PageFaultsPersec));
  return samples;
}

/** Size and use of each fixed drive (Win32_LogicalDisk DriveType=3), label `mount` = "C:". */
export function logicalDiskSamples(rows: readonly CimRow[]): SampleLike[] {
  const samples: SampleLike[] = [];
  for (const row of rows) {
    const mount = text(row.DeviceID);
    const size = num(row.Size);
    const free = num(row.FreeSpace);
    // A drive without a file system (not formatted, or a BitLocker volume still locked) has no size.
    if (!mount || size === undefined || free === undefined) continue;
    const l = { mount };
    const used = Math.max(0, size - free);
    samples.push(
      { m: 'disk.size_bytes', l, v: size },
      { m: 'disk.used_bytes', l, v: used },
      { m: 'disk.free_bytes', l, v: free },
    );
    const pct = percent(used, size);
    if (pct !== undefined) samples.push({ m: 'disk.used_pct', l, v: pct });
  }
  return samples;
}

/** Processes, the processor queue and uptime (Win32_PerfFormattedData_PerfOS_System, LastBootUpTime). */
export function systemSamples(system: CimRow | undefined, os: CimRow | undefined, now: number): SampleLike[] {
  const samples: SampleLike[] = [];
  const processes = num(system?.Processes);
  if (processes !== undefined) samples.push({ m: 'proc.count', v: processes });
  const queue = num(system?.ProcessorQueueLength);
  if (queue !== undefined) samples.push({ m: 'win.processor_queue_length', v: queue });
  const boot = cimDate(os?.LastBootUpTime);
  const uptime =
    num(system?.SystemUpTime) ?? (boot !== undefined ? Math.round((now - boot) / 1000) : undefined);
  if (uptime !== undefined && uptime >= 0) samples.push({ m: 'system.uptime', v: uptime });
  return samples;
}

/** Raw performance counters of one instance, with the time they were read. */
export interface CounterReading {
  /** Timestamp_Sys100NS: 100 ns units since 1601, the same clock for every instance of a query. */
  time100ns?: number;
  values: Record<string, number>;
}

/** The instances of a raw performance class by name, `_Total` left out, with the counters asked for. */
export function counterReadings(
  rows: readonly CimRow[],
  counters: readonly string[],
): Map<string, CounterReading> {
  const out = new Map<string, CounterReading>();
  for (const row of rows) {
    const name = text(row.Name);
    if (!name || name === '_Total') continue;
    const values: Record<string, number> = {};
    for (const c of counters) {
      const v = num(row[c]);
      if (v !== undefined) values[c] = v;
    }
    const time100ns = num(row.Timestamp_Sys100NS);
    out.set(name, time100ns ? { time100ns, values } : { values });
  }
  return out;
}

const TWO_32 = 2 ** 32;

/**
 * How much a counter grew. Older Windows keeps some counters in 32 bits, so a counter that went
 * back from a 32-bit value wrapped when the growth this implies is under half the range; anything
 * else that went back was reset (the adapter or disk was re-created) and gives no value.
 */
export function counterDelta(before: number, after: number): number | undefined {
  if (after >= before) return after - before;
  if (before < TWO_32) {
    const wrapped = after + TWO_32 - before;
    if (wrapped < TWO_32 / 2) return wrapped;
  }
  return undefined;
}

/** Seconds between two readings: by the counters' own clock when both have it, else by the agent's. */
export function secondsBetween(
  before: CounterReading & { at: number },
  after: CounterReading & { at: number },
): number {
  if (before.time100ns !== undefined && after.time100ns !== undefined && after.time100ns > before.time100ns) {
    return (after.time100ns - before.time100ns) / 1e7;
  }
  return (after.at - before.at) / 1000;
}

export type Readings = { at: number; instances: Map<string, CounterReading> };

function rateSamples(
  prev: Readings,
  cur: Readings,
  label: string,
  rates: ReadonlyArray<readonly [string, string]>,
  extra?: (l: Record<string, string>, before: CounterReading, after: CounterReading) => SampleLike[],
): SampleLike[] {
  const samples: SampleLike[] = [];
  for (const [name, after] of cur.instances) {
    const before = prev.instances.get(name);
    if (!before) continue;
    const seconds = secondsBetween({ ...before, at: prev.at }, { ...after, at: cur.at });
    if (seconds <= 0) continue;
    const l = { [label]: name.slice(0, 256) };
    const out: SampleLike[] = [];
    let reset = false;
    for (const [counter, m] of rates) {
      const b = before.values[counter];
      const a = after.values[counter];
      if (a === undefined || b === undefined) continue;
      const delta = counterDelta(b, a);
      if (delta === undefined) {
        reset = true;
        break;
      }
      out.push({ m, l, v: round(delta / seconds, 3) });
    }
    // A reset instance reports nothing this interval, as on Linux.
    if (reset) continue;
    samples.push(...out, ...(extra?.(l, before, after) ?? []));
  }
  return samples;
}

export const DISK_COUNTERS = [
  ['DiskReadsPersec', 'disk_io.read_ops_rate'],
  ['DiskWritesPersec', 'disk_io.write_ops_rate'],
  ['DiskReadBytesPersec', 'disk_io.read_bytes_rate'],
  ['DiskWriteBytesPersec', 'disk_io.write_bytes_rate'],
] as const;

/**
 * Per physical disk (label `device`, e.g. "0 C:"): operations and bytes per second, and the share
 * of the interval the disk was busy, from "% Idle Time" (a 100 ns timer against its `_Base`
 * timestamp). "% Disk Time" is not used: it is a queue length in disguise and passes 100.
 */
export function diskIoSamples(prev: Readings, cur: Readings): SampleLike[] {
  return rateSamples(prev, cur, 'device', DISK_COUNTERS, (l, before, after) => {
    const idle = before.values.PercentIdleTime;
    const idleAfter = after.values.PercentIdleTime;
    const base = before.values.PercentIdleTime_Base;
    const baseAfter = after.values.PercentIdleTime_Base;
    if (idle === undefined || idleAfter === undefined || base === undefined || baseAfter === undefined)
      return [];
    if (baseAfter <= base || idleAfter < idle) return [];
    return [{ m: 'disk_io.busy_pct', l, v: clampPct(100 - ((idleAfter - idle) / (baseAfter - base)) * 100) }];
  });
}

export const NETWORK_COUNTERS = [
  ['BytesReceivedPersec', 'net.rx_bytes_rate'],
  ['BytesSentPersec', 'net.tx_bytes_rate'],
  ['PacketsReceivedPersec', 'net.rx_packets_rate'],
  ['PacketsSentPersec', 'net.tx_packets_rate'],
  ['PacketsReceivedErrors', 'net.rx_errors_rate'],
  ['PacketsOutboundErrors', 'net.tx_errors_rate'],
  ['PacketsReceivedDiscarded', 'net.rx_drops_rate'],
  ['PacketsOutboundDiscarded', 'net.tx_drops_rate'],
] as const;

/**
 * Per network interface (label `interface`, the performance-counter name, where Windows writes the
 * adapter's parentheses as brackets: "Intel[R] 82574L Gigabit Network Connection").
 */
export function networkSamples(prev: Readings, cur: Readings): SampleLike[] {
  return rateSamples(prev, cur, 'interface', NETWORK_COUNTERS);
}

/** `Start Pending` → `start_pending`: the `state` label of `win.services`. */
export function serviceState(state: string): string {
  return state.trim().toLowerCase().replace(/\s+/g, '_');
}

/**
 * Per-user services (Windows 10 / Server 2016 on): a template such as `CDPUserSvc`, set to start
 * automatically but never running itself, and one instance per sign-in named after it with a
 * session suffix (`CDPUserSvc_3a4b1`). Both are left out of the per-service samples: the template
 * would always look stopped, and the instances' names change with every sign-in.
 */
export function perUserServices(names: Iterable<string>): Set<string> {
  const all = new Set(names);
  const out = new Set<string>();
  for (const name of all) {
    const m = /^(.+)_[0-9a-f]{4,8}$/i.exec(name);
    if (m && all.has(m[1] as string)) {
      out.add(name);
      out.add(m[1] as string);
    }
  }
  return out;
}

/** Service states always reported, even at 0, so a chart line does not vanish. */
const ALWAYS_COUNTED = ['running', 'stopped'];

/**
 * From Win32_Service: how many services are in each state; for each service set to start
 * automatically (StartMode "Auto"), whether it runs (1) or not (0); and how many of those do not.
 */
export function serviceSamples(rows: readonly CimRow[]): SampleLike[] {
  const counts = new Map<string, number>(ALWAYS_COUNTED.map((s) => [s, 0]));
  const services: { name: string; state: string; auto: boolean }[] = [];
  for (const row of rows) {
    const name = text(row.Name);
    const state = text(row.State);
    if (!name || !state) continue;
    const s = serviceState(state);
    counts.set(s, (counts.get(s) ?? 0) + 1);
    services.push({ name, state: s, auto: text(row.StartMode)?.toLowerCase() === 'auto' });
  }
  const samples: SampleLike[] = [];
  for (const [state, n] of counts) samples.push({ m: 'win.services', l: { state }, v: n });
  const skipped = perUserServices(services.map((s) => s.name));
  let autoStopped = 0;
  for (const s of services) {
    if (!s.auto || skipped.has(s.name)) continue;
    const running = s.state === 'running' ? 1 : 0;
    if (!running) autoStopped++;
    samples.push({ m: 'win.service_running', l: { service: s.name.slice(0, 256) }, v: running });
  }
  samples.push({ m: 'win.auto_services_stopped', v: autoStopped });
  return samples;
}
