import type { BlockedSession, DbSession, ProcessListData } from '@flightdeck/schemas';

/**
 * The process list's pure parts: which sessions run a long query, who blocks whom, the filter box
 * and the sort by duration.
 */

/**
 * Session states that mean "running a statement", as each engine spells them: PostgreSQL `active`,
 * MySQL's command `Query`/`Execute`, SQL Server's `running`/`runnable`/`suspended`.
 */
const RUNNING_STATES = new Set([
  'active',
  'fastpath function call',
  'query',
  'execute',
  'running',
  'runnable',
  'suspended',
]);

/** A session that runs a statement now; an engine without a state column runs while it has one. */
export function isRunning(session: DbSession): boolean {
  if (session.state === null) return session.query !== null && session.query !== '';
  return RUNNING_STATES.has(session.state.toLowerCase());
}

/** The target's rule (ProcessListData.long_query_s): a running statement at least this old. */
export function isLongQuery(session: DbSession, longQueryS: number): boolean {
  return isRunning(session) && session.duration_s !== null && session.duration_s >= longQueryS;
}

export type SortDirection = 'asc' | 'desc';

/** By duration (a session without one last either way), then by id so the order is stable. */
export function sortByDuration<T extends DbSession>(sessions: readonly T[], direction: SortDirection): T[] {
  const sign = direction === 'desc' ? -1 : 1;
  return [...sessions].sort((a, b) => {
    if (a.duration_s === null || b.duration_s === null) {
      if (a.duration_s !== b.duration_s) return a.duration_s === null ? 1 : -1;
      return a.id - b.id;
    }
    return sign * (a.duration_s - b.duration_s) || a.id - b.id;
  });
}

function haystack(session: DbSession): string {
  return [
    String(session.id),
    session.user,
    session.database,
    session.client,
    session.application,
    session.state,
    session.wait,
    session.query,
  ]
    .filter((part): part is string => part !== null)
    .join('\n')
    .toLowerCase();
}

/** The sessions holding every word of `text` (any case) in an id, name, state or their query. */
export function filterSessions<T extends DbSession>(sessions: readonly T[], text: string): T[] {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...sessions];
  return sessions.filter((session) => {
    const hay = haystack(session);
    return words.every((word) => hay.includes(word));
  });
}

/** One line of the process list. */
export interface SessionRow {
  session: DbSession;
  long: boolean;
  /** Ids of the sessions holding the lock it waits for (empty when it waits for none). */
  blockedBy: number[];
  /** Seconds it has waited for the lock, when the engine tells. */
  waitS: number | null;
  /** Ids of the sessions waiting for a lock it holds. */
  blocking: number[];
}

/**
 * The lines of the list: every session, and a blocked session the list did not hold (it was cut at
 * the most listed), each marked long or not and with its blockers and the sessions it blocks.
 */
export function sessionRows(data: ProcessListData): SessionRow[] {
  const blockedById = new Map<number, BlockedSession>(data.blocked.map((b) => [b.id, b]));
  const blocking = new Map<number, number[]>();
  for (const b of data.blocked) {
    for (const holder of b.blocked_by) {
      const list = blocking.get(holder.id) ?? [];
      if (!list.includes(b.id)) list.push(b.id);
      blocking.set(holder.id, list);
    }
  }
  const listed = new Set(data.sessions.map((s) => s.id));
  const sessions: DbSession[] = [
    ...data.sessions,
    ...data.blocked
      .filter((b) => !listed.has(b.id))
      .map(({ wait_s: _wait, blocked_by: _by, ...session }) => session),
  ];
  return sessions.map((session) => {
    const blocked = blockedById.get(session.id);
    return {
      session,
      long: isLongQuery(session, data.long_query_s),
      blockedBy: blocked ? blocked.blocked_by.map((h) => h.id) : [],
      waitS: blocked?.wait_s ?? null,
      blocking: (blocking.get(session.id) ?? []).sort((a, b) => a - b),
    };
  });
}

/** The filter box and the duration sort applied to the lines. */
export function visibleRows(
  rows: readonly SessionRow[],
  text: string,
  direction: SortDirection,
): SessionRow[] {
  const byId = new Map(rows.map((row) => [row.session.id, row]));
  const kept = filterSessions(
    rows.map((row) => row.session),
    text,
  );
  return sortByDuration(kept, direction).map((session) => byId.get(session.id)!);
}

/** A statement on one line, cut to `max` characters with an ellipsis. */
export function shortQuery(query: string | null, max = 120): { text: string; truncated: boolean } {
  if (query === null) return { text: '', truncated: false };
  const oneLine = query.replace(/\s+/g, ' ').trim();
  if (oneLine.length <= max) return { text: oneLine, truncated: oneLine !== query };
  return { text: `${oneLine.slice(0, max - 1)}…`, truncated: true };
}
