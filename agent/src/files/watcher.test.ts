import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FilesSyncData, FilesSyncRequest, type FileTarget } from '@flightdeck/schemas';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent } from '../agent';
import { recordingLogger, recordingTransport } from '../testing/support';
import type { FilesSync } from './contract';
import { createFilesWatcher } from './watcher';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The api side of the exchange as a recording double: it keeps the watch list and the tests a
 * test sets, answers them on every sync, and takes a test off once answered. Each request is
 * checked against the shared schema, as the api does.
 */
function recordingSync() {
  const requests: FilesSyncRequest[] = [];
  const state = {
    watch: [] as FileTarget[],
    tests: [] as FileTarget[],
    fail: undefined as Error | undefined,
  };
  const sync: FilesSync = async (request) => {
    requests.push(FilesSyncRequest.parse(request));
    if (state.fail) throw state.fail;
    const answered = new Set(request.tests.map((t) => t.id));
    state.tests = state.tests.filter((t) => !answered.has(t.id));
    const data: FilesSyncData = { watch: [...state.watch], tests: [...state.tests] };
    return data;
  };
  return { sync, requests, state };
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'fd-files-watch-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function watcher(sync: FilesSync, logger = recordingLogger().logger) {
  return createFilesWatcher({
    sync,
    tenant: '7',
    host: 'web-1',
    intervalMs: 60_000,
    logger,
    target: 'the test api',
  });
}

describe('createFilesWatcher', () => {
  it('hashes a newly watched file in the same run, then reports changes and deletion', async () => {
    const path = join(dir, 'my.cnf');
    writeFileSync(path, 'port=3306\n');
    const api = recordingSync();
    api.state.watch = [{ id: 1, path }];
    const w = watcher(api.sync);

    // First run: an empty report gets the watch list, and the file is hashed at once.
    expect(await w.runOnce()).toEqual({ checked: 1, answered: 0, syncs: 2, synced: true });
    expect(api.requests.map((r) => r.results.length)).toEqual([0, 1]);
    expect(api.requests[1]).toMatchObject({ tenant: '7', host: 'web-1' });
    expect(api.requests[1]?.results[0]).toMatchObject({
      id: 1,
      path,
      status: 'hashed',
      sha256: sha('port=3306\n'),
      size: 10,
    });

    appendFileSync(path, 'bind-address=0.0.0.0\n');
    await w.runOnce();
    expect(api.requests[2]?.results[0]?.sha256).toBe(sha('port=3306\nbind-address=0.0.0.0\n'));

    unlinkSync(path);
    await w.runOnce();
    expect(api.requests[3]?.results[0]).toMatchObject({ id: 1, status: 'missing' });
    expect(api.requests[3]?.results[0]?.sha256).toBeUndefined();
    expect(w.stats()).toMatchObject({ runs: 3, watched: 1, syncFailures: 0 });
  });

  it('answers the path tests the api asks for within the same run', async () => {
    const ok = join(dir, 'hosts');
    writeFileSync(ok, '127.0.0.1 localhost\n');
    const api = recordingSync();
    api.state.tests = [
      { id: 5, path: ok },
      { id: 6, path: join(dir, 'nope') },
    ];
    const w = watcher(api.sync);
    expect(await w.runOnce()).toMatchObject({ answered: 2, syncs: 2 });
    expect(api.requests[1]?.tests).toEqual([
      { id: 5, status: 'ok', message: `${ok} is a readable file (20 B).`, size: 20 },
      { id: 6, status: 'error', reason: 'not_found', message: expect.stringContaining('No file at') },
    ]);
    expect(api.state.tests).toEqual([]);
    // Nothing left to ask: the next run is one sync.
    expect(await w.runOnce()).toMatchObject({ syncs: 1, answered: 0 });
  });

  it('logs an unreadable file once, naming it, not every run', async () => {
    const folder = join(dir, 'conf.d');
    mkdirSync(folder);
    const api = recordingSync();
    api.state.watch = [{ id: 2, path: folder }];
    const { logger, warnings } = recordingLogger();
    const w = watcher(api.sync, logger);
    await w.runOnce();
    await w.runOnce();
    await w.runOnce();
    const about = warnings().filter((l) => l.file === folder);
    expect(about).toHaveLength(1);
    expect(about[0]).toMatchObject({ status: 'unreadable' });
    expect(api.requests.at(-1)?.results[0]).toMatchObject({
      status: 'unreadable',
      error: expect.stringContaining('folder'),
    });
  });

  it('keeps going while the api is down, keeps its watch list, and logs the target once', async () => {
    const path = join(dir, 'app.yml');
    writeFileSync(path, 'a: 1\n');
    const api = recordingSync();
    api.state.watch = [{ id: 3, path }];
    const { logger, warnings, lines } = recordingLogger();
    const w = watcher(api.sync, logger);
    await w.runOnce();

    api.state.fail = new Error(
      'files sync not sent to http://127.0.0.1:9/api/agent/files/sync: connect ECONNREFUSED',
    );
    writeFileSync(path, 'a: 2\n');
    expect(await w.runOnce()).toMatchObject({ synced: false, syncs: 0 });
    expect(await w.runOnce()).toMatchObject({ synced: false });
    const failures = warnings().filter((l) => String(l.msg).includes('files sync'));
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({
      target: 'the test api',
      err: expect.stringContaining('ECONNREFUSED'),
    });
    expect(w.stats().syncFailures).toBe(2);

    api.state.fail = undefined;
    const before = api.requests.length;
    expect(await w.runOnce()).toMatchObject({ synced: true, checked: 1 });
    expect(api.requests[before]?.results[0]).toMatchObject({ id: 3, sha256: sha('a: 2\n') });
    expect(lines.some((l) => String(l.msg).includes('works again'))).toBe(true);
  });

  it('stops watching a file the api no longer lists', async () => {
    const path = join(dir, 'old.conf');
    writeFileSync(path, 'x');
    const api = recordingSync();
    api.state.watch = [{ id: 4, path }];
    const w = watcher(api.sync);
    await w.runOnce();
    api.state.watch = [];
    await w.runOnce();
    await w.runOnce();
    expect(api.requests.at(-1)?.results).toEqual([]);
    expect(w.stats().watched).toBe(0);
  });
});

describe('createAgent with files', () => {
  it('runs the watcher beside the metric runs: a hung sync delays no batch, and stop waits for it', async () => {
    const path = join(dir, 'nginx.conf');
    writeFileSync(path, 'worker_processes 1;\n');
    const { transport, batches } = recordingTransport();
    const requests: FilesSyncRequest[] = [];
    let release: (() => void) | undefined;
    const hung = new Promise<void>((resolve) => {
      release = resolve;
    });
    const files: FilesSync = async (request) => {
      requests.push(request);
      await hung;
      return { watch: [{ id: 1, path }], tests: [] };
    };
    const agent = createAgent({
      transport,
      tenant: '7',
      hostKey: 'web-1',
      intervalSeconds: 60,
      logger: recordingLogger().logger,
      collectors: [{ name: 'constant', collect: async () => [{ m: 'constant.value', v: 1 }] }],
      inventory: false,
      files,
    });
    await agent.start();
    await agent.runOnce();
    expect(batches).toHaveLength(2);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ tenant: '7', host: 'web-1', results: [] });

    let stopped = false;
    const stopping = agent.stop().then(() => {
      stopped = true;
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(stopped).toBe(false);
    release?.();
    await stopping;
    // The run in flight finished: it hashed the file the answer listed.
    expect(requests[1]?.results[0]).toMatchObject({
      id: 1,
      status: 'hashed',
      sha256: sha('worker_processes 1;\n'),
    });
  });
});
