import { randomBytes } from 'node:crypto';
import { createServer, type Socket, connect as tcpConnect } from 'node:net';
import { PollerExtras, PostgresPollerConfig } from '@flightdeck/schemas';
import pg from 'pg';
import pino, { type Logger } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { Poller, PollSuccess } from './contract';
import { createPostgresPoller, PG_IDLE_CONNECTION_MS } from './postgres';
import { outsideCatalogue, sampleValue } from './testing/catalogue';
import {
  freePort,
  ownConnectionsTo,
  recordingLogger,
  silentServer,
  unansweredPort,
  waitFor,
} from './testing/net';
import { ok } from './testing/poll';
import { startOwnPostgres } from './testing/postgres-cluster';

/** Against the PostgreSQL server of this machine (127.0.0.1:5432, trust) and a cluster of the test's own. */

const logger = pino({ level: 'silent' });
const SHARED = { host: '127.0.0.1', port: 5432, user: 'postgres', database: 'postgres' };
const opened: Poller[] = [];

function poller(over: Record<string, unknown> = {}, log: Logger = logger): Poller {
  const config = PostgresPollerConfig.parse({
    ...SHARED,
    connect_timeout_ms: 2000,
    query_timeout_ms: 5000,
    long_query_s: 1,
    ...over,
  });
  const p = createPostgresPoller(config, { logger: log });
  opened.push(p);
  return p;
}

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await work();
  return { result, ms: performance.now() - started };
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((p) => p.close()));
});

describe('PostgreSQL poller: connection test', () => {
  it('connects and says what answered', async () => {
    const result = await poller().testConnection();
    expect(result).toMatchObject({
      ok: true,
      details: { engine: 'PostgreSQL', database: 'postgres', role: 'primary' },
    });
    if (result.ok) expect(result.version).toMatch(/^\d+(\.\d+)?/);
  });

  it('gives auth_failed for a wrong password, naming host:port and the user', async () => {
    const own = await startOwnPostgres('right-secret');
    try {
      const wrong = await poller({ port: own.port, password: 'wrong-secret' }).testConnection();
      expect(wrong).toMatchObject({ ok: false, code: 'auth_failed' });
      if (!wrong.ok) {
        expect(wrong.message).toContain(`127.0.0.1:${own.port}`);
        expect(wrong.message).toContain('"postgres"');
        expect(wrong.message).toContain('Authentication error');
      }
      expect(await poller({ port: own.port, password: '' }).testConnection()).toMatchObject({
        code: 'auth_failed',
      });
      expect(await poller({ port: own.port, password: 'right-secret' }).testConnection()).toMatchObject({
        ok: true,
      });
    } finally {
      await Promise.all(opened.splice(0).map((p) => p.close()));
      await own.stop();
    }
  });

  it('gives connection_failed at once for a port nobody listens on', async () => {
    const port = await freePort();
    const { result, ms } = await timed(() => poller({ port }).testConnection());
    expect(result).toMatchObject({ ok: false, code: 'connection_failed' });
    if (!result.ok) expect(result.message).toContain(`127.0.0.1:${port}`);
    expect(ms).toBeLessThan(1000);
  });

  it('gives timeout within the connect time-out for a host that never answers', async () => {
    const unanswered = await unansweredPort();
    try {
      const { result, ms } = await timed(() =>
        poller({ port: unanswered.port, connect_timeout_ms: 1500 }).testConnection(),
      );
      expect(result).toMatchObject({ ok: false, code: 'timeout' });
      if (!result.ok) expect(result.message).toContain(`127.0.0.1:${unanswered.port}`);
      expect(ms).toBeGreaterThanOrEqual(1400);
      expect(ms).toBeLessThan(2500);
    } finally {
      await unanswered.close();
    }
  });

  it('gives timeout, not a hang, for a server that accepts and stays silent, in a poll too', async () => {
    const silent = await silentServer();
    try {
      const p = poller({ port: silent.port, connect_timeout_ms: 1000 });
      const test = await timed(() => p.testConnection());
      expect(test.result).toMatchObject({ ok: false, code: 'timeout' });
      expect(test.ms).toBeLessThan(2000);
      const poll = await timed(() => p.poll(Date.now()));
      expect(poll.result).toMatchObject({ ok: false, code: 'timeout' });
      expect(poll.ms).toBeLessThan(2000);
    } finally {
      await silent.close();
    }
  });

  it('gives wrong_engine when the port is a MySQL server', async () => {
    const result = await poller({ port: 3306 }).testConnection();
    expect(result).toMatchObject({ ok: false, code: 'wrong_engine' });
    if (!result.ok) expect(result.message).toMatch(/127\.0\.0\.1:3306 answers as a MySQL or MariaDB server/);
  });

  it('gives not_found for a database that does not exist', async () => {
    const result = await poller({ database: 'fd_no_such_database' }).testConnection();
    expect(result).toMatchObject({ ok: false, code: 'not_found' });
    if (!result.ok) expect(result.message).toContain('fd_no_such_database');
  });

  it('gives tls_error when TLS is asked of a server without it', async () => {
    const result = await poller({ tls: { enabled: true } }).testConnection();
    expect(result).toMatchObject({ ok: false, code: 'tls_error' });
  });
});

describe('PostgreSQL poller: polls', () => {
  it('survives the connection being cut while a poll runs: the poll fails, the process stays up', async () => {
    // A relay to the shared server that cuts both sockets when the first query after start-up
    // passes (a simple-query "Q" or extended-protocol "P" message): a network drop mid-poll.
    const sockets = new Set<Socket>();
    let cut = 0;
    const relay = createServer((client) => {
      const upstream = tcpConnect(SHARED.port, SHARED.host);
      sockets.add(client).add(upstream);
      let started = false;
      client.on('data', (chunk) => {
        const type = String.fromCharCode(chunk[0] ?? 0);
        if (started && (type === 'Q' || type === 'P')) {
          cut++;
          client.destroy();
          upstream.destroy();
          return;
        }
        upstream.write(chunk);
      });
      upstream.on('data', (chunk) => {
        // ReadyForQuery ("Z") ends the start-up exchange.
        if (chunk.includes(0x5a)) started = true;
        client.write(chunk);
      });
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    const port = (relay.address() as { port: number }).port;
    try {
      const { logger: recording, warnings } = recordingLogger();
      const p = poller({ host: '127.0.0.1', port }, recording);
      const result = await p.poll(Date.now());
      expect(cut).toBeGreaterThanOrEqual(1);
      expect(result).toMatchObject({ ok: false, code: 'connection_failed' });
      expect(warnings().some((w) => w.msg === 'connection lost during a poll')).toBe(true);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => relay.close(resolve));
    }
  });

  it('holds no connection between polls: it closes once idle and reconnects for the next', async () => {
    const p = poller();
    ok(await p.poll(Date.now()));
    expect(ownConnectionsTo(SHARED.port)).toBe(1);
    await waitFor(
      () => ownConnectionsTo(SHARED.port) === 0,
      PG_IDLE_CONNECTION_MS + 3_000,
      'the idle connection to close',
    );
    ok(await p.poll(Date.now()));
    expect(ownConnectionsTo(SHARED.port)).toBe(1);
  });

  it('publishes gauges on the first poll and rates from the second, all in the catalogue', async () => {
    const { logger: recording, warnings } = recordingLogger();
    const p = poller({}, recording);
    const t0 = Date.now();
    const first = ok(await p.poll(t0));
    expect(outsideCatalogue(first.samples)).toEqual([]);
    expect(sampleValue(first.samples, 'pg.max_connections')).toBeGreaterThan(0);
    expect(sampleValue(first.samples, 'pg.connections_total')).toBeGreaterThanOrEqual(1);
    expect(sampleValue(first.samples, 'pg.uptime')).toBeGreaterThan(0);
    expect(sampleValue(first.samples, 'pg.connections', { database: 'postgres' })).toBeGreaterThanOrEqual(1);
    expect(sampleValue(first.samples, 'pg.database_size_bytes', { database: 'postgres' })).toBeGreaterThan(0);
    expect(first.samples.filter((s) => s.m.endsWith('_rate'))).toEqual([]);
    expect(PollerExtras.safeParse(first.extras).success).toBe(true);
    expect(first.extras?.replication?.role).toBe('standalone');
    expect(first.extras?.databases?.some((d) => d.name === 'postgres')).toBe(true);

    await new Promise((r) => setTimeout(r, 1100));
    const second = ok(await p.poll(Date.now()));
    expect(outsideCatalogue(second.samples)).toEqual([]);
    // The first poll's own statements committed in between.
    expect(sampleValue(second.samples, 'pg.xact_commit_rate', { database: 'postgres' })).toBeGreaterThan(0);
    expect(sampleValue(second.samples, 'pg.xact_commit_rate')).toBeGreaterThan(0);
    expect(sampleValue(second.samples, 'pg.wal_bytes_rate')).toBeGreaterThanOrEqual(0);
    expect(sampleValue(second.samples, 'pg.checkpoints_timed_rate')).toBeGreaterThanOrEqual(0);
    // Sizes are read every size_interval_s, not on every poll.
    expect(second.extras?.databases).toBeUndefined();
    // Every optional section read.
    expect(warnings()).toEqual([]);
    expect(sampleValue(second.samples, 'pg.database_size_bytes', { database: 'postgres' })).toBeUndefined();
  });

  it('gives up a section that waits on a lock after the time-out, warns naming the target, and polls on', async () => {
    const table = `fd_poller_busy_${randomBytes(4).toString('hex')}`;
    const locker = new pg.Client(SHARED);
    await locker.connect();
    try {
      await locker.query(`CREATE TABLE ${table} (id int)`);
      await locker.query('BEGIN');
      await locker.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
      const { logger: recording, warnings } = recordingLogger();
      const p = poller({ query_timeout_ms: 1000 }, recording);
      const started = performance.now();
      const result = ok(await p.poll(Date.now()));
      expect(performance.now() - started).toBeLessThan(4000);
      expect(sampleValue(result.samples, 'pg.connections_total')).toBeGreaterThanOrEqual(1);
      expect(result.extras?.tables).toBeUndefined();
      expect(warnings()).toEqual([
        expect.objectContaining({ service: 'postgresql', target: '127.0.0.1:5432', section: 'sizes' }),
      ]);
    } finally {
      await locker.query('ROLLBACK');
      await locker.query(`DROP TABLE IF EXISTS ${table}`);
      await locker.end();
    }
  });

  it('lists a long-running query and a blocked session with the session blocking it', async () => {
    const table = `fd_poller_lock_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client(SHARED);
    const holder = new pg.Client({ ...SHARED, application_name: 'fd-test-holder' });
    const waiter = new pg.Client({ ...SHARED, application_name: 'fd-test-waiter' });
    const sleeper = new pg.Client({ ...SHARED, application_name: 'fd-test-sleeper' });
    const clients = [admin, holder, waiter, sleeper];
    const pending: Promise<unknown>[] = [];
    try {
      await Promise.all(clients.map((c) => c.connect()));
      const pid = async (c: pg.Client) =>
        (await c.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
      const [holderPid, waiterPid, sleeperPid] = [await pid(holder), await pid(waiter), await pid(sleeper)];
      await admin.query(`CREATE TABLE ${table} (id int PRIMARY KEY, v text)`);
      await admin.query(`INSERT INTO ${table} VALUES (1, 'a')`);
      await holder.query('BEGIN');
      await holder.query(`UPDATE ${table} SET v = 'held' WHERE id = 1`);
      pending.push(waiter.query(`UPDATE ${table} SET v = 'waiting' WHERE id = 1`).catch((e: Error) => e));
      pending.push(sleeper.query('SELECT pg_sleep(30)').catch((e: Error) => e));

      const p = poller();
      let last: PollSuccess | undefined;
      await waitFor(
        async () => {
          last = ok(await p.poll(Date.now()));
          return (
            (last.extras?.long_queries ?? []).some((q) => q.id === sleeperPid) &&
            (last.extras?.blocked_sessions ?? []).some((b) => b.id === waiterPid)
          );
        },
        10_000,
        'the sleeping query and the blocked session to show',
      );
      const extras = last!.extras!;
      expect(PollerExtras.safeParse(extras).success).toBe(true);
      const long = extras.long_queries!.find((q) => q.id === sleeperPid)!;
      expect(long).toMatchObject({
        query: 'SELECT pg_sleep(30)',
        state: 'active',
        application: 'fd-test-sleeper',
      });
      expect(long.duration_s).toBeGreaterThanOrEqual(1);
      const blocked = extras.blocked_sessions!.find((b) => b.id === waiterPid)!;
      expect(blocked.query).toContain(`UPDATE ${table}`);
      expect(blocked.wait).toMatch(/^Lock:/);
      expect(blocked.blocked_by).toHaveLength(1);
      expect(blocked.blocked_by[0]).toMatchObject({
        id: holderPid,
        state: 'idle in transaction',
        application: 'fd-test-holder',
      });
      expect(sampleValue(last!.samples, 'pg.blocked_sessions')).toBeGreaterThanOrEqual(1);
      expect(sampleValue(last!.samples, 'pg.long_queries')).toBeGreaterThanOrEqual(1);
      expect(sampleValue(last!.samples, 'pg.sessions_idle_in_transaction')).toBeGreaterThanOrEqual(1);
      // The poller's own session is counted but not listed.
      expect(extras.sessions!.some((s) => s.application === 'flightdeck-poller')).toBe(false);
    } finally {
      await admin
        .query('SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [
          'fd-test-sleeper',
        ])
        .catch(() => undefined);
      await holder.query('ROLLBACK').catch(() => undefined);
      await Promise.all(pending);
      await admin.query(`DROP TABLE IF EXISTS ${table}`);
      await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
    }
  });
});
