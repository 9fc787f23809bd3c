import { MaintenanceNewRequest } from '@flightdeck/schemas';
import { describe, expect, it } from 'vitest';
import enFeatures from '../../i18n/en.features.json';
import {
  emptyMaintenanceForm,
  fieldOfPath,
  fromLocalInput,
  type MaintenanceFormValues,
  maintenanceChartData,
  problemOfApiError,
  rowActions,
  toMaintenanceRequest,
  validationKey,
} from './maintenance-form';

// Monday 2026-11-16 09:30 UTC.
const MONDAY = Date.UTC(2026, 10, 16, 9, 30) / 1000;
const form = (over: Partial<MaintenanceFormValues> = {}): MaintenanceFormValues => ({
  ...emptyMaintenanceForm(MONDAY, 0),
  serverIds: [3],
  reason: 'kernel upgrade',
  ...over,
});

describe('dates in the user offset', () => {
  it('reads a datetime-local value in the offset and a date as its midnight', () => {
    expect(fromLocalInput('2026-11-16T09:30', 0)).toBe(MONDAY);
    expect(fromLocalInput('2026-11-16T06:30', -180)).toBe(MONDAY);
    expect(fromLocalInput('2026-11-16', 60)).toBe(Date.UTC(2026, 10, 16) / 1000 - 3600);
  });

  it('refuses empty, partial and impossible dates', () => {
    expect(fromLocalInput('', 0)).toBeNull();
    expect(fromLocalInput('2026-11-16T09', 0)).toBeNull();
    expect(fromLocalInput('2026-02-30T10:00', 0)).toBeNull();
  });

  it('starts a new form at the next whole minute, for an hour, in the offset', () => {
    const values = emptyMaintenanceForm(MONDAY + 10, 120);
    expect(values.start).toBe('2026-11-16T11:31');
    expect(values.durationMinutes).toBe('60');
    expect(values.approved).toBe(true);
  });
});

describe('toMaintenanceRequest', () => {
  it('builds a one-off window with a duration that the api schema accepts', () => {
    const result = toMaintenanceRequest(form({ service: ' nginx ' }), 0);
    expect(result).toEqual({
      ok: true,
      request: {
        server_ids: [3],
        service: 'nginx',
        start: MONDAY,
        duration: 3600,
        reason: 'kernel upgrade',
        recurrence: { kind: 'none' },
        approved: true,
      },
    });
    if (result.ok) expect(MaintenanceNewRequest.safeParse(result.request).success).toBe(true);
  });

  it('sends "all" and an end time when chosen', () => {
    const result = toMaintenanceRequest(
      form({ allServers: true, endMode: 'end', end: '2026-11-16T10:00' }),
      0,
    );
    expect(result.ok && result.request).toMatchObject({ server_ids: 'all', end: MONDAY + 1800 });
    expect(result.ok && 'duration' in result.request).toBe(false);
  });

  it('repeats weekly on sorted days until the end of the chosen day', () => {
    const result = toMaintenanceRequest(
      form({ recurrence: 'weekly', days: [5, 1], until: '2026-12-31', durationMinutes: '120' }),
      0,
    );
    expect(result.ok && result.request.recurrence).toEqual({
      kind: 'weekly',
      days: [1, 5],
      until: Date.UTC(2026, 11, 31) / 1000 + 86_399,
    });
  });

  it('names the field and the translation of each refusal of the api schema', () => {
    const cases: [Partial<MaintenanceFormValues>, string, string][] = [
      [{ serverIds: [] }, 'server_ids', 'maintenance.validation.servers'],
      [{ reason: '  ' }, 'reason', 'maintenance.validation.reason'],
      [{ endMode: 'end', end: '2026-11-16T09:00' }, 'end', 'maintenance.validation.endAfterStart'],
      [{ durationMinutes: String(31 * 24 * 60) }, 'duration', 'maintenance.validation.tooLong'],
      [
        { recurrence: 'daily', durationMinutes: '1500' },
        'duration',
        'maintenance.validation.recurringTooLong',
      ],
      [{ recurrence: 'weekly', days: [] }, 'days', 'maintenance.validation.days'],
      [{ recurrence: 'daily', until: '2026-11-10' }, 'until', 'maintenance.validation.untilBeforeStart'],
    ];
    for (const [over, field, key] of cases) {
      const result = toMaintenanceRequest(form(over), 0);
      expect(result.ok ? null : { field: result.problem.field, key: result.problem.key }).toEqual({
        field,
        key,
      });
    }
  });

  it('refuses an unreadable start and a duration that is not a whole number of minutes', () => {
    expect(toMaintenanceRequest(form({ start: '' }), 0)).toMatchObject({
      ok: false,
      problem: { field: 'start', key: 'maintenance.validation.date' },
    });
    expect(toMaintenanceRequest(form({ durationMinutes: '1.5' }), 0)).toMatchObject({
      ok: false,
      problem: { field: 'duration', key: 'maintenance.validation.minutes' },
    });
  });
});

describe('api messages', () => {
  it('maps the api message with its field prefix to a key that exists in English', () => {
    const key = validationKey('recurrence.until: the last repetition date must not be before the start');
    expect(key).toBe('maintenance.validation.untilBeforeStart');
    const leaf = key!
      .split('.')
      .slice(1)
      .reduce<unknown>((n, k) => (n as Record<string, unknown>)[k], enFeatures.maintenance);
    expect(typeof leaf).toBe('string');
  });

  it('keeps an unknown message as the api wrote it, on the field its path names', () => {
    expect(problemOfApiError({ message: 'service: too long', path: ['service'] })).toEqual({
      field: 'service',
      key: null,
      message: 'service: too long',
    });
    expect(fieldOfPath(['recurrence', 'days'])).toBe('days');
    expect(fieldOfPath(undefined)).toBe('form');
  });
});

describe('rows and chart', () => {
  it('finishes only a running window and removes only one that is not running', () => {
    const item = { status: 'active' } as Parameters<typeof rowActions>[0];
    expect(rowActions(item)).toEqual({ finish: true, remove: false });
    expect(rowActions({ ...item, status: 'scheduled' })).toEqual({ finish: false, remove: true });
    expect(rowActions({ ...item, status: 'historic' })).toEqual({ finish: false, remove: true });
  });

  it('turns the per-day answer into two aligned series', () => {
    const data = maintenanceChartData([
      { day: 1_763_251_200, windows: 2, minutes: 90.4 },
      { day: 1_763_337_600, windows: 0, minutes: 0 },
    ]);
    expect(data.x_values).toEqual([1_763_251_200, 1_763_337_600]);
    expect(data.y_axis).toEqual(['windows', 'minutes']);
    expect(data.y_values).toEqual({ windows: [2, 0], minutes: [90, 0] });
  });
});
