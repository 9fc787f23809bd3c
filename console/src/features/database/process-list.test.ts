import type { BlockedSession, DbSession, ProcessListData } from '@flightdeck/schemas';
import { describe, expect, it } from 'vitest';
import {
  filterSessions,
  isLongQuery,
  isRunning,
  sessionRows,
  shortQuery,
  sortByDuration,
  visibleRows,
} from './process-list';

const session = (id: number, over: Partial<DbSession> = {}): DbSession => ({
  id,
  user: 'app',
  database: 'shop',
  client: '10.0.0.5',
  application: 'api',
  state: 'active',
  wait: null,
  duration_s: 1,
  query: 'SELECT 1',
  ...over,
});

const blocked = (id: number, by: DbSession[], over: Partial<BlockedSession> = {}): BlockedSession => ({
  ...session(id, { wait: 'Lock: transactionid' }),
  wait_s: 12,
  blocked_by: by,
  ...over,
});

const list = (over: Partial<ProcessListData> = {}): ProcessListData => ({
  ts: 1_700_000_000_000,
  sessions: [],
  blocked: [],
  long_query_s: 60,
  truncated: false,
  ...over,
});

describe('long queries', () => {
  it('marks a running statement at or past the threshold as long', () => {
    expect(isLongQuery(session(1, { duration_s: 60 }), 60)).toBe(true);
    expect(isLongQuery(session(1, { duration_s: 59.9 }), 60)).toBe(false);
  });

  it('does not mark an idle session however long it has been idle', () => {
    expect(isLongQuery(session(1, { state: 'idle', duration_s: 9_000 }), 60)).toBe(false);
    expect(isLongQuery(session(1, { state: 'Sleep', duration_s: 9_000 }), 60)).toBe(false);
    expect(isLongQuery(session(1, { state: 'idle in transaction', duration_s: 9_000 }), 60)).toBe(false);
  });

  it("reads each engine's running states: PostgreSQL active, MySQL Query and Execute, SQL Server running", () => {
    for (const state of ['active', 'Query', 'Execute', 'running', 'runnable', 'suspended']) {
      expect(isRunning(session(1, { state })), state).toBe(true);
    }
    expect(isRunning(session(1, { state: 'Binlog Dump' }))).toBe(false);
  });

  it('takes a session without a state as running while it has a statement', () => {
    expect(isRunning(session(1, { state: null }))).toBe(true);
    expect(isRunning(session(1, { state: null, query: null }))).toBe(false);
  });

  it('never marks a session whose duration is unknown', () => {
    expect(isLongQuery(session(1, { duration_s: null }), 1)).toBe(false);
  });
});

describe('sorting and filtering', () => {
  const sessions = [
    session(3, { duration_s: 5 }),
    session(1, { duration_s: null }),
    session(2, { duration_s: 300 }),
    session(4, { duration_s: 5 }),
  ];

  it('sorts by duration, longest first, then by id; unknown durations last', () => {
    expect(sortByDuration(sessions, 'desc').map((s) => s.id)).toEqual([2, 3, 4, 1]);
  });

  it('sorts shortest first and still keeps unknown durations last', () => {
    expect(sortByDuration(sessions, 'asc').map((s) => s.id)).toEqual([3, 4, 2, 1]);
  });

  it('does not reorder the list it was given', () => {
    sortByDuration(sessions, 'desc');
    expect(sessions.map((s) => s.id)).toEqual([3, 1, 2, 4]);
  });

  it('keeps the sessions holding every word of the filter, in any case', () => {
    const rows = [
      session(1, { user: 'report', query: 'SELECT pg_sleep(300)' }),
      session(2, { user: 'app', query: 'UPDATE orders SET paid = true' }),
      session(3, { user: 'app', database: 'billing', query: 'select * from ORDERS' }),
    ];
    expect(filterSessions(rows, 'PG_SLEEP').map((s) => s.id)).toEqual([1]);
    expect(filterSessions(rows, 'orders app').map((s) => s.id)).toEqual([2, 3]);
    expect(filterSessions(rows, 'orders billing').map((s) => s.id)).toEqual([3]);
    expect(filterSessions(rows, '  ').map((s) => s.id)).toEqual([1, 2, 3]);
    expect(filterSessions(rows, 'nothing-like-this')).toEqual([]);
  });

  it('matches a session by its id', () => {
    expect(filterSessions([session(1234), session(99)], '1234').map((s) => s.id)).toEqual([1234]);
  });
});

describe('session rows', () => {
  it('marks long queries against the threshold of the answer', () => {
    const rows = sessionRows(
      list({
        long_query_s: 10,
        sessions: [session(1, { duration_s: 300 }), session(2, { duration_s: 3 })],
      }),
    );
    expect(rows.map((r) => [r.session.id, r.long])).toEqual([
      [1, true],
      [2, false],
    ]);
  });

  it('gives a blocked session its blockers and each blocker the sessions it blocks', () => {
    const holder = session(10, { state: 'idle in transaction', duration_s: 90 });
    const rows = sessionRows(
      list({
        sessions: [holder, session(11), session(12)],
        blocked: [blocked(11, [holder]), blocked(12, [holder, session(11)], { wait_s: null })],
      }),
    );
    const byId = new Map(rows.map((r) => [r.session.id, r]));
    expect(byId.get(10)?.blocking).toEqual([11, 12]);
    expect(byId.get(11)?.blockedBy).toEqual([10]);
    expect(byId.get(11)?.blocking).toEqual([12]);
    expect(byId.get(11)?.waitS).toBe(12);
    expect(byId.get(12)?.blockedBy).toEqual([10, 11]);
    expect(byId.get(12)?.waitS).toBeNull();
  });

  it('lists a blocked session the answer left out of its sessions', () => {
    const rows = sessionRows(list({ sessions: [session(1)], blocked: [blocked(7, [session(1)])] }));
    expect(rows.map((r) => r.session.id)).toEqual([1, 7]);
    expect(rows[1]?.session).not.toHaveProperty('blocked_by');
  });

  it('filters and sorts the rows together', () => {
    const rows = sessionRows(
      list({
        sessions: [
          session(1, { duration_s: 4, query: 'SELECT SLEEP(300)' }),
          session(2, { duration_s: 400, query: 'SELECT SLEEP(300)' }),
          session(3, { duration_s: 40, query: 'COMMIT' }),
        ],
      }),
    );
    expect(visibleRows(rows, 'sleep', 'desc').map((r) => r.session.id)).toEqual([2, 1]);
    expect(visibleRows(rows, '', 'asc').map((r) => r.session.id)).toEqual([1, 3, 2]);
  });
});

describe('shortQuery', () => {
  it('puts a statement on one line and cuts it with an ellipsis', () => {
    const query = `SELECT *\n  FROM orders\n WHERE id = 1 ${'AND x = 1 '.repeat(20)}`;
    const short = shortQuery(query, 40);
    expect(short.text).toHaveLength(40);
    expect(short.text.endsWith('…')).toBe(true);
    expect(short.text.startsWith('SELECT * FROM orders WHERE id = 1')).toBe(true);
    expect(short.truncated).toBe(true);
  });

  it('leaves a short one-line statement as it is', () => {
    expect(shortQuery('SELECT 1')).toEqual({ text: 'SELECT 1', truncated: false });
    expect(shortQuery(null)).toEqual({ text: '', truncated: false });
  });

  it('says a short statement laid out on several lines has more to show', () => {
    expect(shortQuery('SELECT 1\nFROM dual')).toEqual({ text: 'SELECT 1 FROM dual', truncated: true });
  });
});
