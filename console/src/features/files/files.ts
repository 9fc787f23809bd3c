import { MAX_MONITORED_PATH_LENGTH, type MonitoredFile, type MonitoredFileStatus } from '@flightdeck/schemas';

/** What is wrong with a typed path, as an i18n key under `files.pathErrors`; undefined when it is fine. */
export type PathProblem = 'required' | 'absolute' | 'folder' | 'tooLong' | 'nul';

/**
 * The same rules as the api's MonitoredPath (absolute POSIX or Windows drive path, a file rather
 * than a folder, no NUL, at most 4096 characters), named so the console can say them in the
 * user's language. The path is taken as typed, after trimming spaces around it.
 */
export function pathProblem(path: string): PathProblem | undefined {
  if (path === '') return 'required';
  if (path.length > MAX_MONITORED_PATH_LENGTH) return 'tooLong';
  if (path.includes('\0')) return 'nul';
  if (!path.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(path)) return 'absolute';
  if (/[\\/]$/.test(path)) return 'folder';
  return undefined;
}

/** The first 12 hex digits of a hash: enough to tell two versions apart at a glance. */
export function shortHash(sha256: string | null): string {
  return sha256 ? sha256.slice(0, 12) : '—';
}

/** Files that pass the page's filters (a server id and a status; undefined = any). */
export function filterFiles(
  files: readonly MonitoredFile[],
  filter: { serverId?: number | undefined; status?: MonitoredFileStatus | undefined },
): MonitoredFile[] {
  return files.filter(
    (f) =>
      (filter.serverId === undefined || f.server_id === filter.serverId) &&
      (filter.status === undefined || f.status === filter.status),
  );
}

/** Files needing attention first (changed, then missing/unreadable/too large), then by server and path. */
const ORDER: Record<MonitoredFileStatus, number> = {
  changed: 0,
  missing: 1,
  unreadable: 2,
  too_large: 3,
  pending: 4,
  ok: 5,
};

export function sortFiles(files: readonly MonitoredFile[]): MonitoredFile[] {
  return [...files].sort(
    (a, b) =>
      ORDER[a.status] - ORDER[b.status] ||
      a.server_name.localeCompare(b.server_name) ||
      a.path.localeCompare(b.path) ||
      a.id - b.id,
  );
}

/** Only a file whose content the agent read can have that content accepted as its baseline. */
export function canEqualize(file: Pick<MonitoredFile, 'status' | 'sha256'>): boolean {
  return file.status === 'changed' && file.sha256 !== null;
}
