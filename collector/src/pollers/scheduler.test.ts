import type { MetricBatch, PollAssignment, PollStatusParams } from '@flightdeck/schemas';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Poller, PollResult } from './contract';
import { createPollScheduler, type PollSchedulerOptions, type PollTiming } from './scheduler';

const logger = pino({ level: 'silent' });

function assignment(id: number, extra: Partial<PollAssignment> = {}): PollAssignment {
  return {
    service_id: id,
    server_id: id,
    tenant: '1',
    host: `pg-${id}`,
    service: 'postgresql',
    interval_s: 60,
    config: { host: `db${id}`, connect_timeout_ms: 1_000, query_timeout_ms: 1_000 },
    ...extra,
  };
}

/** Pollers whose answer each test decides per target: a value, or never (hangs). */
function fakePollers(behaviour: (target: string) => 'ok' | 'fail' | 'hang') {
  const polls: { target: string; at: number }[] = [];
  const closed: string[] = [];
  const createPoller: NonNullable<PollSchedulerOptions['createPoller']> = (_service, config) => {
    const target = String((config as { host: string }).host);
    const poller: Poller = {
      service: 'postgresql',
      target,
      testConnection: async () => ({ ok: true, version: 'x', details: {} }),
      poll: (now) => {
        polls.push({ target, at: now });
        const b = behaviour(target);
        if (b === 'hang') return new Promise<PollResult>(() => {});
        if (b === 'fail')
          return Promise.resolve({ ok: false, code: 'connection_failed', message: `${target} refused` });
        return Promise.resolve({ ok: true, samples: [{ m: 'pg.connections', v: 3 }] });
      },
      close: async () => {
        closed.push(target);
      },
    };
    return { ok: true, poller };
  };
  return { polls, closed, createPoller };
}

describe('poll scheduler', () => {
  beforeEach(() => vi.useFakeTimers({ now: 1_700_000_000_000 }));
  afterEach(() => vi.useRealTimers());

  it('places the first poll within the interval and then polls at the interval', async () => {
    const pollers = fakePollers(() => 'ok');
    const batches: MetricBatch[] = [];
    const s = createPollScheduler({
      assignments: async () => [assignment(1)],
      publish: async (b) => void batches.push(b),
      report: async () => {},
      logger,
      random: () => 0.999,
      createPoller: pollers.createPoller,
    });
    await s.start();
    const t0 = Date.now();
    await vi.advanceTimersByTimeAsync(59_000);
    expect(pollers.polls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(pollers.polls).toHaveLength(1);
    expect(pollers.polls[0]!.at - t0).toBeLessThan(60_000);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(pollers.polls.map((p) => p.at - pollers.polls[0]!.at)).toEqual([0, 60_000, 120_000]);
    expect(batches[0]).toMatchObject({ tenant: '1', host: 'pg-1', source: 'poller', service: 'postgresql' });
    // One poller kept open between polls.
    expect(pollers.closed).toEqual([]);
    await s.stop();
    expect(pollers.closed).toEqual(['db1']);
  });

  it('keeps polling a target on time while another one hangs', async () => {
    const pollers = fakePollers((t) => (t === 'db1' ? 'hang' : 'ok'));
    const reports: PollStatusParams[] = [];
    const s = createPollScheduler({
      assignments: async () => [assignment(1), assignment(2)],
      publish: async () => {},
      report: async (r) => void reports.push(r),
      logger,
      random: () => 0,
      maxConcurrent: 2,
      intervalMs: () => 10_000,
      createPoller: pollers.createPoller,
    });
    await s.start();
    await vi.advanceTimersByTimeAsync(30_500);
    const healthy = pollers.polls.filter((p) => p.target === 'db2').map((p) => p.at - 1_700_000_000_000);
    expect(healthy).toEqual([0, 10_000, 20_000, 30_000]);
    // The hanging poll timed out (1 s + 1 s + grace), was reported, and its poller replaced.
    expect(reports.find((r) => r.service_id === 1)).toMatchObject({ available: false, code: 'timeout' });
    expect(pollers.closed).toContain('db1');
    await s.stop();
  });

  it('keeps to the planned times when a timer fires late, without drifting', async () => {
    const pollers = fakePollers(() => 'ok');
    const timings: PollTiming[] = [];
    const s = createPollScheduler({
      assignments: async () => [assignment(1)],
      publish: async () => {},
      report: async () => {},
      logger,
      random: () => 0.5,
      createPoller: pollers.createPoller,
      onPoll: (t) => void timings.push(t),
    });
    const t0 = Date.now();
    await s.start();
    await vi.advanceTimersByTimeAsync(29_000);
    // The clock jumps 300 ms while the timer waits: it fires 300 ms after the planned time.
    vi.setSystemTime(Date.now() + 300);
    await vi.advanceTimersByTimeAsync(1_000);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(timings.map((t) => [t.due - t0, t.started! - t0, t.outcome])).toEqual([
      [30_000, 30_300, 'ok'],
      [90_000, 90_000, 'ok'],
    ]);
    await s.stop();
  });

  it('tells the observer how late each poll started, how long it took and which were skipped', async () => {
    const pollers = fakePollers((t) => (t === 'db1' ? 'hang' : 'ok'));
    const timings: PollTiming[] = [];
    const s = createPollScheduler({
      assignments: async () => [assignment(1), assignment(2)],
      publish: async () => {},
      report: async () => {},
      logger,
      random: () => 0,
      maxConcurrent: 1,
      intervalMs: () => 2_000,
      createPoller: pollers.createPoller,
      onPoll: (t) => void timings.push(t),
    });
    const t0 = Date.now();
    await s.start();
    await vi.advanceTimersByTimeAsync(3_500);
    const seen = timings.map((t) => ({
      id: t.service_id,
      due: t.due - t0,
      started: t.started === null ? null : t.started - t0,
      ms: t.duration_ms,
      outcome: t.outcome,
    }));
    expect(seen).toEqual([
      // db1 hangs until its time-out (1 s + 1 s + grace); its next poll finds it still running.
      { id: 1, due: 2_000, started: null, ms: 0, outcome: 'skipped' },
      // db2 is still waiting for the slot then: skipped too.
      { id: 2, due: 2_000, started: null, ms: 0, outcome: 'skipped' },
      { id: 1, due: 0, started: 0, ms: 3_000, outcome: 'timeout' },
      // db2 waited for the only slot: 3 s late.
      { id: 2, due: 0, started: 3_000, ms: 0, outcome: 'ok' },
    ]);
    await s.stop();
  });

  it('reports unavailable once, then the recovery', async () => {
    let failing = true;
    const pollers = fakePollers(() => (failing ? 'fail' : 'ok'));
    const reports: PollStatusParams[] = [];
    const s = createPollScheduler({
      assignments: async () => [assignment(1)],
      publish: async () => {},
      report: async (r) => void reports.push(r),
      logger,
      random: () => 0,
      intervalMs: () => 5_000,
      createPoller: pollers.createPoller,
    });
    await s.start();
    await vi.advanceTimersByTimeAsync(10_001);
    expect(pollers.polls).toHaveLength(3);
    expect(reports).toEqual([
      expect.objectContaining({
        service_id: 1,
        available: false,
        code: 'connection_failed',
        message: 'db1 refused',
      }),
    ]);
    failing = false;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(reports).toHaveLength(2);
    expect(reports[1]).toMatchObject({ available: true });
    await s.stop();
  });

  it('publishes service.up 1 with the samples of a poll that reached the target and 0 alone when it fails', async () => {
    let answer: 'ok' | 'fail' | 'hang' = 'ok';
    const pollers = fakePollers(() => answer);
    const batches: MetricBatch[] = [];
    const s = createPollScheduler({
      assignments: async () => [assignment(1)],
      publish: async (b) => void batches.push(b),
      report: async () => {},
      logger,
      random: () => 0,
      intervalMs: () => 5_000,
      createPoller: pollers.createPoller,
    });
    const t0 = Date.now();
    await s.start();
    await vi.advanceTimersByTimeAsync(1);
    answer = 'fail';
    await vi.advanceTimersByTimeAsync(5_000);
    answer = 'hang';
    // The hanging poll gives up after its time-outs (1 s + 1 s + grace).
    await vi.advanceTimersByTimeAsync(8_000);
    const stamp = { tenant: '1', host: 'pg-1', source: 'poller', service: 'postgresql' };
    expect(batches).toEqual([
      {
        v: 1,
        ...stamp,
        ts: t0,
        samples: [
          { m: 'pg.connections', v: 3 },
          { m: 'service.up', v: 1 },
        ],
      },
      { v: 1, ...stamp, ts: t0 + 5_000, samples: [{ m: 'service.up', v: 0 }] },
      { v: 1, ...stamp, ts: t0 + 10_000, samples: [{ m: 'service.up', v: 0 }] },
    ]);
    await s.stop();
  });

  it('publishes service.up 0 for a target whose config gives no poller', async () => {
    const batches: MetricBatch[] = [];
    const reports: PollStatusParams[] = [];
    const s = createPollScheduler({
      assignments: async () => [assignment(1)],
      publish: async (b) => void batches.push(b),
      report: async (r) => void reports.push(r),
      logger,
      random: () => 0,
      createPoller: () => ({ ok: false, code: 'bad_config', message: 'db1: no host' }),
    });
    await s.start();
    await vi.advanceTimersByTimeAsync(1);
    expect(batches).toHaveLength(1);
    expect(batches[0]).toMatchObject({
      host: 'pg-1',
      service: 'postgresql',
      samples: [{ m: 'service.up', v: 0 }],
    });
    expect(reports[0]).toMatchObject({ available: false, code: 'bad_config' });
    await s.stop();
  });

  it('drops a target that is no longer assigned and replaces one whose config changed', async () => {
    const pollers = fakePollers(() => 'ok');
    let list = [assignment(1), assignment(2)];
    const s = createPollScheduler({
      assignments: async () => list,
      publish: async () => {},
      report: async () => {},
      logger,
      random: () => 0,
      refreshMs: 1_000,
      createPoller: pollers.createPoller,
    });
    await s.start();
    await vi.advanceTimersByTimeAsync(10);
    expect(s.targets().sort()).toEqual([1, 2]);
    list = [assignment(2, { config: { host: 'db2b', timeout_ms: 1_000 } })];
    await vi.advanceTimersByTimeAsync(1_000);
    expect(s.targets()).toEqual([2]);
    expect(pollers.closed.sort()).toEqual(['db1', 'db2']);
    await vi.advanceTimersByTimeAsync(10);
    expect(pollers.polls.at(-1)!.target).toBe('db2b');
    await s.stop();
  });
});
