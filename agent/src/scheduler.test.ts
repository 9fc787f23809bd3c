import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Collector } from './collectors/contract';
import { createCollectorRunner, createScheduler } from './scheduler';
import { recordingLogger } from './testing/support';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0, 0);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(T0);
});
afterEach(() => {
  vi.useRealTimers();
});

describe('createScheduler', () => {
  it('runs at start and then on the interval grid, however long each run takes', async () => {
    const { logger } = recordingLogger();
    const starts: number[] = [];
    const scheduler = createScheduler({
      intervalMs: 10_000,
      logger,
      task: async (scheduledAt) => {
        starts.push(Date.now() - T0);
        expect(scheduledAt).toBe(Date.now());
        await sleep(2_500);
      },
    });
    const first = scheduler.start();
    await vi.advanceTimersByTimeAsync(2_500);
    await first;
    await vi.advanceTimersByTimeAsync(40_000);
    // A "wait interval after the run" timer would have drifted to 12.5 s, 25 s, 37.5 s.
    expect(starts).toEqual([0, 10_000, 20_000, 30_000, 40_000]);
    await scheduler.stop();
  });

  it('aligns the grid to whole multiples of the interval, so hosts sample at the same instants', async () => {
    vi.setSystemTime(T0 + 3_456);
    const { logger } = recordingLogger();
    const starts: number[] = [];
    const scheduler = createScheduler({
      intervalMs: 10_000,
      logger,
      task: async () => {
        starts.push(Date.now() - T0);
      },
    });
    await scheduler.start();
    await vi.advanceTimersByTimeAsync(25_000);
    expect(starts).toEqual([3_456, 10_000, 20_000]);
    await scheduler.stop();
  });

  it('never overlaps runs: a run longer than the interval skips the grid points it covered', async () => {
    const { logger, warnings } = recordingLogger();
    const starts: number[] = [];
    let active = 0;
    let maxActive = 0;
    const scheduler = createScheduler({
      intervalMs: 10_000,
      logger,
      task: async () => {
        starts.push(Date.now() - T0);
        maxActive = Math.max(maxActive, ++active);
        await sleep(starts.length === 1 ? 25_000 : 1_000);
        active--;
      },
    });
    void scheduler.start();
    await vi.advanceTimersByTimeAsync(45_000);
    expect(starts).toEqual([0, 30_000, 40_000]);
    expect(maxActive).toBe(1);
    expect(warnings()[0]).toMatchObject({ skipped: 2 });
    await scheduler.stop();
  });

  it('stop() waits for the run in flight and then schedules nothing', async () => {
    const { logger } = recordingLogger();
    let runs = 0;
    let finished = 0;
    const scheduler = createScheduler({
      intervalMs: 10_000,
      logger,
      task: async () => {
        runs++;
        await sleep(5_000);
        finished++;
      },
    });
    void scheduler.start();
    await vi.advanceTimersByTimeAsync(11_000);
    expect(runs).toBe(2);

    let stopped = false;
    const stopping = scheduler.stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(3_000);
    expect(stopped).toBe(false);
    await vi.advanceTimersByTimeAsync(1_000);
    await stopping;
    expect(finished).toBe(2);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(runs).toBe(2);
    expect(scheduler.running).toBe(false);
  });

  it('re-anchors the grid when the wall clock is set back, instead of pausing until it catches up', async () => {
    const { logger, warnings } = recordingLogger();
    const starts: number[] = [];
    const scheduler = createScheduler({
      intervalMs: 10_000,
      logger,
      task: async () => {
        starts.push(Date.now());
        if (starts.length === 1) vi.setSystemTime(T0 - 3_600_000);
      },
    });
    await scheduler.start();
    await vi.advanceTimersByTimeAsync(20_000);
    expect(starts).toEqual([T0, T0 - 3_590_000, T0 - 3_580_000]);
    expect(warnings()[0]?.msg).toBe('the clock went back; re-anchoring the schedule');
    await scheduler.stop();
  });

  it('keeps the schedule when a run rejects', async () => {
    const { logger, lines } = recordingLogger();
    let runs = 0;
    const scheduler = createScheduler({
      intervalMs: 1_000,
      logger,
      task: async () => {
        runs++;
        throw new Error('boom');
      },
    });
    await scheduler.start();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(runs).toBe(3);
    expect(lines.filter((l) => l.msg === 'scheduled run failed')).toHaveLength(3);
    await scheduler.stop();
  });
});

describe('createCollectorRunner', () => {
  const ctx = () => ({ procRoot: '/nowhere', now: Date.now(), logger: recordingLogger().logger });
  const fixed = (name: string, v: number): Collector => ({
    name,
    collect: async () => [{ m: `${name}.value`, v }],
  });

  it('runs collectors concurrently and leaves out one that times out or throws', async () => {
    let slowCalls = 0;
    const slow: Collector = {
      name: 'slow',
      collect: async () => {
        slowCalls++;
        await sleep(60_000);
        return [{ m: 'slow.value', v: 1 }];
      },
    };
    const broken: Collector = {
      name: 'broken',
      collect: async () => {
        throw new Error('bad parser');
      },
    };
    const run = createCollectorRunner([fixed('a', 1), slow, broken, fixed('b', 2)], 2_000);
    const pending = run(ctx());
    await vi.advanceTimersByTimeAsync(2_000);
    expect(await pending).toEqual({
      samples: [
        { m: 'a.value', v: 1 },
        { m: 'b.value', v: 2 },
      ],
      failed: ['slow', 'broken'],
    });

    // The slow collector's first call is still pending: it is not called a second time.
    const again = run(ctx());
    await vi.advanceTimersByTimeAsync(2_000);
    expect((await again).failed).toContain('slow');
    expect(slowCalls).toBe(1);
  });

  it('drops values that are not finite numbers, keeping the rest of the collector', async () => {
    const odd: Collector = {
      name: 'odd',
      collect: async () => [
        { m: 'odd.nan', v: Number.NaN },
        { m: 'odd.inf', v: Number.POSITIVE_INFINITY },
        { m: 'odd.ok', v: 3 },
      ],
    };
    const { logger, warnings } = recordingLogger();
    const result = await createCollectorRunner([odd], 1_000)({ procRoot: '/x', now: 1, logger });
    expect(result.samples).toEqual([{ m: 'odd.ok', v: 3 }]);
    expect(warnings().map((w) => w.metric)).toEqual(['odd.nan', 'odd.inf']);
  });
});
