import type { FilesSyncData, FilesSyncRequest } from '@flightdeck/schemas/api/files';

/**
 * The files sync (critical files): the agent sends what it checked and its path-test answers, and
 * gets its watch list and the paths to test. Over HTTP it is `POST <api>/api/agent/files/sync` with
 * the agent access key ({@link httpFilesSync}); in the embedded product it is a direct call of the
 * api's function. It rejects when the exchange failed; the watcher logs that and tries again at its
 * next run.
 */
export type FilesSync = (request: FilesSyncRequest) => Promise<FilesSyncData>;
