import {
  MONITORED_FILE_STATUSES,
  type MonitoredFile,
  MonitoredPath,
  PATH_TEST_REASONS,
} from '@flightdeck/schemas';
import { describe, expect, it } from 'vitest';
import en from '../../i18n/en.features.json';
import es from '../../i18n/es.features.json';
import pt from '../../i18n/pt.features.json';
import { canEqualize, filterFiles, type PathProblem, pathProblem, shortHash, sortFiles } from './files';
import { LIST_POLL_MS, listPollMs, PENDING_POLL_MS } from './queries';

function file(id: number, extra: Partial<MonitoredFile> = {}): MonitoredFile {
  return {
    id,
    server_id: 1,
    server_name: 'web-1',
    path: `/etc/f${id}`,
    status: 'ok',
    baseline_sha256: 'a'.repeat(64),
    sha256: 'a'.repeat(64),
    size: 10,
    mtime: 1_700_000_000,
    last_checked_at: 1_700_000_100,
    changed_at: null,
    baseline_at: 1_700_000_000,
    error: null,
    created_at: 1_700_000_000,
    ...extra,
  };
}

describe('pathProblem', () => {
  const cases: [string, PathProblem | undefined][] = [
    ['/etc/my.cnf', undefined],
    ['C:\\app\\web.config', undefined],
    ['d:/data/app.ini', undefined],
    ['', 'required'],
    ['etc/my.cnf', 'absolute'],
    ['C:relative', 'absolute'],
    ['/etc/nginx/', 'folder'],
    ['C:\\app\\', 'folder'],
    ['/etc/a\0b', 'nul'],
    [`/${'x'.repeat(4096)}`, 'tooLong'],
  ];
  it.each(cases)('%j → %s, as the api decides', (path, problem) => {
    expect(pathProblem(path)).toBe(problem);
    expect(MonitoredPath.safeParse(path).success).toBe(problem === undefined);
  });
});

describe('the table helpers', () => {
  it('shortens a hash to 12 digits and shows a dash for none', () => {
    expect(shortHash('0123456789abcdef'.repeat(4))).toBe('0123456789ab');
    expect(shortHash(null)).toBe('—');
  });

  it('filters by server and status', () => {
    const files = [file(1), file(2, { server_id: 2 }), file(3, { status: 'changed' })];
    expect(filterFiles(files, {}).map((f) => f.id)).toEqual([1, 2, 3]);
    expect(filterFiles(files, { serverId: 2 }).map((f) => f.id)).toEqual([2]);
    expect(filterFiles(files, { serverId: 1, status: 'changed' }).map((f) => f.id)).toEqual([3]);
  });

  it('puts files needing attention first, then by server and path', () => {
    const files = [
      file(1, { path: '/b' }),
      file(2, { path: '/a' }),
      file(3, { status: 'missing' }),
      file(4, { status: 'changed', server_name: 'z' }),
      file(5, { status: 'pending' }),
    ];
    expect(sortFiles(files).map((f) => f.id)).toEqual([4, 3, 5, 2, 1]);
  });

  it('offers Equalize only for a changed file whose content was read', () => {
    expect(canEqualize({ status: 'changed', sha256: 'a'.repeat(64) })).toBe(true);
    expect(canEqualize({ status: 'ok', sha256: 'a'.repeat(64) })).toBe(false);
    expect(canEqualize({ status: 'missing', sha256: 'a'.repeat(64) })).toBe(false);
  });

  it('asks often while a file waits for its first check', () => {
    expect(listPollMs([file(1), file(2, { status: 'pending' })])).toBe(PENDING_POLL_MS);
    expect(listPollMs([file(1)])).toBe(LIST_POLL_MS);
    expect(listPollMs(undefined)).toBe(LIST_POLL_MS);
  });
});

describe('translations of the critical files', () => {
  const problems: PathProblem[] = ['required', 'absolute', 'folder', 'tooLong', 'nul'];
  it.each([
    ['en', en],
    ['es', es],
    ['pt', pt],
  ] as const)('%s names every status, test reason and path problem', (_locale, dict) => {
    for (const s of MONITORED_FILE_STATUSES) expect(dict.files.status[s], s).toBeTypeOf('string');
    for (const r of PATH_TEST_REASONS) expect(dict.files.testReasons[r], r).toBeTypeOf('string');
    for (const p of problems) expect(dict.files.pathErrors[p], p).toBeTypeOf('string');
  });
});
