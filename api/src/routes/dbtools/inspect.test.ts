import type { CollectorPresence } from '@flightdeck/schemas';
import { describe, expect, it } from 'vitest';
import { inspectionDeadlineMs, targetOf, withoutCredentials, workerFor } from './inspect';
import { pollerMessage } from './status';

const presence = (id: string, worker: string): CollectorPresence => ({
  id,
  worker,
  hostname: 'h',
  last_seen: 1,
  targets: 0,
});

describe('database screen helpers', () => {
  it('names a target by host and port, or by its URL without user and password', () => {
    expect(targetOf({ host: 'db1', port: 5432 })).toBe('db1:5432');
    expect(targetOf({ host: '::1', port: 3306 })).toBe('[::1]:3306');
    expect(targetOf({ url: 'https://bob:s3cret@example.com:8443/x?y=1' })).toBe(
      'https://example.com:8443/x?y=1',
    );
  });

  it('takes the credentials out of every URL a message names', () => {
    expect(withoutCredentials('https://bob:s3cret@example.com/ did not answer; http://a@b/ neither')).toBe(
      'https://example.com/ did not answer; http://b/ neither',
    );
    expect(withoutCredentials('127.0.0.1:5432: connection refused (user@db)')).toBe(
      '127.0.0.1:5432: connection refused (user@db)',
    );
  });

  it('awaits an inspection for the target time-outs plus the bus, within bounds', () => {
    expect(inspectionDeadlineMs({ connect_timeout_ms: 5_000, query_timeout_ms: 10_000 })).toBe(17_000);
    expect(inspectionDeadlineMs({ connect_timeout_ms: 100, query_timeout_ms: 100 })).toBe(3_000);
    expect(inspectionDeadlineMs({ connect_timeout_ms: 120_000, query_timeout_ms: 120_000 })).toBe(60_000);
  });

  it('asks the default group of collectors when it has a live one, else another group', () => {
    expect(workerFor([])).toBeUndefined();
    expect(workerFor([presence('a', 'site-b'), presence('b', 'collectors')])).toBe('collectors');
    expect(workerFor([presence('a', 'site-b'), presence('b', 'site-a')])).toBe('site-a');
  });

  it("keeps the poller's words of a stored failure, without its code", () => {
    expect(pollerMessage('connection_failed: db1:5432: connection refused')).toBe(
      'db1:5432: connection refused',
    );
    expect(pollerMessage('timeout: ')).toBe('The service did not respond in time.');
    expect(pollerMessage('something else: kept')).toBe('something else: kept');
    expect(pollerMessage(null)).toBeNull();
  });
});
