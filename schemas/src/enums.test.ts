import { describe, expect, it } from 'vitest';
import {
  ACKNOWLEDGE_HOURS,
  AcknowledgeHours,
  ALERT_MODES,
  COMPARE_OPERATOR_NAMES,
  COMPARE_OPERATORS,
  CompareOperator,
  compare,
  DEFAULT_CHART_INTERVAL,
  DEFAULT_GROUP_BY,
  DEFAULT_PRIORITY,
  DEFAULT_REFRESH_INTERVAL,
  DEFAULT_TIME_STATE_INTERVAL,
  DEFAULT_TRACKING_STATUS,
  ENVIRONMENTS,
  Environment,
  MAINTENANCE_STATES,
  PRIORITIES,
  PRIORITY_COLORS,
  PRIORITY_INFO,
  PRIORITY_NAMES,
  Priority,
  REFRESH_EVENT_STATE,
  REFRESH_EVENTS,
  REFRESH_INTERVALS,
  REFRESH_STATES,
  RefreshInterval,
  refreshReducer,
  SCHEDULE_PRESET_CRON,
  SCHEDULE_PRESET_NAMES,
  SCHEDULE_PRESETS,
  SchedulePreset,
  TRACKING_ACTIONS,
  TRACKING_STATUSES,
  TrackingStatus,
} from './enums';

describe('priorities', () => {
  it('runs from 0 low grey to 3 critical red, with 0 as the default', () => {
    expect(PRIORITIES).toEqual([0, 1, 2, 3]);
    expect(PRIORITY_INFO).toEqual({
      0: { name: 'low', color: 'grey' },
      1: { name: 'normal', color: 'blue' },
      2: { name: 'high', color: 'yellow' },
      3: { name: 'critical', color: 'red' },
    });
    expect(DEFAULT_PRIORITY).toBe(0);
  });

  it('keeps the name and colour arrays aligned with the priority index', () => {
    for (const p of PRIORITIES) {
      expect(PRIORITY_NAMES[p]).toBe(PRIORITY_INFO[p].name);
      expect(PRIORITY_COLORS[p]).toBe(PRIORITY_INFO[p].color);
    }
  });

  it('rejects priorities outside 0 to 3 and priorities sent as text', () => {
    expect(Priority.safeParse(3).success).toBe(true);
    expect(Priority.safeParse(4).success).toBe(false);
    expect(Priority.safeParse(-1).success).toBe(false);
    expect(Priority.safeParse(1.5).success).toBe(false);
    expect(Priority.safeParse('1').success).toBe(false);
  });
});

describe('environments', () => {
  it('accepts prd, hmg, stg and dsv only', () => {
    expect(ENVIRONMENTS).toEqual(['prd', 'hmg', 'stg', 'dsv']);
    for (const e of ENVIRONMENTS) expect(Environment.parse(e)).toBe(e);
    expect(Environment.safeParse('prod').success).toBe(false);
  });
});

describe('compare operators', () => {
  it('has a short code and the spec name for all eight operators', () => {
    expect(COMPARE_OPERATORS).toEqual(['gt', 'gte', 'lt', 'lte', 'eq', 'ne', 'bool', 'not_bool']);
    expect(Object.values(COMPARE_OPERATOR_NAMES)).toEqual([
      'greater than',
      'greater or equal',
      'less than',
      'less or equal',
      'equal',
      'different',
      'boolean',
      'inverse boolean',
    ]);
    expect(CompareOperator.safeParse('>=').success).toBe(false);
  });

  it.each([
    ['gt', 10, 5, true],
    ['gt', 5, 5, false],
    ['gt', 4, 5, false],
    ['gte', 5, 5, true],
    ['gte', 4.99, 5, false],
    ['lt', 4, 5, true],
    ['lt', 5, 5, false],
    ['lte', 5, 5, true],
    ['lte', 5.01, 5, false],
    ['eq', 5, 5, true],
    ['eq', 5.1, 5, false],
    ['ne', 5.1, 5, true],
    ['ne', 5, 5, false],
  ] as const)('%s fires for value %d against threshold %d: %s', (op, value, threshold, fires) => {
    expect(compare(op, value, threshold)).toBe(fires);
  });

  it('fires boolean on any non-zero value, whatever the threshold', () => {
    expect(compare('bool', 1, 0)).toBe(true);
    expect(compare('bool', -3, 100)).toBe(true);
    expect(compare('bool', 0.001)).toBe(true);
    expect(compare('bool', 0, 0)).toBe(false);
  });

  it('fires inverse boolean only on zero', () => {
    expect(compare('not_bool', 0)).toBe(true);
    expect(compare('not_bool', -0, 5)).toBe(true);
    expect(compare('not_bool', 1, 1)).toBe(false);
  });

  it('never fires on a NaN value, not even for different or boolean', () => {
    for (const op of COMPARE_OPERATORS) expect(compare(op, Number.NaN, 5)).toBe(false);
  });

  it('compares infinities like ordinary numbers', () => {
    expect(compare('gt', Number.POSITIVE_INFINITY, 1e9)).toBe(true);
    expect(compare('lt', Number.NEGATIVE_INFINITY, -1e9)).toBe(true);
  });
});

describe('time tracking', () => {
  it('starts NOT_TRACKING and knows the RUNNING and PAUSED states', () => {
    expect(TRACKING_STATUSES).toEqual(['NOT_TRACKING', 'RUNNING', 'PAUSED']);
    expect(DEFAULT_TRACKING_STATUS).toBe('NOT_TRACKING');
    expect(TrackingStatus.safeParse('STOPPED').success).toBe(false);
  });

  it('has the six tracking actions of the /tms/track/ calls', () => {
    expect(TRACKING_ACTIONS).toEqual(['start', 'manual', 'pause', 'stop', 'finish', 'reupper']);
  });
});

describe('refreshReducer', () => {
  it('toggles RUNNING and PAUSED on a click', () => {
    expect(refreshReducer('RUNNING', 'toggle')).toBe('PAUSED');
    expect(refreshReducer('PAUSED', 'toggle')).toBe('RUNNING');
  });

  it('leaves DISABLED alone on a click', () => {
    expect(refreshReducer('DISABLED', 'toggle')).toBe('DISABLED');
  });

  it('maps pause, enable, disable and play to PAUSED, RUNNING, DISABLED and RUNNING', () => {
    expect(REFRESH_EVENT_STATE).toEqual({
      refresh_config_pause: 'PAUSED',
      refresh_config_enable: 'RUNNING',
      refresh_config_disable: 'DISABLED',
      refresh_config_play: 'RUNNING',
    });
  });

  it('sets the event state from every state, so an event can re-enable a disabled control', () => {
    for (const state of REFRESH_STATES) {
      for (const event of REFRESH_EVENTS) {
        expect(refreshReducer(state, event)).toBe(REFRESH_EVENT_STATE[event]);
      }
    }
    expect(refreshReducer('DISABLED', 'refresh_config_enable')).toBe('RUNNING');
  });
});

describe('intervals', () => {
  it('offers 1, 5, 10, 15 and 30 minutes with 5 minutes as the shell default', () => {
    expect(REFRESH_INTERVALS).toEqual([60, 300, 600, 900, 1800]);
    expect(DEFAULT_REFRESH_INTERVAL).toBe(300);
    expect(REFRESH_INTERVALS).toContain(DEFAULT_REFRESH_INTERVAL);
  });

  it('defaults the time state to a 60 s interval grouped by 300 s, and charts to 60 s', () => {
    expect(DEFAULT_TIME_STATE_INTERVAL).toBe(60);
    expect(DEFAULT_GROUP_BY).toBe(300);
    expect(DEFAULT_CHART_INTERVAL).toBe(60);
  });

  it('accepts only numbers from the interval list', () => {
    expect(RefreshInterval.safeParse(600).success).toBe(true);
    expect(RefreshInterval.safeParse(120).success).toBe(false);
    expect(RefreshInterval.safeParse('600').success).toBe(false);
  });
});

describe('alert enums', () => {
  it('acknowledges for 1, 2, 6, 12 or 24 hours', () => {
    expect(ACKNOWLEDGE_HOURS).toEqual([1, 2, 6, 12, 24]);
    expect(AcknowledgeHours.safeParse(3).success).toBe(false);
  });

  it('has threshold and dynamic alert modes and active, scheduled, historic maintenance', () => {
    expect(ALERT_MODES).toEqual(['threshold', 'dynamic']);
    expect(MAINTENANCE_STATES).toEqual(['active', 'scheduled', 'historic']);
  });
});

/** Checks one cron field: `*`, `*\/n`, a value, a range or a list, within [min, max]. */
function cronFieldOk(field: string, min: number, max: number): boolean {
  const inRange = (v: string) => /^\d+$/.test(v) && Number(v) >= min && Number(v) <= max;
  if (field === '*') return true;
  const step = /^\*\/(\d+)$/.exec(field);
  if (step) return Number(step[1]) >= 1 && Number(step[1]) <= max;
  return field.split(',').every((part) => {
    const range = /^(\d+)-(\d+)$/.exec(part);
    if (range) return inRange(range[1]!) && inRange(range[2]!) && Number(range[1]) < Number(range[2]);
    return inRange(part);
  });
}

describe('schedule presets', () => {
  it('has a name and a cron expression for each of the 13 presets of the spec', () => {
    expect(SCHEDULE_PRESETS).toHaveLength(13);
    expect(Object.keys(SCHEDULE_PRESET_CRON)).toEqual([...SCHEDULE_PRESETS]);
    expect(Object.keys(SCHEDULE_PRESET_NAMES)).toEqual([...SCHEDULE_PRESETS]);
    expect(SchedulePreset.safeParse('yearly').success).toBe(false);
  });

  it('gives five valid-looking cron fields for every preset', () => {
    const bounds: [number, number][] = [
      [0, 59],
      [0, 23],
      [1, 31],
      [1, 12],
      [0, 7],
    ];
    for (const preset of SCHEDULE_PRESETS) {
      const fields = SCHEDULE_PRESET_CRON[preset].split(' ');
      expect(fields, preset).toHaveLength(5);
      fields.forEach((f, i) => {
        const [min, max] = bounds[i]!;
        expect(cronFieldOk(f, min, max), `${preset} field ${i}: ${f}`).toBe(true);
      });
    }
  });

  it('gives every preset a different schedule', () => {
    expect(new Set(Object.values(SCHEDULE_PRESET_CRON)).size).toBe(SCHEDULE_PRESETS.length);
  });

  it('spells the presets whose meaning is easy to get wrong', () => {
    expect(SCHEDULE_PRESET_CRON.every_minute).toBe('* * * * *');
    expect(SCHEDULE_PRESET_CRON.every_15_minutes).toBe('*/15 * * * *');
    expect(SCHEDULE_PRESET_CRON.hourly).toBe('0 * * * *');
    expect(SCHEDULE_PRESET_CRON.every_6_hours).toBe('0 */6 * * *');
    expect(SCHEDULE_PRESET_CRON.every_10_days).toBe('0 0 */10 * *');
    expect(SCHEDULE_PRESET_CRON.monthly).toBe('0 0 1 * *');
    expect(SCHEDULE_PRESET_CRON.weekdays).toBe('0 0 * * 1-5');
    expect(SCHEDULE_PRESET_CRON.weekends).toBe('0 0 * * 0,6');
    expect(SCHEDULE_PRESET_NAMES.weekdays).toBe('Monday to Friday');
    expect(SCHEDULE_PRESET_NAMES.weekends).toBe('Saturday and Sunday');
  });
});
