import type {
  MaintenanceChartDay,
  MaintenanceItem,
  MaintenanceNewInput,
  MaintenanceRecurrence,
  MaintenanceSpan,
  MaintenanceState,
} from '@flightdeck/schemas';
import type { Db } from '../../db/kysely';
import type { MaintenanceWindowRow } from '../../db/types';
import { ApiError } from '../../errors';
import { lastEndOf, occurrencesBetween, stateAt, timingOf, type WindowTiming } from './occurrences';

const DAY_S = 86_400;
/** Most historic windows a list returns (most recent first). */
export const MAX_HISTORIC_LISTED = 500;

function recurrenceOf(row: MaintenanceWindowRow): MaintenanceRecurrence {
  if (row.recurrence === 'daily') return { kind: 'daily', until: row.until_at };
  if (row.recurrence === 'weekly') {
    return { kind: 'weekly', days: row.weekdays.split(',').map(Number), until: row.until_at };
  }
  return { kind: 'none' };
}

/** The window's timing from a request, before it is stored. */
export function timingOfRequest(req: MaintenanceNewInput): WindowTiming {
  const rec = req.recurrence;
  return {
    start: req.start,
    end: req.end ?? req.start + req.duration!,
    recurrence: rec.kind,
    weekdays: rec.kind === 'weekly' ? [...rec.days].sort((a, b) => a - b) : [],
    until: rec.kind === 'none' ? null : (rec.until ?? null),
    finishedAt: null,
  };
}

/** The customer's window, or 404 (another customer's id looks exactly like a missing one). */
export async function windowOr404(db: Db, customerId: number, id: number): Promise<MaintenanceWindowRow> {
  const row = await db
    .selectFrom('maintenance_windows')
    .selectAll()
    .where('customer_id', '=', customerId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw ApiError.of('not_found', 'This maintenance window could not be found.');
  return row;
}

/** Stores a validated window; every named server must be the customer's (404 otherwise). */
export async function createWindow(
  db: Db,
  customerId: number,
  userId: number,
  req: MaintenanceNewInput,
  nowS: number,
): Promise<MaintenanceWindowRow> {
  const timing = timingOfRequest(req);
  const serverIds = req.server_ids === 'all' ? [] : [...new Set(req.server_ids)];
  if (serverIds.length > 0) {
    const found = await db
      .selectFrom('servers')
      .select('id')
      .where('customer_id', '=', customerId)
      .where('id', 'in', serverIds)
      .execute();
    const known = new Set(found.map((s) => s.id));
    const missing = serverIds.filter((id) => !known.has(id));
    if (missing.length > 0) {
      throw ApiError.of(
        'not_found',
        `Server ${missing.join(', ')} could not be found; choose servers from your server list.`,
      );
    }
  }
  if (
    timing.recurrence === 'weekly' &&
    occurrencesBetween(timing, timing.start, Number.POSITIVE_INFINITY).next().done
  ) {
    throw ApiError.of(
      'validation_failed',
      'None of the chosen days of the week falls between the start and the last repetition date; choose other days or a later date.',
    );
  }
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('maintenance_windows')
      .values({
        customer_id: customerId,
        all_servers: req.server_ids === 'all' ? 1 : 0,
        service: req.service ?? '',
        start_at: timing.start,
        end_at: timing.end,
        recurrence: timing.recurrence,
        weekdays: timing.weekdays.join(','),
        until_at: timing.until,
        last_end_at: lastEndOf(timing),
        reason: req.reason,
        approved: req.approved ? 1 : 0,
        created_by: userId,
        created_at: nowS,
        finished_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    if (serverIds.length > 0) {
      await trx
        .insertInto('maintenance_window_servers')
        .values(serverIds.map((server_id) => ({ customer_id: customerId, window_id: row.id, server_id })))
        .execute();
    }
    return row;
  });
}

/** List items of the rows, with their servers and creators, and their state at `nowS`. */
export async function toItems(
  db: Db,
  customerId: number,
  rows: readonly MaintenanceWindowRow[],
  nowS: number,
): Promise<MaintenanceItem[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const servers = await db
    .selectFrom('maintenance_window_servers as m')
    .innerJoin('servers as s', (j) =>
      j.onRef('s.id', '=', 'm.server_id').onRef('s.customer_id', '=', 'm.customer_id'),
    )
    .select(['m.window_id', 's.id', 's.name', 's.hostname'])
    .where('m.customer_id', '=', customerId)
    .where('m.window_id', 'in', ids)
    .orderBy('s.id')
    .execute();
  const creatorIds = [...new Set(rows.map((r) => r.created_by).filter((id): id is number => id !== null))];
  const creators =
    creatorIds.length === 0
      ? []
      : await db
          .selectFrom('users')
          .select(['id', 'name'])
          .where('customer_id', '=', customerId)
          .where('id', 'in', creatorIds)
          .execute();
  return rows.map((row) => {
    const { status, occurrence } = stateAt(timingOf(row), nowS);
    const creator = creators.find((u) => u.id === row.created_by);
    return {
      id: row.id,
      all_servers: row.all_servers === 1,
      servers: servers
        .filter((s) => s.window_id === row.id)
        .map((s) => ({ id: s.id, name: s.name ?? s.hostname })),
      service: row.service === '' ? null : row.service,
      start: row.start_at,
      end: row.end_at,
      reason: row.reason,
      recurrence: recurrenceOf(row),
      approved: row.approved === 1,
      status,
      occurrence,
      created_by: creator ? { id: creator.id, name: creator.name } : null,
      created_at: row.created_at,
      finished_at: row.finished_at,
    };
  });
}

const STATE_ORDER: Record<MaintenanceState, number> = { active: 0, scheduled: 1, historic: 2 };

/**
 * The customer's windows at `nowS`, of one state or all: running ones first, then scheduled ones
 * (both by the start of their occurrence), then historic ones (most recent first, at most
 * MAX_HISTORIC_LISTED). With `serverId`, only the windows that cover that server.
 */
export async function listWindows(
  db: Db,
  customerId: number,
  nowS: number,
  filter: { status?: MaintenanceState; serverId?: number } = {},
): Promise<MaintenanceItem[]> {
  const base = () => {
    let q = db.selectFrom('maintenance_windows').selectAll().where('customer_id', '=', customerId);
    if (filter.serverId !== undefined) {
      const serverId = filter.serverId;
      q = q.where((eb) =>
        eb.or([
          eb('all_servers', '=', 1),
          eb.exists(
            eb
              .selectFrom('maintenance_window_servers as m')
              .select('m.window_id')
              .whereRef('m.window_id', '=', 'maintenance_windows.id')
              .where('m.customer_id', '=', customerId)
              .where('m.server_id', '=', serverId),
          ),
        ]),
      );
    }
    return q;
  };
  // A window whose last occurrence ended is historic; any other is running or to come.
  const current =
    filter.status === 'historic'
      ? []
      : await base()
          .where((eb) => eb.or([eb('last_end_at', 'is', null), eb('last_end_at', '>', nowS)]))
          .execute();
  const past =
    filter.status === 'active' || filter.status === 'scheduled'
      ? []
      : await base()
          .where('last_end_at', '<=', nowS)
          .orderBy('last_end_at', 'desc')
          .orderBy('id', 'desc')
          .limit(MAX_HISTORIC_LISTED)
          .execute();
  const items = await toItems(db, customerId, [...current, ...past], nowS);
  return items
    .filter((i) => filter.status === undefined || i.status === filter.status)
    .sort((a, b) => {
      if (a.status !== b.status) return STATE_ORDER[a.status] - STATE_ORDER[b.status];
      const sa = a.occurrence?.start ?? a.start;
      const sb = b.occurrence?.start ?? b.start;
      if (a.status === 'historic')
        return (b.occurrence?.end ?? b.end) - (a.occurrence?.end ?? a.end) || b.id - a.id;
      return sa - sb || a.id - b.id;
    });
}

/**
 * Approved maintenance per UTC day over [start, end), cut at `nowS` (what has happened): the
 * occurrences that overlapped each day and the minutes of it when at least one was running.
 */
export async function historicChart(
  db: Db,
  customerId: number,
  range: { start: number; end: number },
  nowS: number,
): Promise<MaintenanceChartDay[]> {
  const to = Math.min(range.end, nowS);
  const firstDay = range.start - (((range.start % DAY_S) + DAY_S) % DAY_S);
  const days: MaintenanceChartDay[] = [];
  for (let day = firstDay; day < range.end; day += DAY_S) days.push({ day, windows: 0, minutes: 0 });
  if (to <= range.start) return days;
  const rows = await db
    .selectFrom('maintenance_windows')
    .selectAll()
    .where('customer_id', '=', customerId)
    .where('approved', '=', 1)
    .where('start_at', '<', to)
    .where((eb) => eb.or([eb('last_end_at', 'is', null), eb('last_end_at', '>', range.start)]))
    .execute();
  const spans: MaintenanceSpan[] = [];
  for (const row of rows) {
    for (const span of occurrencesBetween(timingOf(row), range.start, to)) {
      const clipped = { start: Math.max(span.start, range.start), end: Math.min(span.end, to) };
      spans.push(clipped);
      for (let i = Math.floor((clipped.start - firstDay) / DAY_S); i < days.length; i++) {
        const d = days[i]!;
        if (d.day >= clipped.end) break;
        d.windows++;
      }
    }
  }
  // Minutes in maintenance: the union of the spans, so overlapping windows count once.
  spans.sort((a, b) => a.start - b.start);
  let open: MaintenanceSpan | null = null;
  const addSeconds = (s: MaintenanceSpan) => {
    for (let i = Math.floor((s.start - firstDay) / DAY_S); i < days.length; i++) {
      const d = days[i]!;
      if (d.day >= s.end) break;
      const seconds = Math.min(s.end, d.day + DAY_S) - Math.max(s.start, d.day);
      if (seconds > 0) d.minutes += seconds / 60;
    }
  };
  for (const s of spans) {
    if (open && s.start <= open.end) open.end = Math.max(open.end, s.end);
    else {
      if (open) addSeconds(open);
      open = { ...s };
    }
  }
  if (open) addSeconds(open);
  for (const d of days) d.minutes = Math.round(d.minutes * 100) / 100;
  return days;
}
