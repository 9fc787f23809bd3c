import {
  DEFAULT_MAX_HASHED_FILE_BYTES,
  type FileCheckResult,
  type FileTarget,
  MAX_FILE_MESSAGE_LENGTH,
  type PathTestAnswer,
} from '@flightdeck/schemas/api/files';
import type { Logger } from 'pino';
import { errorMessage } from '../collectors/linux/proc';
import { createScheduler } from '../scheduler';
import { checkFile, type FileCheck, testPath } from './check';
import type { FilesSync } from './contract';

/** Files hashed at once by default: enough to overlap I/O, few enough to leave the disk to others. */
export const DEFAULT_FILES_CONCURRENCY = 4;
/** A hash is reused while the file's identity is unchanged, but never for longer than this. */
export const DEFAULT_FULL_REHASH_MS = 60 * 60 * 1000;
/**
 * Syncs in one run at most: after the regular one, up to two more for files added and paths to
 * test since the last run, so a new file or a path test is answered within one interval.
 */
const MAX_SYNCS_PER_RUN = 3;

export interface FilesWatcherOptions {
  sync: FilesSync;
  tenant: string;
  host: string;
  /** Time between runs (the agent's interval). */
  intervalMs: number;
  /** Files above this size are reported `too_large` rather than hashed (default 64 MB). */
  maxFileBytes?: number;
  /** Files hashed at once (default 4). */
  concurrency?: number;
  /** Longest time a hash is reused for a file whose identity did not change (default 1 h). */
  fullRehashMs?: number;
  /** Where the host's file system is mounted when the agent runs in a container (default `/`). */
  hostRoot?: string;
  /** Names where the sync goes, for log lines (e.g. the endpoint URL). */
  target?: string;
  logger: Logger;
  /** Unix ms; for tests. */
  now?: () => number;
}

export interface FilesRunResult {
  /** Files checked in this run. */
  checked: number;
  /** Path tests answered in this run. */
  answered: number;
  /** Syncs that reached the api. */
  syncs: number;
  /** False when a sync failed (the api is down or refused it). */
  synced: boolean;
}

export interface FilesWatcherStats {
  runs: number;
  syncFailures: number;
  /** Files on the watch list the api last gave. */
  watched: number;
  /** Unix ms of the last sync that reached the api; null before the first. */
  lastSyncAt: number | null;
}

export interface FilesWatcher {
  /** Runs now, then every interval. Resolves after the first run; never rejects. */
  start(): Promise<void>;
  /** Stops the schedule and waits for the run in flight. */
  stop(): Promise<void>;
  /** One run now (never overlapping another): check, answer tests, sync. Never rejects. */
  runOnce(): Promise<FilesRunResult>;
  stats(): FilesWatcherStats;
}

/** Runs `fn` over `items` with at most `limit` calls in flight; results keep the order of `items`. */
async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

function shorten(message: string): string {
  return message.length <= MAX_FILE_MESSAGE_LENGTH
    ? message
    : `${message.slice(0, MAX_FILE_MESSAGE_LENGTH - 1)}…`;
}

/**
 * The critical-files watcher of an agent. Every interval it hashes the files of its watch list
 * (SHA-256, streamed, at most `concurrency` at once, none above `maxFileBytes`), answers the path
 * tests the api asked for, and sends both in one files sync, whose answer is the new watch list.
 * Files added and tests asked for since the last run are handled at once with another sync.
 *
 * It runs beside the metric runs and never fails one: a file that cannot be read is reported with
 * its reason (and logged once when it becomes unreadable, naming it); a sync that fails is logged
 * with its target and tried again at the next run, with the watch list kept meanwhile.
 */
export function createFilesWatcher(options: FilesWatcherOptions): FilesWatcher {
  const { sync, tenant, host, logger } = options;
  const maxBytes = options.maxFileBytes ?? DEFAULT_MAX_HASHED_FILE_BYTES;
  const concurrency = Math.max(1, options.concurrency ?? DEFAULT_FILES_CONCURRENCY);
  const fullRehashMs = options.fullRehashMs ?? DEFAULT_FULL_REHASH_MS;
  const target = options.target ?? 'the files sync';
  const hostRoot = options.hostRoot;
  const now = options.now ?? Date.now;

  let watch: FileTarget[] = [];
  let waitingTests: FileTarget[] = [];
  /** Last hash per file id, with the identity of the file it was read from. */
  const cache = new Map<number, { path: string; identity: string; sha256: string; hashedAt: number }>();
  /** Last outcome per file id, so a problem is logged when it starts rather than every run. */
  const lastOutcome = new Map<number, string>();
  const stats: FilesWatcherStats = { runs: 0, syncFailures: 0, watched: 0, lastSyncAt: null };
  let syncFailing = false;

  async function checkOne(file: FileTarget): Promise<FileCheckResult> {
    const cached = cache.get(file.id);
    const usable = cached && cached.path === file.path && now() - cached.hashedAt < fullRehashMs;
    const check: FileCheck = await checkFile(file.path, {
      maxBytes,
      hostRoot,
      cached: usable ? cached : undefined,
    });
    if (check.status === 'hashed' && check.sha256 && check.identity) {
      if (!usable || cached.identity !== check.identity) {
        cache.set(file.id, {
          path: file.path,
          identity: check.identity,
          sha256: check.sha256,
          hashedAt: now(),
        });
      }
    } else {
      cache.delete(file.id);
    }
    const outcome = `${check.status}:${check.error ?? ''}`;
    if (check.status !== 'hashed' && lastOutcome.get(file.id) !== outcome) {
      logger.warn({ file: file.path, status: check.status }, `critical file not hashed: ${check.error}`);
    }
    lastOutcome.set(file.id, outcome);
    return {
      id: file.id,
      path: file.path,
      status: check.status,
      ...(check.sha256 !== undefined ? { sha256: check.sha256 } : {}),
      ...(check.size !== undefined ? { size: check.size } : {}),
      ...(check.mtime !== undefined ? { mtime: check.mtime } : {}),
      checked_at: Math.floor(now() / 1000),
      ...(check.error !== undefined ? { error: shorten(check.error) } : {}),
    };
  }

  async function answerOne(test: FileTarget): Promise<PathTestAnswer> {
    const outcome = await testPath(test.path, { maxBytes, hostRoot });
    return {
      id: test.id,
      status: outcome.status,
      ...(outcome.reason !== undefined ? { reason: outcome.reason } : {}),
      message: shorten(outcome.message),
      ...(outcome.size !== undefined ? { size: outcome.size } : {}),
    };
  }

  async function cycle(): Promise<FilesRunResult> {
    const result: FilesRunResult = { checked: 0, answered: 0, syncs: 0, synced: true };
    let toCheck = watch;
    let toAnswer = waitingTests;
    const checked = new Set<string>();
    for (let round = 0; round < MAX_SYNCS_PER_RUN; round++) {
      const results = await mapLimit(toCheck, concurrency, checkOne);
      const answers = await mapLimit(toAnswer, concurrency, answerOne);
      for (const f of toCheck) checked.add(`${f.id}\0${f.path}`);
      let answer: Awaited<ReturnType<FilesSync>>;
      try {
        answer = await sync({ tenant, host, results, tests: answers });
      } catch (err) {
        stats.syncFailures++;
        result.synced = false;
        // The answers are worked out again next run; the watch list stays what it was.
        if (!syncFailing) {
          logger.warn(
            { err: errorMessage(err), target },
            `files sync with ${target} failed; trying again every run`,
          );
        }
        syncFailing = true;
        return result;
      }
      if (syncFailing) logger.info({ target }, `files sync with ${target} works again`);
      syncFailing = false;
      result.syncs++;
      result.checked += results.length;
      result.answered += answers.length;
      stats.lastSyncAt = now();
      watch = answer.watch;
      waitingTests = answer.tests;
      stats.watched = watch.length;
      const ids = new Set(watch.map((w) => w.id));
      for (const id of [...cache.keys()]) if (!ids.has(id)) cache.delete(id);
      for (const id of [...lastOutcome.keys()]) if (!ids.has(id)) lastOutcome.delete(id);
      toCheck = watch.filter((w) => !checked.has(`${w.id}\0${w.path}`));
      toAnswer = waitingTests;
      if (toCheck.length === 0 && toAnswer.length === 0) break;
    }
    return result;
  }

  let tail: Promise<unknown> = Promise.resolve();
  function runOnce(): Promise<FilesRunResult> {
    const run = tail.then(cycle).then(
      (r) => {
        stats.runs++;
        return r;
      },
      (err: unknown): FilesRunResult => {
        // cycle() handles what it expects; this is a bug, and the next run tries again.
        logger.error({ err: errorMessage(err) }, 'critical files run failed');
        return { checked: 0, answered: 0, syncs: 0, synced: false };
      },
    );
    tail = run;
    return run;
  }

  const scheduler = createScheduler({
    intervalMs: options.intervalMs,
    logger,
    task: async () => {
      await runOnce();
    },
  });

  return {
    start: () => scheduler.start(),
    async stop() {
      await scheduler.stop();
      await tail;
    },
    runOnce,
    stats: () => ({ ...stats }),
  };
}
