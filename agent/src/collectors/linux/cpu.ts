import type { Collector, SampleLike } from '../contract';
import { fields, percent, readProcText, toCount, warnUnparsed } from './proc';

/** Jiffies per state of one `cpu` line of /proc/stat (see proc(5)). */
export interface CpuTimes {
  user: number;
  nice: number;
  system: number;
  idle: number;
  iowait: number;
  irq: number;
  softirq: number;
  steal: number;
  guest: number;
  guestNice: number;
}

const COLUMNS = [
  'user',
  'nice',
  'system',
  'idle',
  'iowait',
  'irq',
  'softirq',
  'steal',
  'guest',
  'guestNice',
] as const;

/**
 * The `cpu` (all cores, key `all`) and `cpuN` lines of /proc/stat. Columns an old kernel lacks count
 * as 0; a line with fewer than the four original columns is returned in `unparsed`.
 */
export function parseProcStat(text: string): { cpus: Map<string, CpuTimes>; unparsed: string[] } {
  const cpus = new Map<string, CpuTimes>();
  const unparsed: string[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('cpu')) continue;
    const [label, ...rest] = fields(line);
    const key = label === 'cpu' ? 'all' : label?.slice(3);
    const values = rest.map(toCount);
    if (!key || !/^(all|\d+)$/.test(key) || values.length < 4 || values.some((v) => v === undefined)) {
      unparsed.push(line);
      continue;
    }
    const times = {} as CpuTimes;
    COLUMNS.forEach((column, i) => {
      times[column] = values[i] ?? 0;
    });
    cpus.set(key, times);
  }
  return { cpus, unparsed };
}

/**
 * Percentages of the time between two readings. `user` includes nice, `system` includes irq and
 * softirq, and `total` is everything but idle and iowait (iowait is idle time waiting on a disk).
 * The kernel already counts guest time inside user and nice, so the guest columns are not added
 * again. A column that went backwards (iowait does on some kernels) counts as 0.
 */
export function cpuPercentages(prev: CpuTimes, cur: CpuTimes): Record<string, number> | undefined {
  const d = (k: keyof CpuTimes) => Math.max(0, cur[k] - prev[k]);
  const user = d('user') + d('nice');
  const system = d('system') + d('irq') + d('softirq');
  const idle = d('idle');
  const iowait = d('iowait');
  const steal = d('steal');
  const total = user + system + idle + iowait + steal;
  if (total === 0) return undefined;
  const pct = (part: number) => percent(part, total) ?? 0;
  return {
    'cpu.user': pct(user),
    'cpu.system': pct(system),
    'cpu.iowait': pct(iowait),
    'cpu.steal': pct(steal),
    'cpu.idle': pct(idle),
    'cpu.total': pct(user + system + steal),
  };
}

/**
 * CPU use from /proc/stat deltas, for all cores together (no label) and per core (label `core`).
 * The first run only records the reading.
 */
export function cpuCollector(): Collector {
  let previous: Map<string, CpuTimes> | undefined;
  return {
    name: 'cpu',
    async collect(ctx) {
      const text = await readProcText(ctx, 'stat');
      if (text === undefined) return [];
      const { cpus, unparsed } = parseProcStat(text);
      warnUnparsed(ctx, 'stat', unparsed);
      const prev = previous;
      previous = cpus;
      if (!prev) return [];
      const samples: SampleLike[] = [];
      for (const [key, cur] of cpus) {
        const before = prev.get(key);
        // A core that came online since the last run has no baseline yet.
        if (!before) continue;
        const pcts = cpuPercentages(before, cur);
        if (!pcts) continue;
        for (const [m, v] of Object.entries(pcts)) {
          samples.push(key === 'all' ? { m, v } : { m, l: { core: key }, v });
        }
      }
      return samples;
    },
  };
}
