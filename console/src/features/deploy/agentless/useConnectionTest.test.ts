import { POLLER_DEFAULT_CONFIGS } from '@flightdeck/schemas';
import { describe, expect, it } from 'vitest';
import { testDeadlineMs } from './useConnectionTest';

describe('connection test deadline', () => {
  it('waits for the config’s own time-outs plus a margin for the bus', () => {
    // PostgreSQL: 5 s to connect + 10 s per query, then 10 s of margin.
    expect(testDeadlineMs(POLLER_DEFAULT_CONFIGS.postgresql)).toBe(25_000);
    expect(testDeadlineMs(POLLER_DEFAULT_CONFIGS.url)).toBe(20_000);
  });

  it('never waits past 130 s, and falls back to 15 s when the config names no time-out', () => {
    expect(testDeadlineMs({ connect_timeout_ms: 120_000, query_timeout_ms: 120_000 })).toBe(130_000);
    expect(testDeadlineMs({})).toBe(25_000);
  });
});
