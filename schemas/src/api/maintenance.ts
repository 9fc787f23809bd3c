import { z } from 'zod';
import { MaintenanceState } from '../enums';
import { RowId } from './servers';

/**
 * Maintenance windows (spec section 7, "Maintenance, scheduler, business"; the interface's
 * "Maintenance: start, end, reason, recurrent, approved"; states active, scheduled, historic).
 * A window covers some or all of a customer's servers, optionally one service of them; while an
 * approved window is running, the alerts of what it covers are recorded but not notified. Times are
 * unix seconds. Recurring windows repeat on UTC days: every day, or on chosen days of the week
 * (0 Sunday ... 6 Saturday), at the time of day of `start`.
 */

/** Longest window (or occurrence of a recurring one): 30 days. */
export const MAX_MAINTENANCE_WINDOW_S = 30 * 86_400;
/** Longest occurrence of a recurring window: one day, so occurrences never overlap. */
export const MAX_RECURRING_OCCURRENCE_S = 86_400;
/** Shortest window: one minute. */
export const MIN_MAINTENANCE_WINDOW_S = 60;
/** Longest range of the historic chart: 366 days. */
export const MAX_MAINTENANCE_CHART_RANGE_S = 366 * 86_400;
/** Longest reason text. */
export const MAX_MAINTENANCE_REASON = 500;

const UnixSeconds = z.number().int().nonnegative();

/** How a window repeats. */
export const MAINTENANCE_RECURRENCE_KINDS = ['none', 'daily', 'weekly'] as const;
export const MaintenanceRecurrenceKind = z.enum(MAINTENANCE_RECURRENCE_KINDS);
export type MaintenanceRecurrenceKind = z.infer<typeof MaintenanceRecurrenceKind>;

/** A day of the week in UTC: 0 Sunday ... 6 Saturday. */
export const Weekday = z.number().int().min(0).max(6);

/**
 * A window's repetition: none (one-off), every day, or on some days of the week. `until`: no
 * occurrence starts after it (unix seconds); null or absent: it repeats until finished or removed.
 */
export const MaintenanceRecurrence = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('none') }).strict(),
  z.object({ kind: z.literal('daily'), until: UnixSeconds.nullable().optional() }).strict(),
  z
    .object({
      kind: z.literal('weekly'),
      days: z
        .array(Weekday)
        .min(1, 'choose at least one day of the week')
        .max(7)
        .refine((d) => new Set(d).size === d.length, 'each day of the week once'),
      until: UnixSeconds.nullable().optional(),
    })
    .strict(),
]);
export type MaintenanceRecurrence = z.infer<typeof MaintenanceRecurrence>;

/**
 * `POST /maintenance/new2`: a window on some of the customer's servers (or `"all"`, including
 * servers added later), optionally only one service of them. Give `end` or `duration` (seconds).
 * `approved`: whether the window silences alerts; an unapproved one is listed but silences nothing.
 */
export const MaintenanceNewRequest = z
  .object({
    server_ids: z.union([
      z.literal('all'),
      z.array(RowId).min(1, 'choose at least one server, or "all"').max(1000),
    ]),
    service: z.string().trim().min(1).max(64).optional(),
    start: UnixSeconds,
    end: UnixSeconds.optional(),
    duration: z.number().int().positive().optional(),
    reason: z
      .string()
      .trim()
      .min(1, 'say why the servers are in maintenance')
      .max(MAX_MAINTENANCE_REASON, `the reason is at most ${MAX_MAINTENANCE_REASON} characters`),
    recurrence: MaintenanceRecurrence.default({ kind: 'none' }),
    approved: z.boolean(),
  })
  .strict()
  .superRefine((r, ctx) => {
    if ((r.end === undefined) === (r.duration === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['end'], message: 'give either an end or a duration' });
      return;
    }
    const length = r.end !== undefined ? r.end - r.start : r.duration!;
    if (length <= 0) {
      ctx.addIssue({ code: 'custom', path: ['end'], message: 'the end must be after the start' });
      return;
    }
    const where = r.end !== undefined ? 'end' : 'duration';
    if (length < MIN_MAINTENANCE_WINDOW_S) {
      ctx.addIssue({ code: 'custom', path: [where], message: 'a window lasts at least one minute' });
    }
    if (length > MAX_MAINTENANCE_WINDOW_S) {
      ctx.addIssue({
        code: 'custom',
        path: [where],
        message: 'a window lasts at most 30 days; split a longer maintenance into several windows',
      });
    }
    if (r.recurrence.kind !== 'none') {
      if (length > MAX_RECURRING_OCCURRENCE_S) {
        ctx.addIssue({
          code: 'custom',
          path: [where],
          message: 'each occurrence of a repeating window lasts at most 24 hours',
        });
      }
      const until = r.recurrence.until;
      if (until != null && until < r.start) {
        ctx.addIssue({
          code: 'custom',
          path: ['recurrence', 'until'],
          message: 'the last repetition date must not be before the start',
        });
      }
    }
  });
export type MaintenanceNewRequest = z.input<typeof MaintenanceNewRequest>;
export type MaintenanceNewInput = z.output<typeof MaintenanceNewRequest>;

/** Body of `/maintenance/finish` and `/maintenance/remove`. */
export const MaintenanceIdRequest = z.object({ id: RowId }).strict();
export type MaintenanceIdRequest = z.infer<typeof MaintenanceIdRequest>;

/** A time span in unix seconds, end excluded. */
export const MaintenanceSpan = z.object({ start: z.number().int(), end: z.number().int() }).strict();
export type MaintenanceSpan = z.infer<typeof MaintenanceSpan>;

/** A window as the lists show it; `status` is computed when it is read. */
export const MaintenanceItem = z
  .object({
    id: z.number().int().positive(),
    /** True when it covers every server of the customer, those added later included. */
    all_servers: z.boolean(),
    /** The servers named (empty when `all_servers`). */
    servers: z.array(z.object({ id: z.number().int().positive(), name: z.string() }).strict()),
    /** Only this service of the servers; null: the servers and all their services. */
    service: z.string().nullable(),
    /** The first occurrence as entered. */
    start: z.number().int(),
    end: z.number().int(),
    reason: z.string(),
    recurrence: MaintenanceRecurrence,
    approved: z.boolean(),
    status: MaintenanceState,
    /** The running occurrence (active), the next (scheduled) or the last (historic); null when none ran. */
    occurrence: MaintenanceSpan.nullable(),
    created_by: z.object({ id: z.number().int().positive(), name: z.string() }).strict().nullable(),
    created_at: z.number().int(),
    /** When it was finished early by `/maintenance/finish`. */
    finished_at: z.number().int().nullable(),
  })
  .strict();
export type MaintenanceItem = z.infer<typeof MaintenanceItem>;

/** Answer of the list calls, soonest first (historic: most recent first). */
export const MaintenanceListData = z.array(MaintenanceItem);
export type MaintenanceListData = z.infer<typeof MaintenanceListData>;

/** `POST /bot/list_maintenance`: the customer's windows, of one state or all. */
export const ListMaintenanceRequest = z.object({ status: MaintenanceState.optional() }).strict();
export type ListMaintenanceRequest = z.infer<typeof ListMaintenanceRequest>;

/** Answer of `/maintenance/remove`. */
export const MaintenanceRemoveData = z
  .object({ id: z.number().int().positive(), removed: z.literal(true) })
  .strict();
export type MaintenanceRemoveData = z.infer<typeof MaintenanceRemoveData>;

/** `POST /maintenance/get_historic_chart`: approved maintenance per UTC day over [start, end). */
export const MaintenanceHistoricChartRequest = z
  .object({ start: UnixSeconds, end: UnixSeconds })
  .strict()
  .superRefine((r, ctx) => {
    if (r.end <= r.start) {
      ctx.addIssue({ code: 'custom', path: ['end'], message: 'the end must be after the start' });
    } else if (r.end - r.start > MAX_MAINTENANCE_CHART_RANGE_S) {
      ctx.addIssue({ code: 'custom', path: ['end'], message: 'choose a range of at most 366 days' });
    }
  });
export type MaintenanceHistoricChartRequest = z.infer<typeof MaintenanceHistoricChartRequest>;

/**
 * One UTC day of the chart: how many window occurrences overlapped it, and the minutes of the
 * day (within the range) when at least one was running.
 */
export const MaintenanceChartDay = z
  .object({
    day: z.number().int(),
    windows: z.number().int().nonnegative(),
    minutes: z.number().nonnegative(),
  })
  .strict();
export type MaintenanceChartDay = z.infer<typeof MaintenanceChartDay>;

export const MaintenanceHistoricChartData = z.object({ days: z.array(MaintenanceChartDay) }).strict();
export type MaintenanceHistoricChartData = z.infer<typeof MaintenanceHistoricChartData>;

/** `POST /services/future_maintenances`: the scheduled windows, of one server or all. */
export const FutureMaintenancesRequest = z.object({ server_id: RowId.optional() }).strict();
export type FutureMaintenancesRequest = z.infer<typeof FutureMaintenancesRequest>;
