import { OraclePollerConfig, PollerExtras } from '@flightdeck/schemas';
import oracledb, { type Connection } from 'oracledb';
import pino from 'pino';
import { GenericContainer, type StartedTestContainer, Wait } from 'testcontainers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noDockerEngine } from '../testing/docker';
import type { Poller, PollSuccess } from './contract';
import { createOraclePoller } from './oracle';
import { outsideCatalogue, sampleValue } from './testing/catalogue';
import { waitFor } from './testing/net';
import { ok } from './testing/poll';

/**
 * The Oracle poller against Oracle Database 23ai Free (gvenzl/oracle-free, the image Oracle's own
 * driver projects test with), through testcontainers. It runs where a Docker engine answers;
 * elsewhere the suite is reported as skipped with the reason.
 */

const IMAGE = 'gvenzl/oracle-free:23-slim';
const SYSTEM_PASSWORD = 'Flightdeck_23';
const APP = { user: 'FD_APP', password: 'Flightdeck_app1' };
const SERVICE = 'FREEPDB1';
const logger = pino({ level: 'silent' });

const noDocker = await noDockerEngine('Oracle container suite');

(noDocker ? describe.skip : describe)('Oracle poller against Oracle Database 23ai Free', () => {
  let container: StartedTestContainer;
  let host: string;
  let port: number;
  const pollers: Poller[] = [];

  const poller = (over: Record<string, unknown> = {}) => {
    const p = createOraclePoller(
      OraclePollerConfig.parse({
        host,
        port,
        user: 'system',
        password: SYSTEM_PASSWORD,
        service_name: SERVICE,
        connect_timeout_ms: 10_000,
        query_timeout_ms: 20_000,
        long_query_s: 1,
        ...over,
      }),
      { logger },
    );
    pollers.push(p);
    return p;
  };
  const appConnection = () =>
    oracledb.getConnection({
      user: APP.user,
      password: APP.password,
      connectString: `${host}:${port}/${SERVICE}`,
    });
  const sidOf = async (conn: Connection) => {
    const result = await conn.execute<{ SID: string }>(
      "SELECT SYS_CONTEXT('USERENV', 'SID') AS SID FROM DUAL",
      [],
      { outFormat: oracledb.OUT_FORMAT_OBJECT },
    );
    return Number(result.rows?.[0]?.SID);
  };

  beforeAll(async () => {
    container = await new GenericContainer(IMAGE)
      .withEnvironment({
        ORACLE_PASSWORD: SYSTEM_PASSWORD,
        APP_USER: APP.user,
        APP_USER_PASSWORD: APP.password,
      })
      .withExposedPorts(1521)
      .withWaitStrategy(Wait.forLogMessage('DATABASE IS READY TO USE!'))
      .withStartupTimeout(300_000)
      .start();
    host = container.getHost();
    port = container.getMappedPort(1521);
  }, 360_000);

  afterAll(async () => {
    await Promise.all(pollers.map((p) => p.close()));
    await container?.stop();
  });

  it('connects and says what answered', async () => {
    const result = await poller().testConnection();
    expect(result).toMatchObject({
      ok: true,
      details: { engine: 'Oracle Database', container: SERVICE, role: 'PRIMARY', open_mode: 'READ WRITE' },
    });
    if (result.ok) expect(result.version).toMatch(/^23\./);
  });

  it('gives auth_failed for a wrong password, and for a user who may not read the V$ views', async () => {
    const wrong = await poller({ password: 'not-the-password' }).testConnection();
    expect(wrong).toMatchObject({ ok: false, code: 'auth_failed' });
    if (!wrong.ok) expect(wrong.message).toContain(`${host}:${port}`);
    const admin = await oracledb.getConnection({
      user: 'system',
      password: SYSTEM_PASSWORD,
      connectString: `${host}:${port}/${SERVICE}`,
    });
    try {
      await admin.execute(`CREATE USER fd_plain IDENTIFIED BY "${APP.password}"`);
      await admin.execute('GRANT CREATE SESSION TO fd_plain');
      const unprivileged = await poller({ user: 'fd_plain', password: APP.password }).testConnection();
      expect(unprivileged).toMatchObject({ ok: false, code: 'auth_failed' });
      if (!unprivileged.ok) expect(unprivileged.message).toContain('SELECT_CATALOG_ROLE');
    } finally {
      await admin.execute('DROP USER fd_plain CASCADE');
      await admin.close();
    }
  });

  it('gives not_found for a service name or a SID the listener does not know', async () => {
    expect(await poller({ service_name: 'NO_SUCH_PDB' }).testConnection()).toMatchObject({
      ok: false,
      code: 'not_found',
    });
    expect(await poller({ service_name: '', sid: 'NOSUCHSID' }).testConnection()).toMatchObject({
      ok: false,
      code: 'not_found',
    });
  });

  it('polls: gauges and sizes first, rates and the buffer cache hit ratio from the second poll', async () => {
    const p = poller();
    const start = Date.now();
    const first = ok(await p.poll(start));
    expect(outsideCatalogue(first.samples)).toEqual([]);
    expect(sampleValue(first.samples, 'oracle.sessions')).toBeGreaterThan(0);
    expect(sampleValue(first.samples, 'oracle.sessions_limit')).toBeGreaterThan(0);
    expect(sampleValue(first.samples, 'oracle.processes_limit')).toBeGreaterThan(0);
    expect(sampleValue(first.samples, 'oracle.uptime')).toBeGreaterThan(0);
    expect(sampleValue(first.samples, 'oracle.is_standby')).toBe(0);
    expect(
      sampleValue(first.samples, 'oracle.tablespace_used_pct', { tablespace: 'SYSTEM' }),
    ).toBeGreaterThan(0);
    expect(first.extras?.replication).toMatchObject({ role: 'standalone' });
    expect(PollerExtras.safeParse(first.extras).success).toBe(true);

    const second = ok(await p.poll(start + 5_000));
    expect(outsideCatalogue(second.samples)).toEqual([]);
    expect(sampleValue(second.samples, 'oracle.executions_rate')).toBeGreaterThan(0);
    expect(second.samples.some((s) => s.m === 'oracle.wait_class_sessions')).toBe(true);
    // Sizes wait for size_interval_s.
    expect(
      sampleValue(second.samples, 'oracle.tablespace_used_pct', { tablespace: 'SYSTEM' }),
    ).toBeUndefined();
  });

  it('lists a long-running call and a blocked session with the session blocking it', async () => {
    const holder = await appConnection();
    const waiter = await appConnection();
    const sleeper = await appConnection();
    const pending: Promise<unknown>[] = [];
    try {
      await holder.execute('CREATE TABLE fd_lock (id NUMBER PRIMARY KEY, v VARCHAR2(20))');
      await holder.execute("INSERT INTO fd_lock VALUES (1, 'a')");
      await holder.execute('COMMIT');
      await holder.execute("UPDATE fd_lock SET v = 'held' WHERE id = 1");
      const [holderSid, waiterSid, sleeperSid] = await Promise.all([holder, waiter, sleeper].map(sidOf));
      pending.push(waiter.execute("UPDATE fd_lock SET v = 'waiting' WHERE id = 1").catch((e: Error) => e));
      pending.push(sleeper.execute('BEGIN DBMS_SESSION.SLEEP(20); END;').catch((e: Error) => e));

      const p = poller();
      let last: PollSuccess | undefined;
      await waitFor(
        async () => {
          last = ok(await p.poll(Date.now()));
          return (
            (last.extras?.long_queries ?? []).some((q) => q.id === sleeperSid) &&
            (last.extras?.blocked_sessions ?? []).some((b) => b.id === waiterSid)
          );
        },
        25_000,
        'the sleeping call and the blocked session to show',
        500,
      );
      const extras = last!.extras!;
      expect(PollerExtras.safeParse(extras).success).toBe(true);
      const blocked = extras.blocked_sessions!.find((b) => b.id === waiterSid)!;
      expect(blocked).toMatchObject({ user: APP.user, wait: 'enq: TX - row lock contention' });
      expect(blocked.query).toContain('UPDATE fd_lock');
      expect(blocked.blocked_by).toEqual([expect.objectContaining({ id: holderSid, state: 'INACTIVE' })]);
      const long = extras.long_queries!.find((q) => q.id === sleeperSid)!;
      expect(long.query).toContain('DBMS_SESSION.SLEEP');
      expect(long.duration_s).toBeGreaterThanOrEqual(1);
      expect(sampleValue(last!.samples, 'oracle.blocked_sessions')).toBeGreaterThanOrEqual(1);
      expect(sampleValue(last!.samples, 'oracle.long_queries')).toBeGreaterThanOrEqual(1);
    } finally {
      await holder.execute('ROLLBACK');
      // The waiter gets the lock once the holder rolls back; the sleeper ends on its own.
      await Promise.all(pending);
      await holder.execute('DROP TABLE fd_lock PURGE');
      await Promise.all([holder, waiter, sleeper].map((c) => c.close()));
    }
  }, 90_000);
});
