import { randomBytes } from 'node:crypto';
import { MysqlPollerConfig, PollerExtras } from '@flightdeck/schemas';
import mysql from 'mysql2/promise';
import pino, { type Logger } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { Poller, PollSuccess } from './contract';
import { createMysqlPoller, MYSQL_IDLE_CONNECTION_MS } from './mysql';
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

/** Against the MariaDB server of this machine (127.0.0.1:3306, root without a password). */

const logger = pino({ level: 'silent' });
/** More than InnoDB's 100 ms: the time its transaction and lock-wait views must go unread to refresh. */
const LOCK_CACHE_IDLE_MS = 250;
const SHARED = { host: '127.0.0.1', port: 3306, user: 'root' };
const opened: Poller[] = [];

function poller(over: Record<string, unknown> = {}, log: Logger = logger): Poller {
  const config = MysqlPollerConfig.parse({
    ...SHARED,
    connect_timeout_ms: 2000,
    query_timeout_ms: 5000,
    long_query_s: 1,
    ...over,
  });
  const p = createMysqlPoller(config, { logger: log });
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

describe('MySQL poller: connection test', () => {
  it('connects and says what answered', async () => {
    const result = await poller().testConnection();
    expect(result).toMatchObject({ ok: true, details: { engine: 'MariaDB', user: 'root' } });
    if (result.ok) expect(result.version).toMatch(/MariaDB/);
  });

  it('gives auth_failed for a wrong password, naming host:port and the user', async () => {
    const user = `fd_auth_${randomBytes(3).toString('hex')}`;
    const admin = await mysql.createConnection(SHARED);
    try {
      await admin.query(`CREATE USER '${user}'@'%' IDENTIFIED BY 'right-secret'`);
      const wrong = await poller({ user, password: 'wrong-secret' }).testConnection();
      expect(wrong).toMatchObject({ ok: false, code: 'auth_failed' });
      if (!wrong.ok) {
        expect(wrong.message).toContain('127.0.0.1:3306');
        expect(wrong.message).toContain(`"${user}"`);
        expect(wrong.message).toContain('Authentication error');
      }
      expect(await poller({ user, password: 'right-secret' }).testConnection()).toMatchObject({ ok: true });

      // A user without the PROCESS privilege still polls; what it may not read is warned about, once.
      const { logger: recording, warnings } = recordingLogger();
      const limited = poller({ user, password: 'right-secret' }, recording);
      const result = ok(await limited.poll(Date.now()));
      ok(await limited.poll(Date.now() + 1000));
      expect(sampleValue(result.samples, 'mysql.threads_connected')).toBeGreaterThanOrEqual(1);
      expect(sampleValue(result.samples, 'mysql.blocked_sessions')).toBeUndefined();
      const lockWarnings = warnings().filter((w) => w.section === 'lock waits');
      expect(lockWarnings).toHaveLength(1);
      expect(lockWarnings[0]).toMatchObject({ service: 'mysql', target: '127.0.0.1:3306' });
    } finally {
      await admin.query(`DROP USER IF EXISTS '${user}'@'%'`);
      await admin.end();
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
      expect(poll.ms).toBeLessThan(2500);
    } finally {
      await silent.close();
    }
  });

  it('gives wrong_engine when the port is a PostgreSQL server', async () => {
    const result = await poller({ port: 5432 }).testConnection();
    expect(result).toMatchObject({ ok: false, code: 'wrong_engine' });
    if (!result.ok) expect(result.message).toMatch(/127\.0\.0\.1:5432 answers as a PostgreSQL server/);
  });

  it('gives not_found for a database that does not exist', async () => {
    const result = await poller({ database: 'fd_no_such_database' }).testConnection();
    expect(result).toMatchObject({ ok: false, code: 'not_found' });
    if (!result.ok) expect(result.message).toContain('fd_no_such_database');
  });
});

describe('MySQL poller: polls', () => {
  it('holds no connection between polls: it closes once idle and reconnects for the next', async () => {
    const p = poller();
    ok(await p.poll(Date.now()));
    expect(ownConnectionsTo(SHARED.port)).toBe(1);
    await waitFor(
      () => ownConnectionsTo(SHARED.port) === 0,
      MYSQL_IDLE_CONNECTION_MS + 3_000,
      'the idle connection to close',
    );
    ok(await p.poll(Date.now()));
    expect(ownConnectionsTo(SHARED.port)).toBe(1);
  });

  it('lists a long-running query and a blocked session with the session blocking it', async () => {
    const db = `fd_poller_lock_${randomBytes(4).toString('hex')}`;
    const admin = await mysql.createConnection(SHARED);
    const holder = await mysql.createConnection(SHARED);
    const waiter = await mysql.createConnection(SHARED);
    const sleeper = await mysql.createConnection(SHARED);
    const pending: Promise<unknown>[] = [];
    try {
      await admin.query(`CREATE DATABASE ${db}`);
      await admin.query(`CREATE TABLE ${db}.t (id int PRIMARY KEY, v varchar(20)) ENGINE=InnoDB`);
      await admin.query(`INSERT INTO ${db}.t VALUES (1, 'a')`);
      await holder.query('BEGIN');
      await holder.query(`UPDATE ${db}.t SET v = 'held' WHERE id = 1`);
      pending.push(waiter.query(`UPDATE ${db}.t SET v = 'waiting' WHERE id = 1`).catch((e: Error) => e));
      pending.push(sleeper.query('SELECT SLEEP(30)').catch((e: Error) => e));

      const p = poller();
      let last: PollSuccess | undefined;
      await waitFor(
        async () => {
          last = ok(await p.poll(Date.now()));
          return (
            (last.extras?.long_queries ?? []).some((q) => q.id === sleeper.threadId) &&
            (last.extras?.blocked_sessions ?? []).some((b) => b.id === waiter.threadId)
          );
        },
        // A loaded machine (the whole suite at once) can take a while to show both.
        25_000,
        'the sleeping query and the blocked session to show',
        // InnoDB refreshes its information_schema transaction cache only after 100 ms without a
        // read: polls closer than that would read the same stale copy forever.
        LOCK_CACHE_IDLE_MS,
      );
      const extras = last!.extras!;
      expect(PollerExtras.safeParse(extras).success).toBe(true);
      const long = extras.long_queries!.find((q) => q.id === sleeper.threadId)!;
      expect(long).toMatchObject({ query: 'SELECT SLEEP(30)', state: 'Query', user: 'root' });
      expect(long.duration_s).toBeGreaterThanOrEqual(1);
      const blocked = extras.blocked_sessions!.find((b) => b.id === waiter.threadId)!;
      expect(blocked.query).toContain(`UPDATE ${db}.t`);
      expect(blocked.blocked_by).toHaveLength(1);
      expect(blocked.blocked_by[0]).toMatchObject({ id: holder.threadId, state: 'Sleep' });
      expect(sampleValue(last!.samples, 'mysql.blocked_sessions')).toBeGreaterThanOrEqual(1);
      expect(sampleValue(last!.samples, 'mysql.long_queries')).toBeGreaterThanOrEqual(1);
      expect(sampleValue(last!.samples, 'mysql.threads_sleeping')).toBeGreaterThanOrEqual(1);
    } finally {
      await admin.query(`KILL QUERY ${sleeper.threadId}`).catch(() => undefined);
      await holder.query('ROLLBACK').catch(() => undefined);
      await Promise.all(pending);
      await admin.query(`DROP DATABASE IF EXISTS ${db}`);
      await Promise.all([admin, holder, waiter, sleeper].map((c) => c.end().catch(() => undefined)));
    }
  }, 60_000);

  it('publishes gauges on the first poll and rates from the second, all in the catalogue', async () => {
    const { logger: recording, warnings } = recordingLogger();
    const p = poller({}, recording);
    const first = ok(await p.poll(Date.now()));
    expect(outsideCatalogue(first.samples)).toEqual([]);
    expect(sampleValue(first.samples, 'mysql.threads_connected')).toBeGreaterThanOrEqual(1);
    expect(sampleValue(first.samples, 'mysql.threads_running')).toBeGreaterThanOrEqual(1);
    expect(sampleValue(first.samples, 'mysql.max_connections')).toBeGreaterThan(0);
    expect(sampleValue(first.samples, 'mysql.uptime')).toBeGreaterThan(0);
    expect(sampleValue(first.samples, 'mysql.innodb_buffer_pool_size_bytes')).toBeGreaterThan(0);
    expect(sampleValue(first.samples, 'mysql.blocked_sessions')).toBeGreaterThanOrEqual(0);
    expect(sampleValue(first.samples, 'mysql.schema_size_bytes', { database: 'mysql' })).toBeGreaterThan(0);
    expect(first.samples.filter((s) => s.m.endsWith('_rate'))).toEqual([]);
    expect(PollerExtras.safeParse(first.extras).success).toBe(true);
    expect(first.extras?.replication?.role).toBe('standalone');

    await new Promise((r) => setTimeout(r, 1100));
    const second = ok(await p.poll(Date.now()));
    expect(outsideCatalogue(second.samples)).toEqual([]);
    // The first poll's own statements ran in between.
    expect(sampleValue(second.samples, 'mysql.queries_rate')).toBeGreaterThan(0);
    expect(sampleValue(second.samples, 'mysql.questions_rate')).toBeGreaterThan(0);
    expect(sampleValue(second.samples, 'mysql.bytes_sent_rate')).toBeGreaterThan(0);
    expect(sampleValue(second.samples, 'mysql.commits_rate')).toBeGreaterThanOrEqual(0);
    expect(second.extras?.databases).toBeUndefined();
    // Every optional section read.
    expect(warnings()).toEqual([]);
  });
});
