import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseStubStatus, stubStatusSamples } from './nginx';
import { outsideCatalogue, sampleValue } from './testing/catalogue';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '__fixtures__', name), 'utf8');

describe('parseStubStatus', () => {
  it('reads the recorded stub_status page', () => {
    expect(parseStubStatus(fixture('nginx-stub-status-2.txt'))).toEqual({
      active: 2,
      accepts: 3,
      handled: 3,
      requests: 42,
      reading: 0,
      writing: 1,
      waiting: 1,
    });
  });

  it('reads the page with CRLF line ends', () => {
    const text = fixture('nginx-stub-status-1.txt').replace(/\n/g, '\r\n');
    expect(parseStubStatus(text)).toMatchObject({ active: 1, requests: 1 });
  });

  it('gives undefined for a page that is not stub_status', () => {
    expect(parseStubStatus('<html><body>Welcome to nginx!</body></html>')).toBeUndefined();
    expect(parseStubStatus(fixture('apache-status-1.txt'))).toBeUndefined();
    expect(parseStubStatus('')).toBeUndefined();
  });
});

describe('stubStatusSamples', () => {
  const before = parseStubStatus(fixture('nginx-stub-status-1.txt'))!;
  const after = parseStubStatus(fixture('nginx-stub-status-2.txt'))!;

  it('gives the connection gauges alone on a first reading', () => {
    const samples = stubStatusSamples(before, undefined, 0);
    expect(samples.map((s) => s.m)).toEqual([
      'nginx.connections_active',
      'nginx.connections_reading',
      'nginx.connections_writing',
      'nginx.connections_waiting',
    ]);
    expect(outsideCatalogue(samples)).toEqual([]);
  });

  it('turns the counters into rates over the interval', () => {
    const samples = stubStatusSamples(after, before, 10);
    expect(outsideCatalogue(samples)).toEqual([]);
    expect(sampleValue(samples, 'nginx.requests_rate')).toBe(4.1);
    expect(sampleValue(samples, 'nginx.connections_accepted_rate')).toBe(0.1);
    expect(sampleValue(samples, 'nginx.connections_handled_rate')).toBe(0.1);
    expect(sampleValue(samples, 'nginx.connections_dropped_rate')).toBe(0);
    expect(sampleValue(samples, 'nginx.connections_waiting')).toBe(1);
  });

  it('gives no rates when the counters went backwards (nginx restarted)', () => {
    const samples = stubStatusSamples(before, after, 10);
    expect(samples.filter((s) => s.m.endsWith('_rate'))).toEqual([]);
  });
});
