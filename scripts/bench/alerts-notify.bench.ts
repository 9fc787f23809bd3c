import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import {
  createApp,
  createDb,
  hashPassword,
  loadApiConfig,
  migrateToLatest,
  startAlertService,
  startServer,
} from '@flightdeck/api';
import { type AlertEngine, createIngest, startAlertEngine } from '@flightdeck/collector';
import { createInProcessBus } from '@flightdeck/collector/bus';
import { createSqliteStore } from '@flightdeck/collector/store';
import { waitFor } from '@flightdeck/collector/testing';
import { AlertEvent, SigninData } from '@flightdeck/schemas';
import pino from 'pino';
import { type Benchmark, type Figure, percentile, round } from './harness';

const HOSTS = 100;
const MOUNTS_PER_HOST = 100;
/** 10,000 alerts: one per (host, mount) series. */
const ALERTS = HOSTS * MOUNTS_PER_HOST;
/**
 * Samples crossing the threshold per second, in bursts every 100 ms: a steady storm of new alerts,
 * each e-mailed to the one recipient. One recipient's e-mails go out one after another (the queue
 * keeps them in order), about 5 ms each against a local server, so this rate keeps the e-mail
 * queue below its capacity and the figure measures latency, not a growing backlog.
 */
const RATE_PER_S = 50;
const BURST_MS = 100;
const PASSWORD = 'bench-password-1';

/**
 * The series an event or an e-mail is about: the host from the event's text (`host-7: /m42 is 95 %
 * full`) or the e-mail's "Server:" line, and the mount from the text.
 */
function seriesOf(text: string): string | undefined {
  const host = /^(host-\d+): /.exec(text)?.[1] ?? /^Server: (host-\d+)$/m.exec(text)?.[1];
  const mount = /(\/m\d+) is /.exec(text)?.[1];
  return host && mount ? `${host} ${mount}` : undefined;
}

/** The SMTP server in a child process; `arrivals` maps each series to when its e-mail was accepted. */
async function startSmtpProcess() {
  const script = join(dirname(fileURLToPath(import.meta.url)), 'alerts-notify-smtp.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const arrivals = new Map<string, number>();
  const lines = createInterface({ input: child.stdout! });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the SMTP server process exited with ${code}`)));
    lines.on('line', (line) => {
      const msg = JSON.parse(line) as { port?: number; text?: string; at?: number };
      if (msg.port !== undefined) resolve(msg.port);
      const key = msg.text !== undefined ? seriesOf(msg.text) : undefined;
      if (key && msg.at !== undefined && !arrivals.has(key)) arrivals.set(key, msg.at);
    });
  });
  return { port, arrivals, stop: () => child.kill('SIGTERM') };
}

/**
 * From a sample published on the bus to its alert stored, delivered to an SSE client and accepted
 * by a local SMTP server, for 10,000 alerts, in the embedded layout of `npm start`: one process,
 * SQLite metadata DB and metric store, in-process bus, the collector's ingest and alert engine, the
 * api's alert service with its e-mail queue, and the HTTP server streaming `GET /api/events`.
 * Each sample crosses an all-servers threshold on a new series (host, mount), so each raises one
 * alert, one event and one e-mail; samples go out at a steady rate.
 */
async function measure(): Promise<{ total: number[]; sse: number[]; email: number[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'fd-bench-alerts-'));
  const logger = pino({ level: 'silent' });
  const smtp = await startSmtpProcess();
  const mailAt = smtp.arrivals;
  const config = loadApiConfig({ DATA_DIR: dir, SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
  const db = createDb(config.DATABASE_URL);
  await migrateToLatest(db);
  const store = createSqliteStore({ path: config.METRICS_STORE });
  const bus = createInProcessBus({ logger, maxQueuedBatches: ALERTS * 2 });
  const alerts = await startAlertService({ db, bus, logger, config });
  let engine: AlertEngine | undefined;
  const ingest = createIngest({ bus, store, logger, onWritten: (b) => engine?.evaluate(b) });
  await ingest.start();
  engine = await startAlertEngine({ bus, logger });
  const app = createApp({ db, store, bus, config, logger, version: 'bench', alerts });
  const server = await startServer(app, 0, '127.0.0.1');

  const plan = await db
    .selectFrom('plans')
    .select('id')
    .where('code', '=', 'enterprise')
    .executeTakeFirstOrThrow();
  const now = Math.floor(Date.now() / 1000);
  const customer = await db
    .insertInto('customers')
    .values({ name: 'bench', plan_id: plan.id, register_in: now, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const user = await db
    .insertInto('users')
    .values({
      customer_id: customer.id,
      email: 'bench@example.com',
      name: 'Bench',
      password_hash: await hashPassword(PASSWORD),
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (let h = 0; h < HOSTS; h++) {
    await db
      .insertInto('servers')
      .values({ customer_id: customer.id, host_key: `host-${h}`, hostname: `host-${h}`, created_at: now })
      .execute();
  }
  await db
    .insertInto('notification_integrations')
    .values({
      customer_id: customer.id,
      user_id: user.id,
      channel: 'email',
      target: 'bench@example.com',
      created_at: now,
      updated_at: now,
      last_sent_at: null,
      last_error: null,
    })
    .execute();
  const base = `http://127.0.0.1:${server.port}/api`;
  const post = (path: string, body: unknown, token?: string) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
  const signin = await post('/signin', { email: 'bench@example.com', password: PASSWORD });
  const { token } = SigninData.parse(((await signin.json()) as { data: unknown }).data);
  const th = await post(
    '/services_monitored/alerts/defined_threshold',
    { server_id: null, metric: 'disk.used_pct', operator: 'gt', red: 90 },
    token,
  );
  if (th.status !== 200) throw new Error(`threshold not saved: ${await th.text()}`);
  await engine.refresh();

  // The SSE client: a real HTTP stream, parsed as it arrives.
  const sseAt = new Map<string, number>();
  const controller = new AbortController();
  const events = await fetch(`${base}/events`, {
    headers: { Authorization: `Bearer ${token}` },
    signal: controller.signal,
  });
  const reading = (async () => {
    const reader = events.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      for (let i = buffer.indexOf('\n\n'); i >= 0; i = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        if (!block.startsWith('event: alert')) continue;
        const at = performance.timeOrigin + performance.now();
        const data = block.split('\n').find((l) => l.startsWith('data: '))!;
        const event = AlertEvent.parse(JSON.parse(data.slice(6)));
        const key = seriesOf(event.alert.text);
        if (key && event.event === 'new') sseAt.set(key, at);
      }
    }
  })().catch(() => {});

  const sentAt = new Map<string, number>();
  const perBurst = Math.round((RATE_PER_S * BURST_MS) / 1000);
  const started = performance.now();
  for (let i = 0; i < ALERTS; i += perBurst) {
    const due = started + (i / perBurst) * BURST_MS;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    for (let j = i; j < Math.min(ALERTS, i + perBurst); j++) {
      const host = `host-${j % HOSTS}`;
      const mount = `/m${Math.floor(j / HOSTS)}`;
      sentAt.set(`${host} ${mount}`, performance.timeOrigin + performance.now());
      await bus.publishMetrics({
        v: 1,
        tenant: String(customer.id),
        host,
        source: 'agent',
        ts: Date.now(),
        samples: [{ m: 'disk.used_pct', l: { mount }, v: 95 }],
      });
    }
  }
  await waitFor(
    () => sseAt.size >= ALERTS && mailAt.size >= ALERTS,
    'every alert on SSE and by e-mail',
    120_000,
  );

  const total: number[] = [];
  const sse: number[] = [];
  const email: number[] = [];
  for (const [key, t0] of sentAt) {
    const s = sseAt.get(key)! - t0;
    const e = mailAt.get(key)! - t0;
    sse.push(s);
    email.push(e);
    total.push(Math.max(s, e));
  }
  controller.abort();
  await reading;
  await server.close(100);
  await engine.stop();
  await alerts.stop();
  await ingest.stop();
  await bus.close();
  await store.close();
  await db.destroy();
  smtp.stop();
  rmSync(dir, { recursive: true, force: true });
  const sorted = (xs: number[]) => xs.sort((a, b) => a - b);
  return { total: sorted(total), sse: sorted(sse), email: sorted(email) };
}

const FIGURES = [
  'alerts.sample_to_notify.p50',
  'alerts.sample_to_notify.p99',
  'alerts.sample_to_notify.sse.p99',
  'alerts.sample_to_notify.email.p99',
] as const;

export const benchmark: Benchmark = {
  figures: FIGURES,
  async run(): Promise<Figure[]> {
    const { total, sse, email } = await measure();
    const ms = (name: (typeof FIGURES)[number], xs: number[], p: number): Figure => ({
      name,
      value: round(percentile(xs, p), 1),
      unit: 'ms',
    });
    return [
      ms('alerts.sample_to_notify.p50', total, 50),
      { ...ms('alerts.sample_to_notify.p99', total, 99), target: { max: 1000 } },
      ms('alerts.sample_to_notify.sse.p99', sse, 99),
      ms('alerts.sample_to_notify.email.p99', email, 99),
    ];
  },
};
