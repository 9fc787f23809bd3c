import type { AlertTypeEntry, MttxDay, UnavailabilityPeriod } from '@flightdeck/schemas';
import { describe, expect, it } from 'vitest';
import {
  activeMarks,
  filterAlertTypes,
  markKey,
  mttxChartData,
  unavailabilityByServer,
  utcDayStart,
} from './management';
import { mttxQueryString } from './management-api';

function type(partial: Partial<AlertTypeEntry>): AlertTypeEntry {
  return {
    id: 1,
    code: 'server_unreachable',
    title: 'Server unreachable',
    message: '{server} does not answer',
    severity: 'R',
    category: 'host',
    metrics: [],
    ...partial,
  };
}

function day(partial: Partial<MttxDay>): MttxDay {
  return { day: 0, opened: 1, acknowledged: 1, resolved: 1, mtta_s: 60, mttr_s: 600, ...partial };
}

function period(partial: Partial<UnavailabilityPeriod>): UnavailabilityPeriod {
  return {
    server_id: 1,
    server_name: 'db-1',
    service: null,
    source: 'unreachable_alert',
    historic_id: 1,
    start: 0,
    end: 100,
    seconds_in_range: 100,
    ...partial,
  };
}

describe('alert type search', () => {
  const types = [
    type({ id: 7, code: 'cpu_high', title: 'Uso de CPU crítico', category: 'host' }),
    type({ id: 2, code: 'disk_full', title: 'Disco cheio', category: 'storage' }),
    type({ id: 12, code: 'replication_lag', title: 'Replication lag', category: 'database' }),
  ];

  it('keeps every type, ordered by id, for an empty query', () => {
    expect(filterAlertTypes(types, '  ').map((t) => t.id)).toEqual([2, 7, 12]);
  });

  it('matches title words without regard to case or accents', () => {
    expect(filterAlertTypes(types, 'CRITICO cpu').map((t) => t.id)).toEqual([7]);
  });

  it('matches the id, the code and the category', () => {
    expect(filterAlertTypes(types, '12').map((t) => t.id)).toEqual([12]);
    expect(filterAlertTypes(types, 'disk_full').map((t) => t.id)).toEqual([2]);
    expect(filterAlertTypes(types, 'storage').map((t) => t.id)).toEqual([2]);
  });

  it('finds nothing when one word matches nothing', () => {
    expect(filterAlertTypes(types, 'cpu nope')).toEqual([]);
  });
});

describe('MTTA / MTTR chart data', () => {
  const D = 86_400;

  it('has a point for every UTC day of the range, null where the day had no figure', () => {
    const data = mttxChartData(
      [day({ day: 2 * D, mtta_s: 90, mttr_s: 3_600 }), day({ day: 4 * D, mtta_s: null, mttr_s: 30 })],
      D + 500,
      4 * D + 10,
    );
    expect(data.x_values).toEqual([D, 2 * D, 3 * D, 4 * D]);
    expect(data.y_axis).toEqual(['MTTA', 'MTTR']);
    expect(data.y_values.MTTA).toEqual([null, 1.5, null, null]);
    expect(data.y_values.MTTR).toEqual([null, 60, null, 0.5]);
  });

  it('reads a reversed range the same way', () => {
    expect(mttxChartData([], 3 * D, D).x_values).toEqual([D, 2 * D, 3 * D]);
  });

  it('starts days at midnight UTC', () => {
    expect(utcDayStart(D * 5 + 3_599)).toBe(D * 5);
  });
});

describe('unavailability', () => {
  it('adds up the seconds in range per server, most first', () => {
    const rows = unavailabilityByServer([
      period({ server_id: 1, seconds_in_range: 100 }),
      period({ server_id: 2, server_name: 'web-1', seconds_in_range: 500, source: 'heartbeat', end: null }),
      period({ server_id: 1, seconds_in_range: 50, service: 'mysql' }),
    ]);
    expect(rows).toEqual([
      { server_id: 2, server_name: 'web-1', periods: 1, seconds: 500 },
      { server_id: 1, server_name: 'db-1', periods: 2, seconds: 150 },
    ]);
  });

  it('keeps only the marks in force and keys them by server and service', () => {
    const marks = activeMarks([
      { server_id: 1, service: null, unavailable: true, since: 10 },
      { server_id: 1, service: 'mysql', unavailable: false, since: null },
    ]);
    expect(marks.map((m) => markKey(m.server_id, m.service))).toEqual(['1:']);
    expect(markKey(3, 'mysql')).toBe('3:mysql');
  });
});

describe('mttx query string', () => {
  it('carries the range and, when given, the server', () => {
    expect(mttxQueryString({ start: 10, end: 20 })).toBe('start=10&end=20');
    expect(mttxQueryString({ start: 10, end: 20, server_id: 4 })).toBe('start=10&end=20&server_id=4');
  });
});
