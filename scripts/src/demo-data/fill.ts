import { type Db, startHostRegistry } from '@flightdeck/api';
import { createInProcessBus } from '@flightdeck/collector/bus';
import type { MetricStore } from '@flightdeck/collector/store';
import { type MetricBatch, PRODUCT_VERSION, type Sample, SubjectToken } from '@flightdeck/schemas';
import pino, { type Logger } from 'pino';
import { HostModel } from './host-model';
import { type Incident, planIncidents } from './incidents';
import { type DemoHost, demoHosts } from './profiles';
import { Random } from './random';

const DAY_MS = 86_400_000;
/** Samples per `store.write` call: large enough that a transaction's cost is spread thin. */
const SAMPLES_PER_WRITE = 200_000;

export interface DemoDataOptions {
  /** Number of hosts (1-1000). */
  hosts: number;
  /** Days of data before `end` (default 7; at most 90). */
  days?: number;
  /** Seconds between samples (default 60; 10 to 3600). */
  intervalSeconds?: number;
  /** Same seed, same data (default 1). */
  seed?: number;
  /** Tenant of the series; with `db`, the id of the customer the hosts are registered to (default "1"). */
  tenant?: string;
  /** Unix ms the data ends at (default now). */
  end?: number;
  /** Offset from UTC of the hosts' office hours (default 0: UTC). */
  utcOffsetMinutes?: number;
  /** Per-core series for this many cores of each host (default 4); the all-cores series always come. */
  coreSeries?: number;
}

export interface DemoPlan {
  tenant: string;
  hosts: DemoHost[];
  incidents: Incident[];
  /** Unix ms of the first and last instant. */
  start: number;
  end: number;
  intervalSeconds: number;
  /** Instants per host. */
  ticks: number;
  seed: number;
  utcOffsetMinutes: number;
  coreSeries: number;
}

function checkedInt(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`${name}: expected a whole number from ${min} to ${max} (got ${value})`);
  }
  return value;
}

/** The hosts, instants and incidents of a demo data set. Bad options throw a RangeError naming the option. */
export function planDemoData(options: DemoDataOptions): DemoPlan {
  const hostCount = checkedInt('hosts', options.hosts, 1, 1000);
  const days = options.days ?? 7;
  if (!(days > 0 && days <= 90))
    throw new RangeError(`days: expected more than 0 and at most 90 (got ${days})`);
  const intervalSeconds = checkedInt('intervalSeconds', options.intervalSeconds ?? 60, 10, 3600);
  const seed = checkedInt('seed', options.seed ?? 1, 0, 2 ** 32 - 1);
  const tenant = options.tenant ?? '1';
  if (!SubjectToken.safeParse(tenant).success) {
    throw new RangeError(`tenant: expected letters, digits, "_" or "-" (got ${JSON.stringify(tenant)})`);
  }
  const utcOffsetMinutes = checkedInt('utcOffsetMinutes', options.utcOffsetMinutes ?? 0, -720, 840);
  const coreSeries = checkedInt('coreSeries', options.coreSeries ?? 4, 0, 256);
  const intervalMs = intervalSeconds * 1000;
  const end = Math.floor((options.end ?? Date.now()) / intervalMs) * intervalMs;
  const ticks = Math.max(1, Math.round((days * DAY_MS) / intervalMs));
  const start = end - (ticks - 1) * intervalMs;
  const hosts = demoHosts(hostCount);
  const incidents = planIncidents(hosts, new Random(seed).fork(0xbad), { start, end, utcOffsetMinutes });
  return { tenant, hosts, incidents, start, end, intervalSeconds, ticks, seed, utcOffsetMinutes, coreSeries };
}

/**
 * The batches of a plan in time order, one per host and instant (as its agent would send them,
 * `source: 'demo'`), yielded in groups of about {@link SAMPLES_PER_WRITE} samples. Pure: the same
 * plan always yields the same batches.
 */
export function* demoBatches(plan: DemoPlan): Generator<MetricBatch[]> {
  const root = new Random(plan.seed);
  const intervalMs = plan.intervalSeconds * 1000;
  const hosts = plan.hosts.map((h, i) => {
    const rng = root.fork(i + 1);
    // Agents start at different moments: each host samples a fixed few seconds before the grid.
    const offset = rng.int(0, Math.min(intervalMs / 2, 5000) - 1);
    const model = new HostModel(h, rng, plan.incidents, plan.start, plan.utcOffsetMinutes, plan.coreSeries);
    return { key: h.key, offset, model };
  });
  let group: MetricBatch[] = [];
  let samples = 0;
  for (let tick = 0; tick < plan.ticks; tick++) {
    const t = plan.start + tick * intervalMs;
    for (const h of hosts) {
      const out: Sample[] = [];
      if (h.model.emit(t - h.offset, plan.intervalSeconds, out) === 0) continue;
      group.push({ v: 1, tenant: plan.tenant, host: h.key, source: 'demo', ts: t - h.offset, samples: out });
      samples += out.length;
    }
    if (samples >= SAMPLES_PER_WRITE) {
      yield group;
      group = [];
      samples = 0;
    }
  }
  if (group.length > 0) yield group;
}

export interface DemoProgress {
  /** Instants written so far, of `ticks`. */
  done: number;
  ticks: number;
  samples: number;
  elapsedMs: number;
}

export interface FillDemoDataOptions extends DemoDataOptions {
  store: MetricStore;
  /** When given, the hosts are registered as servers of customer `tenant`, as their heartbeats would. */
  db?: Db;
  logger?: Logger;
  onProgress?: (progress: DemoProgress) => void;
}

export interface DemoDataResult {
  plan: DemoPlan;
  samples: number;
  batches: number;
  /** Distinct series written. */
  series: number;
  /** Host keys registered in the metadata DB (empty without `db`). */
  registered: string[];
  elapsedMs: number;
}

/**
 * Fills a metric store with demo data for benchmarks and screenshots: N hosts of three kinds (web
 * servers, databases, batch workers) over D days, every metric the Linux agent publishes, with
 * office hours, quiet weekends, nightly jobs, noise and a few incidents (see {@link planIncidents}),
 * written through the store contract with `source: 'demo'`. With `db`, the hosts are registered
 * through the heartbeat registry with a plausible inventory, so they show in the console's list.
 */
export async function fillDemoData(options: FillDemoDataOptions): Promise<DemoDataResult> {
  const started = performance.now();
  const plan = planDemoData(options);
  const logger = options.logger ?? pino({ level: 'warn' });
  // Fail before writing a week of samples when the hosts could not be registered afterwards.
  const customerId = options.db ? await customerOf(options.db, plan.tenant) : undefined;

  let samples = 0;
  let batches = 0;
  const seriesPerHost = new Map<string, number>();
  for (const group of demoBatches(plan)) {
    const result = await options.store.write(group);
    samples += result.samples;
    batches += result.batches;
    for (const b of group) {
      if (b.samples.length > (seriesPerHost.get(b.host) ?? 0)) seriesPerHost.set(b.host, b.samples.length);
    }
    const last = group[group.length - 1]!;
    options.onProgress?.({
      done: Math.round((last.ts - plan.start) / (plan.intervalSeconds * 1000)) + 1,
      ticks: plan.ticks,
      samples,
      elapsedMs: performance.now() - started,
    });
  }

  const registered =
    options.db && customerId !== undefined ? await registerHosts(options.db, customerId, plan, logger) : [];
  let series = 0;
  for (const n of seriesPerHost.values()) series += n;
  return { plan, samples, batches, series, registered, elapsedMs: performance.now() - started };
}

async function customerOf(db: Db, tenant: string): Promise<number> {
  const id = /^[1-9][0-9]{0,15}$/.test(tenant) ? Number(tenant) : undefined;
  const row =
    id === undefined
      ? undefined
      : await db.selectFrom('customers').select('id').where('id', '=', id).executeTakeFirst();
  if (!row) {
    throw new Error(`tenant ${tenant}: no customer with this id in the metadata DB to register the hosts to`);
  }
  return row.id;
}

/**
 * Sends each host's heartbeat, inventory included, through the registry the api runs, on a bus of
 * its own, as seen at the end of the data; then checks that every server row is there.
 */
async function registerHosts(db: Db, customerId: number, plan: DemoPlan, logger: Logger): Promise<string[]> {
  const bus = createInProcessBus({ logger });
  const registry = await startHostRegistry({ db, bus, logger, now: () => plan.end });
  try {
    for (const h of plan.hosts) {
      await bus.publishHeartbeat({
        v: 1,
        tenant: plan.tenant,
        host: h.key,
        agent_version: PRODUCT_VERSION,
        interval_s: plan.intervalSeconds,
        spool_depth: 0,
        spool_dropped: 0,
        ts: plan.end,
        inventory: h.inventory,
      });
    }
  } finally {
    await registry.stop();
    await bus.close();
  }
  const keys = plan.hosts.map((h) => h.key);
  const rows = await db
    .selectFrom('servers')
    .select('host_key')
    .where('customer_id', '=', customerId)
    .where('host_key', 'in', keys)
    .execute();
  const found = new Set(rows.map((r) => r.host_key));
  const missing = keys.filter((k) => !found.has(k));
  if (missing.length > 0) {
    throw new Error(`the host registry did not register ${missing.join(', ')} (see the warnings above)`);
  }
  return keys;
}
