import {
  type ChartData,
  MAINTENANCE_STATES,
  type MaintenanceChartDay,
  type MaintenanceItem,
  MaintenanceNewRequest,
  type MaintenanceRecurrenceKind,
  type MaintenanceState,
} from '@flightdeck/schemas';
import { toDateTimeInput } from '../../app/time-range';

/** The new-window form as the page holds it: date-times in the user's UTC offset, as typed. */
export interface MaintenanceFormValues {
  allServers: boolean;
  serverIds: number[];
  service: string;
  /** `YYYY-MM-DDTHH:mm` in the user's offset (a datetime-local input). */
  start: string;
  endMode: 'end' | 'duration';
  end: string;
  /** Whole minutes, as typed. */
  durationMinutes: string;
  reason: string;
  recurrence: MaintenanceRecurrenceKind;
  /** UTC days of the week, 0 Sunday ... 6 Saturday. */
  days: number[];
  /** `YYYY-MM-DD` in the user's offset; empty: repeats until finished or removed. */
  until: string;
  approved: boolean;
}

/** A datetime-local or date value (a date reads as its midnight) in the user's offset as unix seconds; null when not a date. */
export function fromLocalInput(value: string, offsetMinutes: number): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}))?$/.exec(value.trim());
  if (!m) return null;
  const [, y, mo, d, h = '0', mi = '0'] = m;
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi));
  if (Number.isNaN(ms)) return null;
  const check = new Date(ms);
  if (check.getUTCDate() !== Number(d) || check.getUTCMonth() !== Number(mo) - 1) return null;
  return ms / 1000 - offsetMinutes * 60;
}

/** An empty form: starts at the next whole minute, lasts an hour, one-off, approved. */
export function emptyMaintenanceForm(nowSeconds: number, offsetMinutes: number): MaintenanceFormValues {
  const start = Math.ceil(nowSeconds / 60) * 60;
  return {
    allServers: false,
    serverIds: [],
    service: '',
    start: toDateTimeInput(start, offsetMinutes),
    endMode: 'duration',
    end: toDateTimeInput(start + 3600, offsetMinutes),
    durationMinutes: '60',
    reason: '',
    recurrence: 'none',
    days: [],
    until: '',
    approved: true,
  };
}

/** A problem of the form: the field it belongs to and the text to show (an i18n key or the api's words). */
export interface FormProblem {
  field: 'server_ids' | 'service' | 'start' | 'end' | 'duration' | 'reason' | 'days' | 'until' | 'form';
  /** i18n key under `maintenance.validation`, when the message is one the page knows. */
  key: string | null;
  /** The api's English message (shown when there is no key). */
  message: string;
}

/** The api's validation messages (schemas/src/api/maintenance.ts) and their keys under `maintenance.validation`. */
const MESSAGE_KEYS: ReadonlyArray<[string, string]> = [
  ['choose at least one server, or "all"', 'servers'],
  ['say why the servers are in maintenance', 'reason'],
  ['the reason is at most', 'reasonLong'],
  ['give either an end or a duration', 'endOrDuration'],
  ['the end must be after the start', 'endAfterStart'],
  ['a window lasts at least one minute', 'tooShort'],
  ['a window lasts at most 30 days', 'tooLong'],
  ['each occurrence of a repeating window lasts at most 24 hours', 'recurringTooLong'],
  ['the last repetition date must not be before the start', 'untilBeforeStart'],
  ['choose at least one day of the week', 'days'],
];

/** The `maintenance.validation` key of an api message (with or without its "field: " prefix). */
export function validationKey(message: string): string | null {
  const text = message.replace(/^[a-z_.[\]0-9]+: /, '');
  const found = MESSAGE_KEYS.find(([start]) => text.startsWith(start));
  return found ? `maintenance.validation.${found[1]}` : null;
}

/** The form field an api issue path names. */
export function fieldOfPath(path: ReadonlyArray<string | number> | undefined): FormProblem['field'] {
  const [first, second] = path ?? [];
  if (first === 'recurrence') return second === 'until' ? 'until' : 'days';
  if (
    first === 'server_ids' ||
    first === 'service' ||
    first === 'start' ||
    first === 'end' ||
    first === 'duration' ||
    first === 'reason'
  ) {
    return first;
  }
  return 'form';
}

const problem = (field: FormProblem['field'], message: string): FormProblem => ({
  field,
  key: validationKey(message),
  message,
});

/**
 * The `/maintenance/new2` body of the form, checked with the api's own schema, or the first
 * problem. Dates the browser could not read are reported before the schema runs.
 */
export function toMaintenanceRequest(
  values: MaintenanceFormValues,
  offsetMinutes: number,
): { ok: true; request: MaintenanceNewRequest } | { ok: false; problem: FormProblem } {
  const start = fromLocalInput(values.start, offsetMinutes);
  if (start === null)
    return { ok: false, problem: { field: 'start', key: 'maintenance.validation.date', message: '' } };
  let timing: { end: number } | { duration: number };
  if (values.endMode === 'end') {
    const end = fromLocalInput(values.end, offsetMinutes);
    if (end === null)
      return { ok: false, problem: { field: 'end', key: 'maintenance.validation.date', message: '' } };
    timing = { end };
  } else {
    const minutes = Number(values.durationMinutes);
    if (!Number.isInteger(minutes) || minutes <= 0) {
      return {
        ok: false,
        problem: { field: 'duration', key: 'maintenance.validation.minutes', message: '' },
      };
    }
    timing = { duration: minutes * 60 };
  }
  let until: number | null = null;
  if (values.recurrence !== 'none' && values.until.trim() !== '') {
    const day = fromLocalInput(values.until, offsetMinutes);
    if (day === null)
      return { ok: false, problem: { field: 'until', key: 'maintenance.validation.date', message: '' } };
    // The whole chosen day: an occurrence may still start during it.
    until = day + 86_400 - 1;
  }
  const recurrence: MaintenanceNewRequest['recurrence'] =
    values.recurrence === 'none'
      ? { kind: 'none' }
      : values.recurrence === 'daily'
        ? { kind: 'daily', until }
        : { kind: 'weekly', days: [...values.days].sort((a, b) => a - b), until };
  const request: MaintenanceNewRequest = {
    server_ids: values.allServers ? 'all' : values.serverIds,
    ...(values.service.trim() ? { service: values.service.trim() } : {}),
    start: Math.max(0, start),
    ...timing,
    reason: values.reason,
    recurrence,
    approved: values.approved,
  };
  const parsed = MaintenanceNewRequest.safeParse(request);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      problem: problem(fieldOfPath(issue?.path as (string | number)[]), issue?.message ?? ''),
    };
  }
  return { ok: true, request };
}

/** A server-side refusal as a form problem (its path and words). */
export function problemOfApiError(error: {
  message: string;
  path?: ReadonlyArray<string | number>;
}): FormProblem {
  return problem(fieldOfPath(error.path), error.message);
}

/** Tabs of the page, in the api's state order. */
export const MAINTENANCE_TABS: readonly MaintenanceState[] = MAINTENANCE_STATES;

/** What a row can do: finish a running window, remove one that is not running. */
export function rowActions(item: MaintenanceItem): { finish: boolean; remove: boolean } {
  return { finish: item.status === 'active', remove: item.status !== 'active' };
}

/** The span a row shows: its running, next or last occurrence, else the window as entered. */
export function shownSpan(item: MaintenanceItem): { start: number; end: number } {
  return item.occurrence ?? { start: item.start, end: item.end };
}

/** The chart answer as a chart card's data: windows per day and minutes in maintenance per day. */
export function maintenanceChartData(days: readonly MaintenanceChartDay[]): ChartData {
  return {
    configs: { is_dynamic: false, timer_task: 60, precision: 0, step: 86_400 },
    x_values: days.map((d) => d.day),
    y_axis: ['windows', 'minutes'],
    y_values: {
      windows: days.map((d) => d.windows),
      minutes: days.map((d) => Math.round(d.minutes)),
    },
  };
}
