import { HealthData } from '@flightdeck/schemas';
import { describe, expect, it } from 'vitest';
import { parseEnvelope } from '../../lib/api-client';
import { componentCounters, lastWriteAt } from './api';

const answer = {
  status: 'ok',
  data: {
    status: 'down',
    version: '0.1.0',
    uptime_s: 42,
    components: {
      bus: { state: 'ok', detail: 'in-process' },
      metadata_db: { state: 'ok' },
      metric_store: { state: 'down', detail: 'disk full' },
      collector: {
        state: 'ok',
        batches_written: 10,
        samples_written: 1200,
        last_write_at: 1_700_000_000_000,
      },
    },
  },
};

describe('health answer', () => {
  it('reads the data of a 503 answer, whose envelope is still ok', () => {
    const health = parseEnvelope(503, answer, HealthData);
    expect(health.components.metric_store).toEqual({ state: 'down', detail: 'disk full' });
  });

  it('lists the collector counters apart from the time of its last write', () => {
    const health = parseEnvelope(200, answer, HealthData);
    expect(componentCounters(health.components.collector)).toEqual([
      ['batches_written', 10],
      ['samples_written', 1200],
    ]);
    expect(lastWriteAt(health.components.collector)).toBe(1_700_000_000_000);
    expect(lastWriteAt(health.components.bus)).toBeUndefined();
  });
});
