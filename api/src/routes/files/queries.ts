import {
  MAX_FILE_CHANGES_KEPT,
  MAX_MONITORED_FILES_PER_HOST,
  MAX_PENDING_PATH_TESTS,
  type MonitoredFile,
  type MonitoredFileChange,
  type MonitoredFileStatus,
  type PathTestReason,
  type PathTestResult,
} from '@flightdeck/schemas';
import type { Db } from '../../db/kysely';
import type { FilePathTestRow, MonitoredFileRow } from '../../db/types';
import { ApiError } from '../../errors';
import { DEFAULT_INTERVAL_S } from '../servers/shared';

/**
 * Data access of the critical files. Every function takes the customer id and filters by it, so
 * an id of another customer's file, server or test reads exactly like a missing one.
 */

/** A path test waits at least this long for the agent (it sees the test at its next sync). */
export const PATH_TEST_MIN_WAIT_S = 120;
/** Answered and expired path tests are deleted after this long. */
export const PATH_TEST_KEEP_S = 24 * 3600;

type FileWithServer = MonitoredFileRow & { server_name: string | null; hostname: string };

function num(value: number | null): number | null {
  return value === null ? null : Number(value);
}

/** A row as the console reads it. */
export function toMonitoredFile(row: FileWithServer): MonitoredFile {
  return {
    id: row.id,
    server_id: row.server_id,
    server_name: row.server_name ?? row.hostname,
    path: row.path,
    status: row.status as MonitoredFileStatus,
    baseline_sha256: row.baseline_sha256,
    sha256: row.sha256,
    size: num(row.size),
    mtime: num(row.mtime),
    last_checked_at: num(row.last_checked_at),
    changed_at: num(row.changed_at),
    baseline_at: num(row.baseline_at),
    error: row.error,
    created_at: Number(row.created_at),
  };
}

function filesWithServer(db: Db, customerId: number) {
  return db
    .selectFrom('monitored_files as f')
    .innerJoin('servers as s', (j) =>
      j.onRef('s.id', '=', 'f.server_id').onRef('s.customer_id', '=', 'f.customer_id'),
    )
    .selectAll('f')
    .select(['s.name as server_name', 's.hostname as hostname'])
    .where('f.customer_id', '=', customerId);
}

/** The customer's monitored files, by server then path; optionally of one server or one status. */
export async function listMonitoredFiles(
  db: Db,
  customerId: number,
  filter: { serverId?: number | undefined; status?: MonitoredFileStatus | undefined } = {},
): Promise<MonitoredFile[]> {
  let q = filesWithServer(db, customerId);
  if (filter.serverId !== undefined) q = q.where('f.server_id', '=', filter.serverId);
  if (filter.status !== undefined) q = q.where('f.status', '=', filter.status);
  const rows = await q.orderBy('f.server_id').orderBy('f.path').orderBy('f.id').execute();
  return rows.map(toMonitoredFile);
}

/** One of the customer's files, or 404. */
export async function monitoredFileOr404(db: Db, customerId: number, id: number): Promise<MonitoredFile> {
  const row = await filesWithServer(db, customerId).where('f.id', '=', id).executeTakeFirst();
  if (!row) throw ApiError.of('not_found', 'This monitored file could not be found.');
  return toMonitoredFile(row);
}

/** Changes of one of the customer's files, newest first. */
export async function listFileChanges(
  db: Db,
  customerId: number,
  fileId: number,
  limit = MAX_FILE_CHANGES_KEPT,
): Promise<MonitoredFileChange[]> {
  const rows = await db
    .selectFrom('monitored_file_changes')
    .selectAll()
    .where('customer_id', '=', customerId)
    .where('file_id', '=', fileId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    detected_at: Number(r.detected_at),
    previous_sha256: r.previous_sha256,
    sha256: r.sha256,
    size: num(r.size),
    mtime: num(r.mtime),
    accepted_at: num(r.accepted_at),
  }));
}

async function countFilesOfServer(db: Db, customerId: number, serverId: number): Promise<number> {
  const row = await db
    .selectFrom('monitored_files')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('customer_id', '=', customerId)
    .where('server_id', '=', serverId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Starts monitoring `path` on a server the caller has already checked is the customer's. 409
 * `conflict` when the path is monitored there already; 409 `limit_reached` past
 * MAX_MONITORED_FILES_PER_HOST. The file stays `pending` until the agent's next check.
 */
export async function addMonitoredFile(
  db: Db,
  customerId: number,
  serverId: number,
  path: string,
  userId: number | null,
  now: number,
): Promise<number> {
  if ((await countFilesOfServer(db, customerId, serverId)) >= MAX_MONITORED_FILES_PER_HOST) {
    throw ApiError.of(
      'limit_reached',
      `A server may have at most ${MAX_MONITORED_FILES_PER_HOST} monitored files: remove one before adding another.`,
    );
  }
  const row = await db
    .insertInto('monitored_files')
    .values({
      customer_id: customerId,
      server_id: serverId,
      path,
      status: 'pending',
      baseline_sha256: null,
      sha256: null,
      size: null,
      mtime: null,
      error: null,
      last_checked_at: null,
      changed_at: null,
      baseline_at: null,
      baseline_by: null,
      created_by: userId,
      created_at: now,
    })
    .onConflict((oc) => oc.columns(['server_id', 'path']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!row) throw ApiError.of('conflict', `${path} is already monitored on this server.`);
  return row.id;
}

/** Stops monitoring a file; its change history goes with it. 404 when it is not the customer's. */
export async function removeMonitoredFile(db: Db, customerId: number, id: number): Promise<void> {
  const result = await db
    .deleteFrom('monitored_files')
    .where('customer_id', '=', customerId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) {
    throw ApiError.of('not_found', 'This monitored file could not be found.');
  }
}

/**
 * Accepts the file's current hash as its baseline: the status goes back to `ok` and the open
 * changes are marked accepted. Only a file whose content the agent read can be equalized.
 */
export async function equalizeMonitoredFile(
  db: Db,
  customerId: number,
  id: number,
  userId: number | null,
  now: number,
): Promise<void> {
  const file = await monitoredFileOr404(db, customerId, id);
  if ((file.status !== 'changed' && file.status !== 'ok') || file.sha256 === null) {
    throw ApiError.of(
      'conflict',
      `There is no current content to accept: the file is ${file.status.replace('_', ' ')}.`,
    );
  }
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('monitored_files')
      .set({ baseline_sha256: file.sha256, status: 'ok', baseline_at: now, baseline_by: userId })
      .where('customer_id', '=', customerId)
      .where('id', '=', id)
      .execute();
    await trx
      .updateTable('monitored_file_changes')
      .set({ accepted_at: now, accepted_by: userId })
      .where('customer_id', '=', customerId)
      .where('file_id', '=', id)
      .where('accepted_at', 'is', null)
      .execute();
  });
}

// ---------------------------------------------------------------------------------------------
// Path tests.

/** How long a test waits for the agent of a server with this interval before it reads `no_answer`. */
export function pathTestWaitS(intervalS: number | null): number {
  return Math.max(PATH_TEST_MIN_WAIT_S, 3 * (intervalS ?? DEFAULT_INTERVAL_S));
}

/**
 * Asks the server's agent about a path. Old tests of the customer are deleted on the way; 409
 * `limit_reached` while MAX_PENDING_PATH_TESTS of this server still wait.
 */
export async function createPathTest(
  db: Db,
  customerId: number,
  server: { id: number; interval_s: number | null },
  path: string,
  now: number,
): Promise<number> {
  await db
    .deleteFrom('file_path_tests')
    .where('customer_id', '=', customerId)
    .where('created_at', '<', now - PATH_TEST_KEEP_S)
    .execute();
  const waiting = await db
    .selectFrom('file_path_tests')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('customer_id', '=', customerId)
    .where('server_id', '=', server.id)
    .where('status', '=', 'pending')
    .where('created_at', '>=', now - pathTestWaitS(server.interval_s))
    .executeTakeFirstOrThrow();
  if (Number(waiting.n) >= MAX_PENDING_PATH_TESTS) {
    throw ApiError.of(
      'limit_reached',
      `${MAX_PENDING_PATH_TESTS} path tests already wait for this server's agent: wait for their answers.`,
    );
  }
  const row = await db
    .insertInto('file_path_tests')
    .values({
      customer_id: customerId,
      server_id: server.id,
      path,
      status: 'pending',
      reason: null,
      message: null,
      size: null,
      created_at: now,
      answered_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

function toPathTestResult(row: FilePathTestRow): PathTestResult {
  return {
    test_id: row.id,
    server_id: row.server_id,
    path: row.path,
    status: row.status,
    reason: row.reason as PathTestReason | null,
    message: row.message,
    size: num(row.size),
    created_at: Number(row.created_at),
    answered_at: num(row.answered_at),
  };
}

/**
 * One of the customer's path tests, or 404. A test still pending after its wait is closed here as
 * `no_answer`, with what to check.
 */
export async function pathTestOr404(db: Db, customerId: number, testId: number, now: number) {
  const row = await db
    .selectFrom('file_path_tests as t')
    .innerJoin('servers as s', (j) =>
      j.onRef('s.id', '=', 't.server_id').onRef('s.customer_id', '=', 't.customer_id'),
    )
    .selectAll('t')
    .select(['s.interval_s as interval_s', 's.hostname as hostname'])
    .where('t.customer_id', '=', customerId)
    .where('t.id', '=', testId)
    .executeTakeFirst();
  if (!row) throw ApiError.of('not_found', 'This path test could not be found.');
  const { interval_s, hostname, ...test } = row;
  const waitS = pathTestWaitS(num(interval_s));
  if (test.status === 'pending' && now - Number(test.created_at) > waitS) {
    const closed = {
      status: 'error' as const,
      reason: 'no_answer',
      message: `The agent of ${hostname} did not answer within ${waitS} s: check that it is running and can reach Flightdeck.`,
      answered_at: now,
    };
    await db
      .updateTable('file_path_tests')
      .set(closed)
      .where('customer_id', '=', customerId)
      .where('id', '=', testId)
      .where('status', '=', 'pending')
      .execute();
    return toPathTestResult({ ...test, ...closed });
  }
  return toPathTestResult(test);
}
