import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, repoRoot } from '../src/product-process';
import { type Benchmark, type Figure, round } from './harness';

/**
 * The arguments the built agent runs with before anything else: its `run` command. The bundle's
 * entry is the agent's command line; an entry that samples at once would take none.
 */
const AGENT_ARGS: readonly string[] = ['run'];
const AGENT_BUNDLE = join(repoRoot, 'dist/agent.js');
/** The Debian package's binary (`apt-get install prometheus-node-exporter`). */
const NODE_EXPORTER = '/usr/bin/prometheus-node-exporter';
const AGENT_INTERVAL_S = 10;
const SCRAPE_INTERVAL_MS = 10_000;
const RSS_EVERY_MS = 1_000;
const WARMUP_S = Number(process.env.BENCH_AGENT_WARMUP_S ?? 20);
const WINDOW_S = Number(process.env.BENCH_AGENT_WINDOW_S ?? 120);
/** Issue targets for the agent on Linux at a 10 s interval. */
const AGENT_CPU_MAX = 1;
const AGENT_RSS_MAX_MB = 60;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Clock ticks per second of /proc/<pid>/stat times. */
function clockTicks(): number {
  try {
    const n = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    return n > 0 ? n : 100;
  } catch {
    return 100;
  }
}

/** utime + stime of a process (all its threads), in clock ticks; undefined once it has exited. */
function cpuTicks(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold blanks and parentheses: count fields from the last ")".
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(f[11]) + Number(f[12]);
  } catch {
    return undefined;
  }
}

/**
 * VmRSS of a process in kB, and RssAnon, the part that is its own (VmRSS also counts the pages of
 * its executable and libraries, shared with every process that maps them); undefined once it has exited.
 */
function rssKb(pid: number): { rss: number; anon: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const rss = /^VmRSS:\s+(\d+) kB/m.exec(status);
    const anon = /^RssAnon:\s+(\d+) kB/m.exec(status);
    return rss ? { rss: Number(rss[1]), anon: Number(anon?.[1] ?? Number.NaN) } : undefined;
  } catch {
    return undefined;
  }
}

/** A child process with the tail of its output, for the reason when it dies. */
interface Child {
  name: string;
  process: ChildProcess;
  pid: number;
  tail(): string;
  stop(): Promise<void>;
}

function startChild(name: string, command: string, args: readonly string[], env: NodeJS.ProcessEnv): Child {
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-2000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    name,
    process: child,
    pid: child.pid ?? -1,
    tail: () => tail.trim(),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

const alive = (c: Child) => c.process.exitCode === null && c.process.signalCode === null;

/** The built agent (`node scripts/build.mjs agent` unless BENCH_SKIP_BUILD), publishing to the local NATS. */
function startAgent(dir: string): Child {
  if (!process.env.BENCH_SKIP_BUILD) {
    execFileSync(process.execPath, ['scripts/build.mjs', 'agent'], { cwd: repoRoot, stdio: 'inherit' });
  }
  if (!existsSync(AGENT_BUNDLE))
    throw new Error(`${AGENT_BUNDLE} is missing: run node scripts/build.mjs agent`);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    AGENT_TENANT: 'bench',
    AGENT_HOST_KEY: 'bench-agent',
    NATS_URL: process.env.BENCH_NATS_URL ?? 'nats://127.0.0.1:4222',
    AGENT_INTERVAL_S: String(AGENT_INTERVAL_S),
    AGENT_STATE_DIR: join(dir, 'state'),
    AGENT_SPOOL_DIR: join(dir, 'spool'),
    NODE_ENV: 'production',
  };
  for (const name of ['AGENT_CONFIG', 'AGENT_INGEST_URL', 'AGENT_ACCESS_KEY', 'LOG_LEVEL']) delete env[name];
  return startChild('agent', process.execPath, [AGENT_BUNDLE, ...AGENT_ARGS], env);
}

/** node_exporter with its default collectors on a free loopback port, scraped like Prometheus would. */
async function startNodeExporter(): Promise<{ child: Child; url: string }> {
  const port = await freePort();
  const child = startChild(
    'node_exporter',
    NODE_EXPORTER,
    [`--web.listen-address=127.0.0.1:${port}`],
    process.env,
  );
  const url = `http://127.0.0.1:${port}/metrics`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (!alive(child)) throw new Error(`node_exporter exited at start: ${child.tail()}`);
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.ok) return { child, url };
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await child.stop();
      throw new Error(`node_exporter did not answer on ${url} within 15 s`);
    }
    await sleep(200);
  }
}

/** CPU and RSS of one process over the window: CPU as % of one core, RSS max and mean in MB. */
class Meter {
  private startTicks: number | undefined;
  private readonly rss: number[] = [];
  private readonly anon: number[] = [];
  constructor(readonly child: Child) {}
  start() {
    this.startTicks = cpuTicks(this.child.pid);
  }
  sampleRss() {
    const kb = rssKb(this.child.pid);
    if (kb === undefined) return;
    this.rss.push(kb.rss);
    this.anon.push(kb.anon);
  }
  finish(
    windowS: number,
    hz: number,
  ): { cpuPct: number; rssMaxMb: number; rssMeanMb: number; anonMeanMb: number } | string {
    const end = cpuTicks(this.child.pid);
    if (!alive(this.child) || this.startTicks === undefined || end === undefined || this.rss.length === 0) {
      return `${this.child.name} exited during the measurement: ${this.child.tail().slice(-500)}`;
    }
    const meanMb = (kb: number[]) => round(kb.reduce((a, b) => a + b, 0) / kb.length / 1024, 1);
    return {
      cpuPct: round(((end - this.startTicks) / hz / windowS) * 100, 3),
      rssMaxMb: round(Math.max(...this.rss) / 1024, 1),
      rssMeanMb: meanMb(this.rss),
      anonMeanMb: meanMb(this.anon),
    };
  }
}

function figuresOf(
  prefix: 'agent' | 'node_exporter',
  measured: ReturnType<Meter['finish']>,
  withTargets: boolean,
): Figure[] {
  const cpu: Figure = { name: `${prefix}.cpu_pct`, value: null, unit: '% of one core' };
  const rss: Figure = { name: `${prefix}.rss_mb`, value: null, unit: 'MB (max VmRSS)' };
  if (withTargets) {
    cpu.target = { max: AGENT_CPU_MAX };
    rss.target = { max: AGENT_RSS_MAX_MB };
  }
  if (typeof measured === 'string')
    return [
      { ...cpu, reason: measured },
      { ...rss, reason: measured },
    ];
  return [
    { ...cpu, value: measured.cpuPct },
    { ...rss, value: measured.rssMaxMb },
  ];
}

/**
 * Agent footprint (issue target: at most 1 % of one core and 60 MB resident at a 10 s interval),
 * side by side with prometheus-node-exporter scraped every 10 s on the same machine. Both run
 * together for a warm-up (BENCH_AGENT_WARMUP_S, default 20 s), then a window (BENCH_AGENT_WINDOW_S,
 * default 120 s) over which CPU is utime + stime from /proc/<pid>/stat and RSS is VmRSS sampled
 * every second. A missing node_exporter gives its figures a reason instead of failing the agent's.
 */
export const benchmark: Benchmark = {
  figures: ['agent.cpu_pct', 'agent.rss_mb'],
  comparisons: ['node_exporter.cpu_pct', 'node_exporter.rss_mb'],
  async run(): Promise<Figure[]> {
    const hz = clockTicks();
    const dir = mkdtempSync(join(tmpdir(), 'fd-agent-bench-'));
    const children: Child[] = [];
    let scraper: NodeJS.Timeout | undefined;
    let scrapes = 0;
    let scrapeErrors = 0;
    try {
      let agent: Child | string;
      try {
        agent = startAgent(dir);
        children.push(agent);
      } catch (err) {
        agent = `the agent could not start: ${(err as Error).message}`;
      }
      let exporter: Child | string;
      if (!existsSync(NODE_EXPORTER)) {
        exporter = `${NODE_EXPORTER} is not installed (apt-get install prometheus-node-exporter)`;
      } else {
        try {
          const started = await startNodeExporter();
          exporter = started.child;
          children.push(exporter);
          const scrape = () =>
            void fetch(started.url)
              .then((res) => res.arrayBuffer())
              .then(
                () => scrapes++,
                () => scrapeErrors++,
              );
          scrape();
          scraper = setInterval(scrape, SCRAPE_INTERVAL_MS);
        } catch (err) {
          exporter = (err as Error).message;
        }
      }

      await sleep(WARMUP_S * 1000);
      const meters = children.map((c) => new Meter(c));
      for (const m of meters) m.start();
      const started = performance.now();
      while (performance.now() - started < WINDOW_S * 1000) {
        for (const m of meters) m.sampleRss();
        await sleep(RSS_EVERY_MS);
      }
      const windowS = (performance.now() - started) / 1000;
      const result = (c: Child | string) =>
        typeof c === 'string' ? c : meters.find((m) => m.child === c)!.finish(windowS, hz);
      const agentResult = result(agent);
      const exporterResult = result(exporter);

      // What the numbers stand on, for whoever reads them: runs, scrapes, processes on the machine.
      const { readStatusFile } = await import('@flightdeck/agent');
      const status = readStatusFile(join(dir, 'state'));
      const runs =
        status && !('problem' in status)
          ? `${status.runs} runs, ${status.published} published`
          : 'no status file';
      const processes = readdirSync('/proc').filter((n) => /^\d+$/.test(n)).length;
      const memory = (r: typeof agentResult) =>
        typeof r === 'string' ? '-' : `mean RSS ${r.rssMeanMb} MB (own ${r.anonMeanMb} MB, RssAnon)`;
      console.error(
        `agent bench: ${round(windowS, 1)} s window after ${WARMUP_S} s, ${processes} processes on the machine; ` +
          `agent ${runs}, ${memory(agentResult)}; node_exporter ${scrapes} scrapes (${scrapeErrors} failed), ${memory(exporterResult)}`,
      );
      return [...figuresOf('agent', agentResult, true), ...figuresOf('node_exporter', exporterResult, false)];
    } finally {
      clearInterval(scraper);
      await Promise.all(children.map((c) => c.stop()));
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
