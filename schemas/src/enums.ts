import { z } from 'zod';

/**
 * Enumerations of the spec (sections 3, 4 and 9) and the small rules that go with them. Each
 * enum is an `as const` array, a zod schema and a type of the same name. Larger rules live in their
 * own modules: alert-status.ts, time-range.ts, format.ts.
 */

/** Alert status letters: G green/OK, Y yellow, R red/ERROR, P purple, B blue, N none. */
export const ALERT_STATUSES = ['G', 'Y', 'R', 'P', 'B', 'N'] as const;
// The zod enum and the type of the same name sit in alert-status.ts, beside the precedence rules;
// this type-only re-export keeps `import type { AlertStatus } from './enums'` working.
export type { AlertStatus } from './alert-status';

/** Alert lifecycle labels. */
export const ALERT_LIFECYCLE_EVENTS = ['new', 'updated', 'recurring', 'resolved', 'acknowledged'] as const;
/** One alert lifecycle label. */
export type AlertLifecycleEvent = (typeof ALERT_LIFECYCLE_EVENTS)[number];

// ---------------------------------------------------------------------------------------------
// Ticket priority

/** Ticket priorities, an integer from 0 to 3 (spec section 4). */
export const PRIORITIES = [0, 1, 2, 3] as const;
/** A ticket priority, 0 (low) to 3 (critical). */
export const Priority = z.literal(PRIORITIES);
/** A ticket priority, 0 (low) to 3 (critical). */
export type Priority = z.infer<typeof Priority>;
/** Priority of a ticket created without one. */
export const DEFAULT_PRIORITY: Priority = 0;

/** Priority names, indexed by priority. */
export const PRIORITY_NAMES = ['low', 'normal', 'high', 'critical'] as const;
/** A priority name. */
export const PriorityName = z.enum(PRIORITY_NAMES);
/** A priority name. */
export type PriorityName = z.infer<typeof PriorityName>;

/** Priority colours, indexed by priority. */
export const PRIORITY_COLORS = ['grey', 'blue', 'yellow', 'red'] as const;
/** A priority colour. */
export const PriorityColor = z.enum(PRIORITY_COLORS);
/** A priority colour. */
export type PriorityColor = z.infer<typeof PriorityColor>;

/** Name and colour of each priority: 0 low grey, 1 normal blue, 2 high yellow, 3 critical red. */
export const PRIORITY_INFO: Readonly<Record<Priority, { name: PriorityName; color: PriorityColor }>> = {
  0: { name: 'low', color: 'grey' },
  1: { name: 'normal', color: 'blue' },
  2: { name: 'high', color: 'yellow' },
  3: { name: 'critical', color: 'red' },
};

// ---------------------------------------------------------------------------------------------
// Server environment

/** Server environments: production, homologation (acceptance), staging, development. */
export const ENVIRONMENTS = ['prd', 'hmg', 'stg', 'dsv'] as const;
/** A server environment code. */
export const Environment = z.enum(ENVIRONMENTS);
/** A server environment code. */
export type Environment = z.infer<typeof Environment>;

/** English name of each environment code. */
export const ENVIRONMENT_NAMES: Readonly<Record<Environment, string>> = {
  prd: 'production',
  hmg: 'homologation',
  stg: 'staging',
  dsv: 'development',
};

// ---------------------------------------------------------------------------------------------
// Compare operators of thresholds and business rules

/** Compare operators, by short code (spec section 9). */
export const COMPARE_OPERATORS = ['gt', 'gte', 'lt', 'lte', 'eq', 'ne', 'bool', 'not_bool'] as const;
/** A compare operator code. */
export const CompareOperator = z.enum(COMPARE_OPERATORS);
/** A compare operator code. */
export type CompareOperator = z.infer<typeof CompareOperator>;

/** The spec's name of each compare operator. */
export const COMPARE_OPERATOR_NAMES: Readonly<Record<CompareOperator, string>> = {
  gt: 'greater than',
  gte: 'greater or equal',
  lt: 'less than',
  lte: 'less or equal',
  eq: 'equal',
  ne: 'different',
  bool: 'boolean',
  not_bool: 'inverse boolean',
};

/**
 * Whether `value` fires a rule with operator `op` and `threshold`. The boolean operators ignore the
 * threshold: `bool` fires on any non-zero value, `not_bool` on zero. A NaN value never fires, so a
 * broken measurement cannot raise (or, with `ne`, clear) an alert by accident.
 */
export function compare(op: CompareOperator, value: number, threshold = 0): boolean {
  if (Number.isNaN(value)) return false;
  switch (op) {
    case 'gt':
      return value > threshold;
    case 'gte':
      return value >= threshold;
    case 'lt':
      return value < threshold;
    case 'lte':
      return value <= threshold;
    case 'eq':
      return value === threshold;
    case 'ne':
      return value !== threshold;
    case 'bool':
      return value !== 0;
    case 'not_bool':
      return value === 0;
  }
}

// ---------------------------------------------------------------------------------------------
// Ticket time tracking

/** Time tracking statuses (spec section 4); the spec says the full set is not shown. */
export const TRACKING_STATUSES = ['NOT_TRACKING', 'RUNNING', 'PAUSED'] as const;
/** A time tracking status. */
export const TrackingStatus = z.enum(TRACKING_STATUSES);
/** A time tracking status. */
export type TrackingStatus = z.infer<typeof TrackingStatus>;
/** Status before any tracking, and after a tracking info call that did not answer ok. */
export const DEFAULT_TRACKING_STATUS: TrackingStatus = 'NOT_TRACKING';

/** Tracking actions, one call each under /tms/track/; `reupper` restarts or resumes. */
export const TRACKING_ACTIONS = ['start', 'manual', 'pause', 'stop', 'finish', 'reupper'] as const;
/** A tracking action. */
export const TrackingAction = z.enum(TRACKING_ACTIONS);
/** A tracking action. */
export type TrackingAction = z.infer<typeof TrackingAction>;

/** The running tracker's display ticks once a second. */
export const TRACKING_TICK_MS = 1000;

// ---------------------------------------------------------------------------------------------
// Auto-refresh

/** Auto-refresh states of the shell's refresh control. */
export const REFRESH_STATES = ['RUNNING', 'PAUSED', 'DISABLED'] as const;
/** An auto-refresh state. */
export const RefreshState = z.enum(REFRESH_STATES);
/** An auto-refresh state. */
export type RefreshState = z.infer<typeof RefreshState>;

/** Global events any page may raise to steer the refresh control. */
export const REFRESH_EVENTS = [
  'refresh_config_pause',
  'refresh_config_enable',
  'refresh_config_disable',
  'refresh_config_play',
] as const;
/** A global refresh event. */
export const RefreshEvent = z.enum(REFRESH_EVENTS);
/** A global refresh event. */
export type RefreshEvent = z.infer<typeof RefreshEvent>;

/** The state each global refresh event sets, whatever the state before. */
export const REFRESH_EVENT_STATE: Readonly<Record<RefreshEvent, RefreshState>> = {
  refresh_config_pause: 'PAUSED',
  refresh_config_enable: 'RUNNING',
  refresh_config_disable: 'DISABLED',
  refresh_config_play: 'RUNNING',
};

/** What the refresh control reacts to: a global event or a click on the control (`toggle`). */
export type RefreshAction = RefreshEvent | 'toggle';

/**
 * Next auto-refresh state. A click toggles RUNNING and PAUSED and leaves DISABLED alone (only an
 * event enables refresh again); a global event sets its state.
 */
export function refreshReducer(state: RefreshState, action: RefreshAction): RefreshState {
  if (action !== 'toggle') return REFRESH_EVENT_STATE[action];
  if (state === 'RUNNING') return 'PAUSED';
  if (state === 'PAUSED') return 'RUNNING';
  return state;
}

/** Refresh interval choices of the shell, in seconds (1, 5, 10, 15, 30 minutes). */
export const REFRESH_INTERVALS = [60, 300, 600, 900, 1800] as const;
/** A refresh interval choice, in seconds. */
export const RefreshInterval = z.literal(REFRESH_INTERVALS);
/** A refresh interval choice, in seconds. */
export type RefreshInterval = z.infer<typeof RefreshInterval>;
/** Refresh interval the shell's control starts with, in seconds. */
export const DEFAULT_REFRESH_INTERVAL: RefreshInterval = 300;
/** `interval` of the time-range state before the user picks one, in seconds. */
export const DEFAULT_TIME_STATE_INTERVAL = 60;
/** `group_by` of the time-range state: bucket width in seconds. */
export const DEFAULT_GROUP_BY = 300;
/** Refresh interval of a chart whose configs do not set `timer_task`, in seconds. */
export const DEFAULT_CHART_INTERVAL = 60;

// ---------------------------------------------------------------------------------------------
// Alerts

/** Acknowledge choices for an active alert, in hours; it is hidden from the chip list meanwhile. */
export const ACKNOWLEDGE_HOURS = [1, 2, 6, 12, 24] as const;
/** An acknowledge choice, in hours. */
export const AcknowledgeHours = z.literal(ACKNOWLEDGE_HOURS);
/** An acknowledge choice, in hours. */
export type AcknowledgeHours = z.infer<typeof AcknowledgeHours>;

/** Alert modes: a fixed threshold, or a dynamic one learnt from a baseline. */
export const ALERT_MODES = ['threshold', 'dynamic'] as const;
/** An alert mode. */
export const AlertMode = z.enum(ALERT_MODES);
/** An alert mode. */
export type AlertMode = z.infer<typeof AlertMode>;

/** Maintenance window states: running now, in the future, or over (finished or past). */
export const MAINTENANCE_STATES = ['active', 'scheduled', 'historic'] as const;
/** A maintenance window state. */
export const MaintenanceState = z.enum(MAINTENANCE_STATES);
/** A maintenance window state. */
export type MaintenanceState = z.infer<typeof MaintenanceState>;

// User statuses and role codes (spec sections 4 and 6) live in api/auth.ts with the rest of the
// user contract, so they are not repeated here.

// ---------------------------------------------------------------------------------------------
// Scheduler

/** Schedule presets of the scheduler (spec section 9). */
export const SCHEDULE_PRESETS = [
  'every_minute',
  'every_5_minutes',
  'every_15_minutes',
  'every_30_minutes',
  'hourly',
  'every_6_hours',
  'every_12_hours',
  'daily',
  'every_5_days',
  'every_10_days',
  'monthly',
  'weekdays',
  'weekends',
] as const;
/** A schedule preset. */
export const SchedulePreset = z.enum(SCHEDULE_PRESETS);
/** A schedule preset. */
export type SchedulePreset = z.infer<typeof SchedulePreset>;

/**
 * Five-field cron expression (minute hour day-of-month month day-of-week) of each preset. Runs that
 * are daily or longer start at 00:00 in the zone the scheduler applies. "Every 5 / 10 days" step
 * through the days of the month, so they restart on the 1st: plain cron cannot count days across
 * months.
 */
export const SCHEDULE_PRESET_CRON: Readonly<Record<SchedulePreset, string>> = {
  every_minute: '* * * * *',
  every_5_minutes: '*/5 * * * *',
  every_15_minutes: '*/15 * * * *',
  every_30_minutes: '*/30 * * * *',
  hourly: '0 * * * *',
  every_6_hours: '0 */6 * * *',
  every_12_hours: '0 */12 * * *',
  daily: '0 0 * * *',
  every_5_days: '0 0 */5 * *',
  every_10_days: '0 0 */10 * *',
  monthly: '0 0 1 * *',
  weekdays: '0 0 * * 1-5',
  weekends: '0 0 * * 0,6',
};

/** The spec's English wording of each schedule preset. */
export const SCHEDULE_PRESET_NAMES: Readonly<Record<SchedulePreset, string>> = {
  every_minute: 'every minute',
  every_5_minutes: 'every 5 minutes',
  every_15_minutes: 'every 15 minutes',
  every_30_minutes: 'every 30 minutes',
  hourly: 'hourly',
  every_6_hours: 'every 6 hours',
  every_12_hours: 'every 12 hours',
  daily: 'daily',
  every_5_days: 'every 5 days',
  every_10_days: 'every 10 days',
  monthly: 'monthly',
  weekdays: 'Monday to Friday',
  weekends: 'Saturday and Sunday',
};
