import { z } from 'zod';
import { SubjectToken } from '../wire';
import { RowId } from './servers';

/**
 * Critical files (spec section 7, "Files" and "Critical files"): files a user picks on a monitored
 * host, which the host's agent hashes (SHA-256) every interval. The console calls are
 * `/server/get_files_monitored`, `/server/test_full_path`, `/server/test_result`,
 * `/server/add_config_file`, `/server/remove_config_file`, `/server/equalize_hash` and
 * `/flightdeck/cockpit/flies_critical/{list,get,equilize,remove,new}` (paths spelled as the spec
 * has them). The agent exchanges results for its watch list through one "files sync" call
 * (`POST /agent/files/sync` with the agent access key, or a direct call in the embedded product).
 * Times are unix seconds.
 */

/** Longest path accepted (Linux PATH_MAX). */
export const MAX_MONITORED_PATH_LENGTH = 4096;
/** Most files monitored on one host: the agent hashes them all every interval. */
export const MAX_MONITORED_FILES_PER_HOST = 200;
/** Default size above which the agent does not hash a file (status `too_large`); agents may set another. */
export const DEFAULT_MAX_HASHED_FILE_BYTES = 64 * 1024 * 1024;
/** Changes kept per file; older ones are dropped as new ones come. */
export const MAX_FILE_CHANGES_KEPT = 200;
/** Path tests one host may have waiting for its agent at once. */
export const MAX_PENDING_PATH_TESTS = 20;
/** Longest message an agent may give about a file or a path test. */
export const MAX_FILE_MESSAGE_LENGTH = 500;

const WINDOWS_DRIVE_PATH = /^[A-Za-z]:[\\/]/;

/**
 * A path on the monitored host: absolute (`/etc/my.cnf`, or a Windows drive path such as
 * `C:\app\web.config`), naming a file rather than a folder, without NUL, at most 4096 characters.
 * Taken as typed: the agent resolves it on its host.
 */
export const MonitoredPath = z
  .string()
  .min(1, 'expected a path')
  .max(MAX_MONITORED_PATH_LENGTH, `at most ${MAX_MONITORED_PATH_LENGTH} characters`)
  .refine((p) => !p.includes('\0'), 'must not contain a NUL character')
  .refine(
    (p) => p.startsWith('/') || WINDOWS_DRIVE_PATH.test(p),
    'expected an absolute path such as /etc/my.cnf or C:\\app\\web.config',
  )
  .refine((p) => !/[\\/]$/.test(p), 'expected a file, not a folder (the path ends with a separator)');
export type MonitoredPath = z.infer<typeof MonitoredPath>;

/** Lower-case hex SHA-256. */
export const Sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'expected a lower-case hex SHA-256');

/**
 * What the console shows for a monitored file:
 * - `pending`: the agent has not checked it yet;
 * - `ok`: its hash equals the baseline;
 * - `changed`: its hash differs from the baseline (until someone equalizes it);
 * - `missing`: no file at the path;
 * - `unreadable`: the agent may not read it (permission), or it is not a regular file;
 * - `too_large`: above the agent's size limit, so not hashed.
 */
export const MONITORED_FILE_STATUSES = [
  'pending',
  'ok',
  'changed',
  'missing',
  'unreadable',
  'too_large',
] as const;
export const MonitoredFileStatus = z.enum(MONITORED_FILE_STATUSES);
export type MonitoredFileStatus = z.infer<typeof MonitoredFileStatus>;

// ---------------------------------------------------------------------------------------------
// Agent ↔ api: the files sync.

/** What the agent found at a path: hashed (with `sha256`), or why it could not be. */
export const FILE_CHECK_OUTCOMES = ['hashed', 'missing', 'unreadable', 'too_large'] as const;
export const FileCheckOutcome = z.enum(FILE_CHECK_OUTCOMES);
export type FileCheckOutcome = z.infer<typeof FileCheckOutcome>;

/** One file of the watch list as the agent checked it. `sha256` is present exactly when hashed. */
export const FileCheckResult = z
  .object({
    id: RowId,
    path: MonitoredPath,
    status: FileCheckOutcome,
    sha256: Sha256Hex.optional(),
    size: z.number().int().nonnegative().optional(),
    /** Unix seconds of the file's last modification. */
    mtime: z.number().int().optional(),
    /** Unix seconds of the check. */
    checked_at: z.number().int().positive(),
    /** Why the file could not be hashed, in words a person can act on. */
    error: z.string().max(MAX_FILE_MESSAGE_LENGTH).optional(),
  })
  .strict()
  .refine((r) => (r.status === 'hashed') === (r.sha256 !== undefined), {
    message: 'sha256 is given exactly when the status is "hashed"',
    path: ['sha256'],
  });
export type FileCheckResult = z.infer<typeof FileCheckResult>;

/**
 * Why a path test failed: no such path, a folder, another kind of file (device, socket), no
 * permission to read it, above the size limit, another error, or (set by the api) no answer from
 * the agent in time.
 */
export const PATH_TEST_REASONS = [
  'not_found',
  'is_directory',
  'not_regular_file',
  'permission_denied',
  'too_large',
  'error',
  'no_answer',
] as const;
export const PathTestReason = z.enum(PATH_TEST_REASONS);
export type PathTestReason = z.infer<typeof PathTestReason>;

/** The agent's answer to a path test: `ok` when the path is a readable regular file. */
export const PathTestAnswer = z
  .object({
    id: RowId,
    status: z.enum(['ok', 'error']),
    /** Set when `status` is `error`. */
    reason: PathTestReason.exclude(['no_answer']).optional(),
    message: z.string().max(MAX_FILE_MESSAGE_LENGTH),
    size: z.number().int().nonnegative().optional(),
  })
  .strict();
export type PathTestAnswer = z.infer<typeof PathTestAnswer>;

/** `POST /agent/files/sync` body: what the agent checked since the last sync, and its test answers. */
export const FilesSyncRequest = z
  .object({
    tenant: SubjectToken,
    host: SubjectToken,
    results: z.array(FileCheckResult).max(MAX_MONITORED_FILES_PER_HOST),
    tests: z.array(PathTestAnswer).max(MAX_PENDING_PATH_TESTS),
  })
  .strict();
export type FilesSyncRequest = z.infer<typeof FilesSyncRequest>;

/** A path the agent is asked about: a monitored file to hash, or a path to test. */
export const FileTarget = z.object({ id: z.number().int().positive(), path: MonitoredPath }).strict();
export type FileTarget = z.infer<typeof FileTarget>;

/** `POST /agent/files/sync` → data: the host's whole watch list, and the path tests waiting for it. */
export const FilesSyncData = z
  .object({
    watch: z.array(FileTarget).max(MAX_MONITORED_FILES_PER_HOST),
    tests: z.array(FileTarget).max(MAX_PENDING_PATH_TESTS),
  })
  .strict();
export type FilesSyncData = z.infer<typeof FilesSyncData>;

// ---------------------------------------------------------------------------------------------
// Console calls.

/** `/server/get_files_monitored` and `/server/test_full_path` name a server. */
export const ServerFilesRequest = z.object({ server_id: RowId }).strict();
export type ServerFilesRequest = z.infer<typeof ServerFilesRequest>;

/** `/server/test_full_path`, `/server/add_config_file`, `/flightdeck/cockpit/flies_critical/new`. */
export const ServerPathRequest = z.object({ server_id: RowId, path: MonitoredPath }).strict();
export type ServerPathRequest = z.infer<typeof ServerPathRequest>;

/** `/server/test_result` {test_id}. */
export const PathTestIdRequest = z.object({ test_id: RowId }).strict();
export type PathTestIdRequest = z.infer<typeof PathTestIdRequest>;

/** `/server/remove_config_file`, `/server/equalize_hash` and the cockpit's get/equilize/remove: `{id}` of a file. */
export const MonitoredFileIdRequest = z.object({ id: RowId }).strict();
export type MonitoredFileIdRequest = z.infer<typeof MonitoredFileIdRequest>;

/** Query of `GET /flightdeck/cockpit/flies_critical/list`: optional filters. */
export const MonitoredFilesQuery = z
  .object({ server_id: RowId.optional(), status: MonitoredFileStatus.optional() })
  .strict();
export type MonitoredFilesQuery = z.infer<typeof MonitoredFilesQuery>;

/** A monitored file as the console lists it. */
export const MonitoredFile = z
  .object({
    id: z.number().int(),
    server_id: z.number().int(),
    /** The server's display name (its name, else its hostname). */
    server_name: z.string(),
    path: z.string(),
    status: MonitoredFileStatus,
    /** Hash the file is compared with; set by the first check and by each equalize. */
    baseline_sha256: z.string().nullable(),
    /** Hash of the last successful read. */
    sha256: z.string().nullable(),
    size: z.number().nullable(),
    mtime: z.number().int().nullable(),
    /** When the agent last reported on it; null while pending. */
    last_checked_at: z.number().int().nullable(),
    /** When the last change of content was detected. */
    changed_at: z.number().int().nullable(),
    /** When the baseline was last set (first check or equalize). */
    baseline_at: z.number().int().nullable(),
    /** Why the last check could not hash it. */
    error: z.string().nullable(),
    created_at: z.number().int(),
  })
  .strict();
export type MonitoredFile = z.infer<typeof MonitoredFile>;

/** `GET /flightdeck/cockpit/flies_critical/list` and `/server/get_files_monitored` → data. */
export const MonitoredFilesData = z.array(MonitoredFile);
export type MonitoredFilesData = z.infer<typeof MonitoredFilesData>;

/** One detected change of content: the hash before and after, newest first in a history. */
export const MonitoredFileChange = z
  .object({
    id: z.number().int(),
    detected_at: z.number().int(),
    previous_sha256: z.string().nullable(),
    sha256: z.string(),
    size: z.number().nullable(),
    mtime: z.number().int().nullable(),
    /** When an equalize accepted it; null while the change is still open. */
    accepted_at: z.number().int().nullable(),
  })
  .strict();
export type MonitoredFileChange = z.infer<typeof MonitoredFileChange>;

/** `POST /flightdeck/cockpit/flies_critical/get` {id} → data: the file and its change history. */
export const MonitoredFileDetail = MonitoredFile.extend({ changes: z.array(MonitoredFileChange) }).strict();
export type MonitoredFileDetail = z.infer<typeof MonitoredFileDetail>;

/** `/server/test_full_path` → data: the id to poll `/server/test_result` with. */
export const PathTestCreated = z.object({ test_id: z.number().int() }).strict();
export type PathTestCreated = z.infer<typeof PathTestCreated>;

/** `/server/test_result` → data: `pending` until the agent answers (or the wait ends in `no_answer`). */
export const PathTestResult = z
  .object({
    test_id: z.number().int(),
    server_id: z.number().int(),
    path: z.string(),
    status: z.enum(['pending', 'ok', 'error']),
    reason: PathTestReason.nullable(),
    /** The agent's words (or the api's for `no_answer`); null while pending. */
    message: z.string().nullable(),
    size: z.number().nullable(),
    created_at: z.number().int(),
    answered_at: z.number().int().nullable(),
  })
  .strict();
export type PathTestResult = z.infer<typeof PathTestResult>;

/** `/server/remove_config_file` and `.../remove` → data. */
export const MonitoredFileRemoved = z.object({ id: z.number().int() }).strict();
export type MonitoredFileRemoved = z.infer<typeof MonitoredFileRemoved>;
