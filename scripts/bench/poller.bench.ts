import { readdirSync, readFileSync } from 'node:fs';
import { createPollScheduler, DEFAULT_MAX_CONCURRENT_POLLS, type PollTiming } from '@flightdeck/collector';
import { createInProcessBus } from '@flightdeck/collector/bus';
import type { PollAssignment } from '@flightdeck/schemas';
import pino from 'pino';
import { type Benchmark, type Figure, percentile, round } from './harness';

/** Issue: one collector polls 1,000 registered MySQL and PostgreSQL services at a 60 s interval. */
const PER_ENGINE = 500;
const INTERVAL_S = 60;
/** Three intervals; the first is warm-up (first connections, first size reads, no rates yet). */
const WINDOW_S = Number(process.env.BENCH_POLLER_WINDOW_S ?? 180);
const MAX_LAG_S = 5;
/** A poll may add at most 1% of one core to the monitored database at its interval. */
const MAX_DB_CPU_PCT = 1;

type Engine = 'postgresql' | 'mysql';
const ENGINES: Record<Engine, { comm: string; config: Record<string, unknown> }> = {
  postgresql: {
    comm: 'postgres',
    config: { host: '127.0.0.1', port: 5432, user: 'postgres', database: 'postgres', interval_s: INTERVAL_S },
  },
  mysql: {
    comm: 'mariadbd',
    config: { host: '127.0.0.1', port: 3306, user: 'root', password: '', interval_s: INTERVAL_S },
  },
};

function assignments(): PollAssignment[] {
  const out: PollAssignment[] = [];
  let id = 1;
  for (const service of ['postgresql', 'mysql'] as const) {
    for (let i = 0; i < PER_ENGINE; i++, id++) {
      out.push({
        service_id: id,
        server_id: id,
        tenant: 'bench',
        host: `${service}-${i}`,
        service,
        interval_s: INTERVAL_S,
        config: { ...ENGINES[service].config },
      });
    }
  }
  return out;
}

const TICKS_PER_S = 100; // USER_HZ on Linux

/**
 * CPU seconds used so far by every process named `comm`, reaped children included: PostgreSQL
 * forks a backend per connection, and a backend that exits leaves its time in the postmaster's
 * cutime/cstime, so the sum over live processes plus their reaped children stays whole.
 */
function cpuOf(comm: string): { seconds: number; processes: number } {
  let ticks = 0;
  let processes = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // exited between the listing and the read
    }
    const close = stat.lastIndexOf(')');
    if (stat.slice(stat.indexOf('(') + 1, close) !== comm) continue;
    // Fields after the name start at field 3 (state); utime..cstime are fields 14..17.
    const f = stat.slice(close + 2).split(' ');
    ticks += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
    processes++;
  }
  return { seconds: ticks / TICKS_PER_S, processes };
}

/** Connections established to a port on this machine, whoever holds them, from /proc/net/tcp. */
function connectionsTo(port: number): number {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  let n = 0;
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      // remote address ends with :PORT, state 01 = ESTABLISHED
      if (cols[2]?.endsWith(`:${hex}`) && cols[3] === '01') n++;
    }
  }
  return n;
}

async function measure(): Promise<Figure[]> {
  const logger = pino({ level: 'warn' }, pino.destination(2));
  const bus = createInProcessBus();
  let batches = 0;
  let samples = 0;
  const sub = await bus.consumeMetrics(async (b) => {
    batches++;
    samples += b.samples.length;
  });

  const timings: PollTiming[] = [];
  const scheduler = createPollScheduler({
    assignments: async () => assignments(),
    publish: (b) => bus.publishMetrics(b),
    report: async () => {},
    logger,
    // Longer than the window: the target list stays as registered.
    refreshMs: 3_600_000,
    onPoll: (t) => timings.push(t),
  });

  const started = Date.now();
  const measuredFrom = started + INTERVAL_S * 1000;
  const until = started + WINDOW_S * 1000;
  await scheduler.start();
  await new Promise((r) => setTimeout(r, measuredFrom - Date.now()));

  const cpu0 = process.cpuUsage();
  const db0 = { postgresql: cpuOf(ENGINES.postgresql.comm), mysql: cpuOf(ENGINES.mysql.comm) };
  const peak = { postgresql: 0, mysql: 0 };
  const sampler = setInterval(() => {
    peak.postgresql = Math.max(peak.postgresql, connectionsTo(5432));
    peak.mysql = Math.max(peak.mysql, connectionsTo(3306));
  }, 250);
  await new Promise((r) => setTimeout(r, until - Date.now()));
  clearInterval(sampler);
  const cpu1 = process.cpuUsage(cpu0);
  const db1 = { postgresql: cpuOf(ENGINES.postgresql.comm), mysql: cpuOf(ENGINES.mysql.comm) };
  // Polls planned in the window that started in it; a poll still running at the end is left out.
  const windowed = timings.filter((t) => t.due >= measuredFrom && t.due < until);
  await scheduler.stop();
  await sub.unsubscribe();
  await bus.close();

  const ran = windowed.filter((t): t is PollTiming & { started: number } => t.started !== null);
  const ok = ran.filter((t) => t.outcome === 'ok');
  const failed = windowed.length - ok.length;
  const failures = new Map<string, number>();
  for (const t of windowed)
    if (t.outcome !== 'ok') failures.set(t.outcome, (failures.get(t.outcome) ?? 0) + 1);
  const lags = ran.map((t) => (t.started - t.due) / 1000).sort((a, b) => a - b);
  const durations = ran.map((t) => t.duration_ms).sort((a, b) => a - b);
  const measuredS = (until - measuredFrom) / 1000;
  const cpuMs = (cpu1.user + cpu1.system) / 1000;
  if (ran.length === 0) throw new Error('no poll ran in the measured window');

  const dbFigure = (engine: Engine): Figure => {
    const polls = ran.filter((t) => t.service === engine).length;
    const name = `poller.db_cpu_pct_per_target.${engine}`;
    if (db0[engine].processes === 0) {
      return {
        name,
        value: null,
        unit: '% of one core',
        reason: `no ${ENGINES[engine].comm} process visible in /proc`,
      };
    }
    const cpuS = db1[engine].seconds - db0[engine].seconds;
    // What one poll every interval costs the server, as a share of one core.
    const pct = (cpuS / polls / INTERVAL_S) * 100;
    return {
      name,
      value: round(pct, 4),
      unit: `% of one core per monitored database (${round(cpuS, 1)} s of ${ENGINES[engine].comm} CPU for ${polls} polls in ${measuredS} s, whole server incl. other users; at most ${peak[engine]} connections open to the port, all clients)`,
      target: { max: MAX_DB_CPU_PCT },
    };
  };

  const failNote = failed > 0 ? `: ${[...failures].map(([k, v]) => `${k} ${v}`).join(', ')}` : '';
  return [
    {
      name: 'poller.lag_s.max',
      value: round(lags.at(-1)!, 3),
      unit: `s late at the start of a poll (${ran.length} polls of ${PER_ENGINE * 2} targets at ${INTERVAL_S} s, ${DEFAULT_MAX_CONCURRENT_POLLS} at once, over ${measuredS} s after ${INTERVAL_S} s warm-up)`,
      target: { max: MAX_LAG_S },
    },
    {
      name: 'poller.lag_s.p99',
      value: round(percentile(lags, 99), 3),
      unit: 's late at the start of a poll',
    },
    {
      name: 'poller.poll_ms.p95',
      value: round(percentile(durations, 95), 1),
      unit: 'ms per poll, connect to published',
    },
    {
      name: 'poller.cpu_ms_per_poll',
      value: round(cpuMs / ran.length, 2),
      unit: `ms of collector CPU per poll (${round(cpuMs / 1000, 1)} s for ${ran.length} polls, ${batches} batches / ${samples} samples over the bus in all)`,
    },
    {
      name: 'poller.polls_failed',
      value: failed,
      unit: `of ${windowed.length} polls planned in the window${failNote}`,
      target: { max: 0 },
    },
    dbFigure('postgresql'),
    dbFigure('mysql'),
  ];
}

/**
 * Agentless poller figures (issue: agentless pollers at scale): 500 PostgreSQL and 500 MariaDB
 * targets on the local servers, each its own poller and pool as in production, through the real
 * scheduler; takes BENCH_POLLER_WINDOW_S (default 180 s).
 */
export const benchmark: Benchmark = {
  figures: [
    'poller.lag_s.max',
    'poller.lag_s.p99',
    'poller.poll_ms.p95',
    'poller.cpu_ms_per_poll',
    'poller.polls_failed',
    'poller.db_cpu_pct_per_target.postgresql',
    'poller.db_cpu_pct_per_target.mysql',
  ],
  run: measure,
};
