import {
  type FileCheckResult,
  type FilesSyncData,
  FilesSyncRequest,
  MAX_FILE_CHANGES_KEPT,
  MAX_MONITORED_FILES_PER_HOST,
  MAX_PENDING_PATH_TESTS,
  type MonitoredFileStatus,
} from '@flightdeck/schemas';
import type { Transaction } from 'kysely';
import { unixNow } from '../../clock';
import type { Database, Db } from '../../db/kysely';
import { getServerByHostKey } from '../../db/queries/servers';
import type { MonitoredFileRow } from '../../db/types';
import { pathTestWaitS } from './queries';

type Trx = Transaction<Database>;

/** The columns a result sets, and the change it records when the content differs from the last read. */
function applyResult(row: MonitoredFileRow, result: FileCheckResult, checkedAt: number) {
  const common = { last_checked_at: checkedAt, mtime: result.mtime ?? row.mtime };
  if (result.status !== 'hashed' || result.sha256 === undefined) {
    return {
      set: {
        ...common,
        status: result.status as MonitoredFileStatus,
        error: result.error ?? null,
        size: result.size ?? row.size,
      },
      change: undefined,
    };
  }
  const sha256 = result.sha256;
  const size = result.size ?? null;
  if (row.baseline_sha256 === null) {
    // The first read sets the baseline.
    return {
      set: {
        ...common,
        status: 'ok' as const,
        error: null,
        sha256,
        size,
        baseline_sha256: sha256,
        baseline_at: checkedAt,
      },
      change: undefined,
    };
  }
  const differs = row.sha256 !== null && row.sha256 !== sha256;
  return {
    set: {
      ...common,
      status: (sha256 === row.baseline_sha256 ? 'ok' : 'changed') as MonitoredFileStatus,
      error: null,
      sha256,
      size,
      ...(differs ? { changed_at: checkedAt } : {}),
    },
    change: differs
      ? { previous_sha256: row.sha256, sha256, size, mtime: result.mtime ?? null, detected_at: checkedAt }
      : undefined,
  };
}

async function trimChanges(trx: Trx, customerId: number, fileId: number): Promise<void> {
  const keepFrom = await trx
    .selectFrom('monitored_file_changes')
    .select('id')
    .where('customer_id', '=', customerId)
    .where('file_id', '=', fileId)
    .orderBy('id', 'desc')
    .offset(MAX_FILE_CHANGES_KEPT - 1)
    .limit(1)
    .executeTakeFirst();
  if (!keepFrom) return;
  await trx
    .deleteFrom('monitored_file_changes')
    .where('customer_id', '=', customerId)
    .where('file_id', '=', fileId)
    .where('id', '<', keepFrom.id)
    .execute();
}

/**
 * The files sync of one host (the same function behind `POST /agent/files/sync` and the embedded
 * agent): stores the agent's check results (the first hash of a file sets its baseline; a hash
 * other than the last one read records a change) and its path-test answers, then answers the
 * host's watch list and the tests still waiting for it. Results and answers about files or tests
 * that are not this host's are ignored; a host not registered yet (no heartbeat) gets empty lists.
 * The caller has checked that `request.tenant` is `customerId`.
 */
export async function syncAgentFiles(
  db: Db,
  customerId: number,
  request: FilesSyncRequest,
  now: number = unixNow(),
): Promise<FilesSyncData> {
  const server = await getServerByHostKey(db, customerId, request.host);
  if (!server) return { watch: [], tests: [] };

  await db.transaction().execute(async (trx) => {
    if (request.results.length > 0) {
      const rows = await trx
        .selectFrom('monitored_files')
        .selectAll()
        .where('customer_id', '=', customerId)
        .where('server_id', '=', server.id)
        .where(
          'id',
          'in',
          request.results.map((r) => r.id),
        )
        .execute();
      const byId = new Map(rows.map((r) => [r.id, r]));
      for (const result of request.results) {
        const row = byId.get(result.id);
        // A file removed (or re-added under a new id) since the agent's last sync.
        if (!row || row.path !== result.path) continue;
        const { set, change } = applyResult(row, result, Math.min(result.checked_at, now));
        await trx
          .updateTable('monitored_files')
          .set(set)
          .where('customer_id', '=', customerId)
          .where('id', '=', row.id)
          .execute();
        if (change) {
          await trx
            .insertInto('monitored_file_changes')
            .values({
              ...change,
              customer_id: customerId,
              file_id: row.id,
              accepted_at: null,
              accepted_by: null,
            })
            .execute();
          await trimChanges(trx, customerId, row.id);
        }
        // Two results for one file in one request: the second compares with the first.
        byId.set(row.id, { ...row, ...set } as MonitoredFileRow);
      }
    }
    for (const answer of request.tests) {
      await trx
        .updateTable('file_path_tests')
        .set({
          status: answer.status,
          reason: answer.status === 'error' ? (answer.reason ?? 'error') : null,
          message: answer.message,
          size: answer.size ?? null,
          answered_at: now,
        })
        .where('customer_id', '=', customerId)
        .where('server_id', '=', server.id)
        .where('id', '=', answer.id)
        .where('status', '=', 'pending')
        .execute();
    }
  });

  const [watch, tests] = await Promise.all([
    db
      .selectFrom('monitored_files')
      .select(['id', 'path'])
      .where('customer_id', '=', customerId)
      .where('server_id', '=', server.id)
      .orderBy('id')
      .limit(MAX_MONITORED_FILES_PER_HOST)
      .execute(),
    db
      .selectFrom('file_path_tests')
      .select(['id', 'path'])
      .where('customer_id', '=', customerId)
      .where('server_id', '=', server.id)
      .where('status', '=', 'pending')
      .where('created_at', '>=', now - pathTestWaitS(server.interval_s))
      .orderBy('id')
      .limit(MAX_PENDING_PATH_TESTS)
      .execute(),
  ]);
  return { watch, tests };
}

/**
 * A files sync for an agent running in this process (the embedded product): the request is
 * checked against the shared schema as the HTTP route would, and its tenant names the customer.
 */
export function inProcessFilesSync(db: Db): (request: FilesSyncRequest) => Promise<FilesSyncData> {
  return async (request) => {
    const parsed = FilesSyncRequest.parse(request);
    if (!/^[1-9][0-9]{0,15}$/.test(parsed.tenant)) {
      throw new Error(`files sync: tenant ${JSON.stringify(parsed.tenant)} is not a customer id`);
    }
    return syncAgentFiles(db, Number(parsed.tenant), parsed);
  };
}
