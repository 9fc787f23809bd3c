import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ProcessSnapshot } from '@flightdeck/schemas/wire';
import type { CollectContext, Collector, HeartbeatExtras, SampleLike } from '../contract';
import { readPidFile } from './pid-files';
import { errorMessage, readProcText, round, toCount } from './proc';

/** What the ranking needs of one process, all from `/proc/<pid>/stat`. */
export interface PidStat {
  pid: number;
  /** The executable name the kernel keeps (at most 15 characters). */
  comm: string;
  /** utime + stime, in clock ticks, all threads included. */
  ticks: number;
  /** Clock ticks after boot when the process started: tells a reused pid from the old process. */
  startTime: number;
  /** Resident set size in pages (the same figure as the second field of `statm`). */
  rssPages: number;
}

/**
 * One line of `/proc/<pid>/stat`. The command name sits in parentheses and may itself contain
 * blanks and parentheses, so the fields are counted from the last `)`.
 */
export function parsePidStat(text: string): PidStat | undefined {
  const open = text.indexOf(' (');
  const close = text.lastIndexOf(')');
  if (open <= 0 || close < open) return undefined;
  const pid = toCount(text.slice(0, open));
  // After ")": state(3) ppid(4) ... utime(14) stime(15) ... starttime(22) vsize(23) rss(24).
  const f = text.slice(close + 2).split(' ');
  const utime = toCount(f[11]);
  const stime = toCount(f[12]);
  const startTime = toCount(f[19]);
  const rssPages = toCount(f[21]);
  if (pid === undefined || utime === undefined || stime === undefined) return undefined;
  if (startTime === undefined || rssPages === undefined) return undefined;
  return { pid, comm: text.slice(open + 2, close), ticks: utime + stime, startTime, rssPages };
}

/** `procs_running` and `procs_blocked` of /proc/stat: tasks runnable now and tasks waiting on I/O. */
export function parseProcsRunning(stat: string): { running?: number; blocked?: number } {
  const count = (key: string) => toCount(new RegExp(`^${key}\\s+(\\d+)$`, 'm').exec(stat)?.[1]);
  const running = count('procs_running');
  const blocked = count('procs_blocked');
  return { ...(running === undefined ? {} : { running }), ...(blocked === undefined ? {} : { blocked }) };
}

/** uid → user name from a passwd file. */
export function parsePasswd(text: string): Map<number, string> {
  const users = new Map<number, string>();
  for (const line of text.split('\n')) {
    const [name, , uid] = line.split(':');
    const n = toCount(uid);
    if (name && n !== undefined && !users.has(n)) users.set(n, name);
  }
  return users;
}

/** The command line of `/proc/<pid>/cmdline` (NUL-separated) for people; `[comm]` when it is empty. */
export function commandLine(cmdline: string | undefined, comm: string): string {
  const text = (cmdline ?? '').replace(/\0+$/, '').replaceAll('\0', ' ').trim();
  return (text === '' ? `[${comm}]` : text).slice(0, 2048);
}

/** The effective uid of the `Uid:` line of `/proc/<pid>/status` (real, effective, saved, fs). */
export function effectiveUid(status: string): number | undefined {
  const m = /^Uid:\s+\d+\s+(\d+)/m.exec(status);
  return m ? Number(m[1]) : undefined;
}

/**
 * The kernel's page size, read from the first mapping of the agent's own smaps (`KernelPageSize`).
 * Every process of the host shares the agent's kernel, so this holds for a mounted host /proc too.
 * Falls back to 4 KiB, the page size of x86 and of most arm64 kernels.
 */
export function kernelPageSize(smaps = '/proc/self/smaps'): number {
  const text = readPidFile(smaps, Buffer.alloc(2048));
  const kb = Number(/^KernelPageSize:\s+(\d+) kB/m.exec(text ?? '')?.[1]);
  return [4, 16, 64].includes(kb) ? kb * 1024 : 4096;
}

export interface ProcessCollectorOptions {
  /**
   * The root that holds `etc/passwd` for user names; default the parent of `ctx.procRoot` (`/` for
   * `/proc`, `/host` for `/host/proc`).
   */
  hostRoot?: string;
  /** Bytes per page; default the running kernel's ({@link kernelPageSize}). */
  pageSize?: number;
  /** Clock ticks per second of `stat` times; USER_HZ is 100 on every architecture Linux runs on today. */
  clockTicks?: number;
  /** How many processes each top list holds (default 10, the heartbeat's maximum). */
  top?: number;
}

const YIELD_EVERY = 256;

/**
 * Processes of the host: `proc.count` (processes whose stat could be read), `proc.running` and
 * `proc.blocked` (from /proc/stat), and, for the heartbeat, the top processes by CPU and by resident
 * memory. Only `/proc/<pid>/stat` is read for every process; `cmdline` and `status` (for the user)
 * are read for the winners only. A process that exits while it is read is skipped without a word.
 *
 * `cpu_pct` is the CPU time of the process since the previous run over the time between the runs,
 * in % of one core (a busy process with four threads can show 400). The first run has no previous
 * reading, so its CPU list is empty and its memory list shows `cpu_pct` 0. A pid that was not there
 * at the previous run (or was reused since) is a process born in between: all its CPU time counts.
 * Processes that used no CPU in the interval are left out of the CPU list.
 */
export function processCollector(options: ProcessCollectorOptions = {}): Collector {
  const clockTicks = options.clockTicks ?? 100;
  const top = options.top ?? 10;
  const buffer = Buffer.alloc(4096);
  let pageSize = options.pageSize;
  let users: Map<number, string> | undefined;
  let previous: { at: number; byPid: Map<number, PidStat> } | undefined;
  let extras: HeartbeatExtras | undefined;

  async function userNames(ctx: CollectContext): Promise<Map<number, string>> {
    if (users) return users;
    const file = join(options.hostRoot ?? dirname(ctx.procRoot), 'etc/passwd');
    try {
      users = parsePasswd(await readFile(file, 'utf8'));
    } catch (err) {
      ctx.logger.warn({ file, err: errorMessage(err) }, `cannot read ${file}; users are shown as uids`);
      users = new Map();
    }
    return users;
  }

  return {
    name: 'processes',
    async collect(ctx) {
      pageSize ??= kernelPageSize();
      const samples: SampleLike[] = [];
      const stat = await readProcText(ctx, 'stat');
      if (stat !== undefined) {
        const { running, blocked } = parseProcsRunning(stat);
        if (running !== undefined) samples.push({ m: 'proc.running', v: running });
        if (blocked !== undefined) samples.push({ m: 'proc.blocked', v: blocked });
      }

      let names: string[];
      try {
        names = await readdir(ctx.procRoot);
      } catch (err) {
        ctx.logger.warn({ file: ctx.procRoot, err: errorMessage(err) }, `cannot list ${ctx.procRoot}`);
        return samples;
      }
      const byPid = new Map<number, PidStat>();
      let read = 0;
      for (const name of names) {
        if (name.charCodeAt(0) > 57 || !/^\d+$/.test(name)) continue;
        // Synchronous reads are the cheap ones; hand the event loop back now and then on big hosts.
        if (++read % YIELD_EVERY === 0) await new Promise<void>((r) => setImmediate(r));
        const text = readPidFile(join(ctx.procRoot, name, 'stat'), buffer);
        const s = text === undefined ? undefined : parsePidStat(text);
        if (s) byPid.set(s.pid, s);
      }
      samples.push({ m: 'proc.count', v: byPid.size });

      const prev = previous;
      previous = { at: ctx.now, byPid };
      const seconds = prev ? (ctx.now - prev.at) / 1000 : 0;
      const cpuPct = (s: PidStat): number => {
        if (!prev || seconds <= 0) return 0;
        const before = prev.byPid.get(s.pid);
        const used = before && before.startTime === s.startTime ? s.ticks - before.ticks : s.ticks;
        return Math.max(0, round((used / clockTicks / seconds) * 100, 2));
      };
      const ranked = [...byPid.values()].map((s) => ({
        s,
        cpu: cpuPct(s),
        mem: s.rssPages * (pageSize ?? 4096),
      }));
      const byCpu = prev
        ? ranked.filter((r) => r.cpu > 0).sort((a, b) => b.cpu - a.cpu || b.mem - a.mem)
        : [];
      const byMemory = ranked.sort((a, b) => b.mem - a.mem || b.cpu - a.cpu);

      const passwd = await userNames(ctx);
      const details = new Map<number, ProcessSnapshot | null>();
      const snapshot = ({ s, cpu, mem }: (typeof ranked)[number]): ProcessSnapshot | null => {
        const dir = join(ctx.procRoot, String(s.pid));
        const status = readPidFile(join(dir, 'status'), buffer);
        const uid = status === undefined ? undefined : effectiveUid(status);
        // No status: the process exited after its stat was read, so it has no place in the list.
        if (uid === undefined) return null;
        const user = (passwd.get(uid) ?? String(uid)).slice(0, 128);
        const command = commandLine(readPidFile(join(dir, 'cmdline'), buffer), s.comm);
        return { pid: s.pid, user, command, cpu_pct: cpu, mem_bytes: mem };
      };
      const pick = (list: typeof ranked): ProcessSnapshot[] => {
        const out: ProcessSnapshot[] = [];
        for (const r of list) {
          if (out.length >= top) break;
          if (!details.has(r.s.pid)) details.set(r.s.pid, snapshot(r));
          const d = details.get(r.s.pid);
          if (d) out.push(d);
        }
        return out;
      };
      const by_cpu = pick(byCpu);
      extras = { top_processes: { by_cpu, by_memory: pick(byMemory) } };
      return samples;
    },
    heartbeat: () => extras,
  };
}
