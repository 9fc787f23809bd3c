import { parseArgs } from 'node:util';
import { createDb, ensureSystemAdmin, loadApiConfig, migrateToLatest } from '@flightdeck/api';
import { createMetricStore } from '@flightdeck/collector/store';
import { ConfigError } from '@flightdeck/schemas';
import pino from 'pino';
import { type DemoDataOptions, fillDemoData } from './fill';

export const DEMO_DATA_USAGE = `Usage: npm run demo-data -- [--hosts N] [--days D] [--interval S] [--seed N] [--tenant ID]

Fills the metric store and metadata DB that \`npm start\` uses (DATA_DIR, METRICS_STORE,
DATABASE_URL) with demo hosts: web servers, databases and batch workers, with office hours,
quiet weekends, nightly jobs and a few incidents. Run it while Flightdeck is stopped.

  --hosts N      hosts to make (1-1000, default 10)
  --days D       days of data up to now (up to 90, default 7)
  --interval S   seconds between samples (10-3600, default 60)
  --seed N       the same seed gives the same data (default 1)
  --tenant ID    customer the hosts belong to (default 1, the first customer)
`;

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

/** Parses the command line; a string is the problem to show with the usage. */
export function parseDemoArgs(
  argv: readonly string[],
): Required<Omit<DemoDataOptions, 'end' | 'utcOffsetMinutes' | 'coreSeries'>> | string {
  let values: Record<string, string | undefined>;
  try {
    const parsed = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        hosts: { type: 'string' },
        days: { type: 'string' },
        interval: { type: 'string' },
        seed: { type: 'string' },
        tenant: { type: 'string' },
      },
    });
    values = parsed.values as Record<string, string | undefined>;
  } catch (err) {
    return (err as Error).message;
  }
  const int = (name: string, fallback: number, min: number, max: number): number | string => {
    const text = values[name];
    if (text === undefined) return fallback;
    const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
    return Number.isSafeInteger(n) && n >= min && n <= max
      ? n
      : `--${name}: expected a whole number from ${min} to ${max} (got "${text}")`;
  };
  const hosts = int('hosts', 10, 1, 1000);
  const interval = int('interval', 60, 10, 3600);
  const seed = int('seed', 1, 0, 2 ** 32 - 1);
  const daysText = values.days;
  const days = daysText === undefined ? 7 : /^\d+(\.\d+)?$/.test(daysText) ? Number(daysText) : Number.NaN;
  const tenant = values.tenant ?? '1';
  for (const v of [hosts, interval, seed]) if (typeof v === 'string') return v;
  if (!(days > 0 && days <= 90))
    return `--days: expected a number of days above 0, at most 90 (got "${daysText}")`;
  if (!/^[1-9][0-9]{0,15}$/.test(tenant)) return `--tenant: expected a customer id (got "${tenant}")`;
  return {
    hosts: hosts as number,
    days,
    intervalSeconds: interval as number,
    seed: seed as number,
    tenant,
  };
}

const fmt = (n: number) => n.toLocaleString('en-US');

/**
 * `npm run demo-data`: fills the product's stores (read from the environment like `npm start`, and
 * bootstrapped like it on a first run). Resolves with the exit code: 0 done, 1 failed, 2 bad usage
 * or configuration.
 */
export async function runDemoDataCli(
  argv: readonly string[],
  env: Record<string, string | undefined>,
  io: CliIo,
): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.out(DEMO_DATA_USAGE);
    return 0;
  }
  const options = parseDemoArgs(argv);
  if (typeof options === 'string') {
    io.err(`demo-data: ${options}\n\n${DEMO_DATA_USAGE}`);
    return 2;
  }
  let config: ReturnType<typeof loadApiConfig>;
  try {
    config = loadApiConfig(env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    io.err(`demo-data: ${err.message}\n`);
    return 2;
  }
  const logger = pino({ level: env.LOG_LEVEL ?? 'warn' }, pino.destination(2));
  const db = createDb(config.DATABASE_URL);
  let store: Awaited<ReturnType<typeof createMetricStore>> | undefined;
  try {
    await migrateToLatest(db);
    const admin = await ensureSystemAdmin(db, {
      email: config.FLIGHTDECK_ADMIN_EMAIL,
      password: config.FLIGHTDECK_ADMIN_PASSWORD,
    });
    if (admin.created) {
      io.out(`First start: the system administrator was created.\n  e-mail:   ${admin.email}\n`);
      if (admin.password) io.out(`  password: ${admin.password}   (shown once: keep it now)\n`);
    }
    store = await createMetricStore(config.METRICS_STORE);
    io.out(
      `Filling ${config.METRICS_STORE} with ${options.hosts} hosts, ${options.days} days at ${options.intervalSeconds} s (seed ${options.seed}, tenant ${options.tenant})\n`,
    );
    let shown = -1;
    const result = await fillDemoData({
      ...options,
      store,
      db,
      logger,
      // Office hours in the time zone of whoever runs it, so the charts look right on this machine.
      utcOffsetMinutes: -new Date().getTimezoneOffset(),
      onProgress: (p) => {
        const pct = Math.floor((p.done / p.ticks) * 10) * 10;
        if (pct === shown) return;
        shown = pct;
        io.out(
          `  ${String(pct).padStart(3)} %  ${fmt(p.samples)} samples  ${(p.elapsedMs / 1000).toFixed(1)} s\n`,
        );
      },
    });
    const seconds = result.elapsedMs / 1000;
    const { plan } = result;
    io.out(
      [
        `Wrote ${fmt(result.samples)} samples of ${fmt(result.series)} series in ${fmt(result.batches)} batches in ${seconds.toFixed(1)} s (${fmt(Math.round(result.samples / seconds))} samples/s).`,
        `Range: ${new Date(plan.start).toISOString()} to ${new Date(plan.end).toISOString()}.`,
        `Hosts registered for customer ${plan.tenant}: ${result.registered.join(', ')}.`,
        'Incidents:',
        ...plan.incidents.map((i) => {
          const where =
            i.kind === 'disk_fill' ? ` ${i.mount}` : i.kind === 'network_burst' ? ` ${i.interface}` : '';
          return `  ${i.kind.padEnd(14)} ${i.host}${where}  ${new Date(i.start).toISOString()} to ${new Date(i.end).toISOString()}`;
        }),
        '',
      ].join('\n'),
    );
    return 0;
  } catch (err) {
    io.err(`demo-data: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  } finally {
    await store?.close();
    await db.destroy();
  }
}
