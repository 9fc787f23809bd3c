import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apacheSamples, parseApacheStatus, scoreboardCounts } from './apache';
import { outsideCatalogue, sampleValue } from './testing/catalogue';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '__fixtures__', name), 'utf8');

describe('parseApacheStatus', () => {
  it('reads the fields of the recorded ?auto page, skipping the server name line', () => {
    const status = parseApacheStatus(fixture('apache-status-2.txt'))!;
    expect(status.get('ServerVersion')).toBe('Apache/2.4.71 (Debian)');
    expect(status.get('ServerMPM')).toBe('event');
    expect(status.get('Total Accesses')).toBe('211');
    expect(status.get('CPUUser')).toBe('.03');
    expect(status.get('Scoreboard')).toBe('___W______');
    expect(status.get('ServerUptime')).toBe('2 seconds');
    expect(status.has('127.0.0.1')).toBe(false);
  });

  it('gives undefined for a page that is not mod_status ?auto', () => {
    expect(parseApacheStatus(fixture('nginx-stub-status-1.txt'))).toBeUndefined();
    expect(parseApacheStatus('<html><head><title>Apache Status</title></head></html>')).toBeUndefined();
  });
});

describe('scoreboardCounts', () => {
  it('counts each state and names every state', () => {
    const counts = scoreboardCounts('_W_KR..CG');
    expect(Object.fromEntries(counts)).toEqual({
      waiting: 2,
      starting: 0,
      reading: 1,
      sending: 1,
      keepalive: 1,
      dns: 0,
      closing: 1,
      logging: 0,
      finishing: 1,
      idle_cleanup: 0,
      open: 2,
    });
  });
});

describe('apacheSamples', () => {
  const before = parseApacheStatus(fixture('apache-status-1.txt'))!;
  const after = parseApacheStatus(fixture('apache-status-2.txt'))!;

  it('gives workers, connections, uptime and the scoreboard on a first reading', () => {
    const samples = apacheSamples(before, undefined, 0);
    expect(outsideCatalogue(samples)).toEqual([]);
    expect(sampleValue(samples, 'apache.workers_busy')).toBe(1);
    expect(sampleValue(samples, 'apache.workers_idle')).toBe(4);
    expect(sampleValue(samples, 'apache.processes')).toBe(1);
    expect(sampleValue(samples, 'apache.uptime')).toBe(0);
    expect(sampleValue(samples, 'apache.scoreboard', { state: 'waiting' })).toBe(4);
    expect(sampleValue(samples, 'apache.scoreboard', { state: 'open' })).toBe(5);
    expect(samples.filter((s) => s.m.endsWith('_rate'))).toEqual([]);
  });

  it('turns the counters into rates and a mean request duration over the interval', () => {
    const samples = apacheSamples(after, before, 2);
    expect(outsideCatalogue(samples)).toEqual([]);
    // 201 requests, 96 kB, 35 ms of request time and 0.05 s of CPU in 2 s.
    expect(sampleValue(samples, 'apache.requests_rate')).toBe(100.5);
    expect(sampleValue(samples, 'apache.sent_bytes_rate')).toBe(49_152);
    expect(sampleValue(samples, 'apache.request_duration_ms')).toBe(0.174);
    expect(sampleValue(samples, 'apache.cpu_pct')).toBe(2.5);
  });

  it('gives no rates after a restart, when the counters start again', () => {
    const samples = apacheSamples(before, after, 2);
    expect(samples.filter((s) => s.m.endsWith('_rate') || s.m === 'apache.request_duration_ms')).toEqual([]);
  });
});
