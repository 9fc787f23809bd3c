import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import type { Bus } from '@flightdeck/collector/bus';
import type { MetricStore } from '@flightdeck/collector/store';
import {
  FilesSyncData,
  type FilesSyncRequest,
  MAX_FILE_CHANGES_KEPT,
  MAX_MONITORED_FILES_PER_HOST,
  MonitoredFile,
  MonitoredFileDetail,
  MonitoredFileRemoved,
  MonitoredFilesData,
  PathTestCreated,
  PathTestResult,
  SigninData,
} from '@flightdeck/schemas';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../app';
import { loadApiConfig } from '../../config';
import type { Engine } from '../../db/kysely';
import { migrateToLatest } from '../../db/migrate';
import { upsertHostServer } from '../../db/queries/servers';
import { createTestDatabase, type TestDatabase } from '../../db/testing';
import { createAgentKey } from '../../hosts/agent-keys';
import { createAccount, expectError, expectOk } from '../auth/test-app';
import { PATH_TEST_MIN_WAIT_S } from './queries';
import { syncAgentFiles } from './sync';

const PASSWORD = 'correct-horse-battery';
const COCKPIT = '/api/flightdeck/cockpit/flies_critical';
const store = { kind: 'sqlite', health: async () => ({ state: 'ok' }) } as unknown as MetricStore;
const bus = { kind: 'in-process', health: async () => ({ state: 'ok' }) } as unknown as Bus;

function sha(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

interface Tenant {
  customerId: number;
  tenant: string;
  token: string;
  agentKey: string;
  serverId: number;
}

/**
 * The critical-files calls through `app.request()`, run by routes.test.ts (SQLite) and
 * routes.integration.test.ts (PostgreSQL): the agent's sync, the console's calls, plan gating and
 * tenant isolation.
 */
export function filesRoutesSuite(engine: Engine) {
  describe(`critical files on ${engine}`, () => {
    let t: TestDatabase;
    let app: ReturnType<typeof createApp>;
    let a: Tenant;
    let b: Tenant;
    let gatedToken = '';

    function call(method: 'GET' | 'POST', path: string, body: unknown, bearer: string) {
      return app.request(path, {
        method,
        headers: {
          ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}),
          ...(method === 'POST' ? { 'Content-Type': 'application/json' } : {}),
        },
        ...(method === 'POST' ? { body: JSON.stringify(body) } : {}),
      });
    }
    const post = (path: string, body: unknown, who: Tenant | string) =>
      call('POST', `/api${path}`, body, typeof who === 'string' ? who : who.token);
    const list = (who: Tenant, query = '') => call('GET', `${COCKPIT}/list${query}`, undefined, who.token);

    function sync(who: Tenant, body: Partial<FilesSyncRequest> = {}, key = who.agentKey) {
      return call(
        'POST',
        '/api/agent/files/sync',
        { tenant: who.tenant, host: 'web-1', results: [], tests: [], ...body },
        key,
      );
    }
    async function syncOk(who: Tenant, body: Partial<FilesSyncRequest> = {}) {
      return (await expectOk(await sync(who, body), FilesSyncData)).data;
    }
    const now = () => Math.floor(Date.now() / 1000);
    const hashed = (id: number, path: string, text: string, extra: object = {}) => ({
      id,
      path,
      status: 'hashed' as const,
      sha256: sha(text),
      size: text.length,
      mtime: now() - 5,
      checked_at: now(),
      ...extra,
    });

    async function tenant(email: string, grant: boolean): Promise<Tenant> {
      const user = await createAccount(t.db, email, PASSWORD);
      const customer = await t.db
        .selectFrom('customers')
        .select('plan_id')
        .where('id', '=', user.customer_id)
        .executeTakeFirstOrThrow();
      if (grant) {
        await t.db
          .updateTable('plans')
          .set({ resources: JSON.stringify({ flightdeck: { cockpit: { files_criticals: 1 } } }) })
          .where('id', '=', customer.plan_id)
          .execute();
      }
      const res = await post('/signin', { email, password: PASSWORD }, '');
      const token = (await expectOk(res, SigninData)).data.token;
      const { key } = await createAgentKey(t.db, user.customer_id, 'default');
      const server = await upsertHostServer(t.db, user.customer_id, {
        hostKey: 'web-1',
        agentVersion: '1.0.0',
        intervalSeconds: 10,
        seenAt: now(),
      });
      return {
        customerId: user.customer_id,
        tenant: String(user.customer_id),
        token,
        agentKey: key,
        serverId: server.id,
      };
    }

    beforeAll(async () => {
      t = await createTestDatabase(engine);
      await migrateToLatest(t.db);
      app = createApp({
        db: t.db,
        store,
        bus,
        config: loadApiConfig({ DATA_DIR: tmpdir() }),
        logger: pino({ level: 'silent' }),
        version: '0.0.0-test',
      });
      a = await tenant('files-a@example.com', true);
      b = await tenant('files-b@example.com', true);
      gatedToken = (await tenant('files-c@example.com', false)).token;
    });
    afterAll(async () => {
      await t?.drop();
    });

    it('adds a file as pending, hands it to the agent, and takes the first hash as the baseline', async () => {
      const added = await expectOk(
        await post('/server/add_config_file', { server_id: a.serverId, path: '/etc/my.cnf' }, a),
        MonitoredFile,
      );
      expect(added.data).toMatchObject({
        server_id: a.serverId,
        server_name: 'web-1',
        path: '/etc/my.cnf',
        status: 'pending',
        baseline_sha256: null,
        last_checked_at: null,
      });
      const id = added.data.id;
      expect((await syncOk(a)).watch).toEqual([{ id, path: '/etc/my.cnf' }]);

      await syncOk(a, { results: [hashed(id, '/etc/my.cnf', 'v1')] });
      const [file] = (await expectOk(await list(a), MonitoredFilesData)).data;
      expect(file).toMatchObject({
        id,
        status: 'ok',
        sha256: sha('v1'),
        baseline_sha256: sha('v1'),
        size: 2,
        changed_at: null,
        error: null,
      });
      expect(file?.last_checked_at).toBeGreaterThan(0);
      const detail = await expectOk(
        await post('/flightdeck/cockpit/flies_critical/get', { id }, a),
        MonitoredFileDetail,
      );
      expect(detail.data.changes).toEqual([]);
    });

    it('detects a change, keeps it in the history, and equalizes it back to ok', async () => {
      const id = (
        await expectOk(
          await post(
            '/flightdeck/cockpit/flies_critical/new',
            { server_id: a.serverId, path: '/etc/nginx/nginx.conf' },
            a,
          ),
          MonitoredFile,
        )
      ).data.id;
      await syncOk(a, { results: [hashed(id, '/etc/nginx/nginx.conf', 'one')] });
      // The same content again is no change.
      await syncOk(a, { results: [hashed(id, '/etc/nginx/nginx.conf', 'one')] });
      await syncOk(a, {
        results: [hashed(id, '/etc/nginx/nginx.conf', 'two', { size: 3, mtime: 1_700_000_000 })],
      });
      await syncOk(a, { results: [hashed(id, '/etc/nginx/nginx.conf', 'three')] });

      const changed = await expectOk(
        await post('/flightdeck/cockpit/flies_critical/get', { id }, a),
        MonitoredFileDetail,
      );
      expect(changed.data).toMatchObject({
        status: 'changed',
        baseline_sha256: sha('one'),
        sha256: sha('three'),
      });
      expect(changed.data.changed_at).toBeGreaterThan(0);
      expect(changed.data.changes.map((c) => [c.previous_sha256, c.sha256, c.accepted_at])).toEqual([
        [sha('two'), sha('three'), null],
        [sha('one'), sha('two'), null],
      ]);
      expect(changed.data.changes[1]).toMatchObject({ size: 3, mtime: 1_700_000_000 });
      const onlyChanged = await expectOk(await list(a, '?status=changed'), MonitoredFilesData);
      expect(onlyChanged.data.map((f) => f.id)).toEqual([id]);

      const equalized = await expectOk(
        await post('/flightdeck/cockpit/flies_critical/equilize', { id }, a),
        MonitoredFileDetail,
      );
      expect(equalized.data).toMatchObject({
        status: 'ok',
        baseline_sha256: sha('three'),
        sha256: sha('three'),
      });
      expect(equalized.data.changes.every((c) => c.accepted_at !== null)).toBe(true);

      // Back to the old content: a change again, compared with the new baseline.
      await syncOk(a, { results: [hashed(id, '/etc/nginx/nginx.conf', 'one')] });
      const again = await expectOk(await post('/server/equalize_hash', { id }, a), MonitoredFile);
      expect(again.data).toMatchObject({ status: 'ok', baseline_sha256: sha('one') });
    });

    it('shows missing, unreadable and too large files, and refuses to equalize them', async () => {
      const id = (
        await expectOk(
          await post('/server/add_config_file', { server_id: a.serverId, path: '/etc/gone' }, a),
          MonitoredFile,
        )
      ).data.id;
      const base = { id, path: '/etc/gone', checked_at: now() };
      await syncOk(a, { results: [{ ...base, status: 'missing', error: 'No file at /etc/gone' }] });
      let file = await expectOk(
        await post('/flightdeck/cockpit/flies_critical/get', { id }, a),
        MonitoredFileDetail,
      );
      expect(file.data).toMatchObject({ status: 'missing', error: 'No file at /etc/gone', sha256: null });
      const refused = await expectError(await post('/server/equalize_hash', { id }, a), 409, 'conflict');
      expect(refused.message).toContain('missing');

      await syncOk(a, { results: [{ ...base, status: 'unreadable', error: 'Permission denied' }] });
      file = await expectOk(
        await post('/flightdeck/cockpit/flies_critical/get', { id }, a),
        MonitoredFileDetail,
      );
      expect(file.data).toMatchObject({ status: 'unreadable', error: 'Permission denied' });

      await syncOk(a, {
        results: [{ ...base, status: 'too_large', size: 100_000_000, error: 'Above 64 MB' }],
      });
      file = await expectOk(
        await post('/flightdeck/cockpit/flies_critical/get', { id }, a),
        MonitoredFileDetail,
      );
      expect(file.data).toMatchObject({ status: 'too_large', size: 100_000_000 });

      // It appears: the first content read becomes the baseline.
      await syncOk(a, { results: [hashed(id, '/etc/gone', 'back')] });
      file = await expectOk(
        await post('/flightdeck/cockpit/flies_critical/get', { id }, a),
        MonitoredFileDetail,
      );
      expect(file.data).toMatchObject({ status: 'ok', error: null, baseline_sha256: sha('back') });
    });

    it('refuses a path monitored twice on one server, bad paths, and unknown fields', async () => {
      await expectError(
        await post('/server/add_config_file', { server_id: a.serverId, path: '/etc/my.cnf' }, a),
        409,
        'conflict',
      );
      for (const path of ['etc/my.cnf', '/etc/', '/etc/a\0b', `/${'x'.repeat(4096)}`, '', 'C:relative']) {
        const res = await post('/server/add_config_file', { server_id: a.serverId, path }, a);
        const body = await expectError(res, 400, 'validation_failed');
        expect(body.path).toEqual(['path']);
      }
      await expectError(
        await post('/server/add_config_file', { server_id: a.serverId, path: '/etc/x', extra: 1 }, a),
        400,
        'validation_failed',
      );
      await expectError(await list(a, '?status=bogus'), 400, 'validation_failed');
      // A Windows drive path is a path.
      const win = await expectOk(
        await post('/server/add_config_file', { server_id: a.serverId, path: 'C:\\inetpub\\web.config' }, a),
        MonitoredFile,
      );
      await expectOk(await post('/server/remove_config_file', { id: win.data.id }, a), MonitoredFileRemoved);
    });

    it('tests a path through the agent: pending, then its answer; silence ends in no_answer', async () => {
      const created = await expectOk(
        await post('/server/test_full_path', { server_id: a.serverId, path: '/etc/hosts' }, a),
        PathTestCreated,
      );
      const testId = created.data.test_id;
      let result = await expectOk(await post('/server/test_result', { test_id: testId }, a), PathTestResult);
      expect(result.data).toMatchObject({ status: 'pending', path: '/etc/hosts', message: null });

      const asked = await syncOk(a);
      expect(asked.tests).toEqual([{ id: testId, path: '/etc/hosts' }]);
      const answered = await syncOk(a, {
        tests: [{ id: testId, status: 'ok', message: '/etc/hosts is a readable file (12 bytes).', size: 12 }],
      });
      expect(answered.tests).toEqual([]);
      result = await expectOk(await post('/server/test_result', { test_id: testId }, a), PathTestResult);
      expect(result.data).toMatchObject({ status: 'ok', reason: null, size: 12 });
      expect(result.data.answered_at).toBeGreaterThan(0);

      const denied = (
        await expectOk(
          await post('/server/test_full_path', { server_id: a.serverId, path: '/root/x' }, a),
          PathTestCreated,
        )
      ).data.test_id;
      await syncOk(a, {
        tests: [
          { id: denied, status: 'error', reason: 'permission_denied', message: 'Permission denied: /root/x' },
        ],
      });
      result = await expectOk(await post('/server/test_result', { test_id: denied }, a), PathTestResult);
      expect(result.data).toMatchObject({ status: 'error', reason: 'permission_denied' });

      const silent = (
        await expectOk(
          await post('/server/test_full_path', { server_id: a.serverId, path: '/etc/x' }, a),
          PathTestCreated,
        )
      ).data.test_id;
      await t.db
        .updateTable('file_path_tests')
        .set({ created_at: now() - PATH_TEST_MIN_WAIT_S - 5 })
        .where('id', '=', silent)
        .execute();
      expect((await syncOk(a)).tests).toEqual([]);
      result = await expectOk(await post('/server/test_result', { test_id: silent }, a), PathTestResult);
      expect(result.data).toMatchObject({ status: 'error', reason: 'no_answer' });
      expect(result.data.message).toContain('did not answer');
    });

    it('keeps every customer to its own files, servers, tests and agent', async () => {
      const aFiles = (await expectOk(await list(a), MonitoredFilesData)).data;
      const target = aFiles[0]!;
      expect((await expectOk(await list(b), MonitoredFilesData)).data).toEqual([]);
      for (const path of [
        '/flightdeck/cockpit/flies_critical/get',
        '/flightdeck/cockpit/flies_critical/equilize',
        '/flightdeck/cockpit/flies_critical/remove',
        '/server/equalize_hash',
        '/server/remove_config_file',
      ]) {
        await expectError(await post(path, { id: target.id }, b), 404, 'not_found');
      }
      await expectError(
        await post('/server/get_files_monitored', { server_id: a.serverId }, b),
        404,
        'not_found',
      );
      await expectError(
        await post('/server/add_config_file', { server_id: a.serverId, path: '/etc/evil' }, b),
        404,
        'not_found',
      );
      await expectError(
        await post('/server/test_full_path', { server_id: a.serverId, path: '/etc/shadow' }, b),
        404,
        'not_found',
      );
      const testOfA = await t.db
        .selectFrom('file_path_tests')
        .select('id')
        .where('customer_id', '=', a.customerId)
        .executeTakeFirstOrThrow();
      await expectError(await post('/server/test_result', { test_id: testOfA.id }, b), 404, 'not_found');

      // B's agent cannot speak for A, and reports about A's files from B's host are ignored.
      await expectError(await sync(a, {}, b.agentKey), 403, 'forbidden');
      const before = await t.db
        .selectFrom('monitored_files')
        .selectAll()
        .where('id', '=', target.id)
        .executeTakeFirstOrThrow();
      const bView = await syncOk(b, { results: [hashed(target.id, target.path, 'tampered')] });
      expect(bView.watch).toEqual([]);
      const after = await t.db
        .selectFrom('monitored_files')
        .selectAll()
        .where('id', '=', target.id)
        .executeTakeFirstOrThrow();
      expect(after).toEqual(before);

      // B may monitor the same path on its own host.
      await expectOk(
        await post('/server/add_config_file', { server_id: b.serverId, path: target.path }, b),
        MonitoredFile,
      );
      expect((await expectOk(await list(a), MonitoredFilesData)).data).toHaveLength(aFiles.length);
      expect(
        (
          await expectOk(
            await post('/server/get_files_monitored', { server_id: a.serverId }, a),
            MonitoredFilesData,
          )
        ).data,
      ).toHaveLength(aFiles.length);
    });

    it('answers 401 without a session or agent key, and 403 plan_gated without the plan resource', async () => {
      await expectError(await list({ ...a, token: '' }), 401, 'unauthorized');
      await expectError(await sync(a, {}, ''), 401, 'unauthorized');
      await expectError(await sync(a, {}, a.token), 401, 'unauthorized');
      await expectError(await call('GET', `${COCKPIT}/list`, undefined, gatedToken), 403, 'plan_gated');
      await expectError(
        await post('/server/test_full_path', { server_id: a.serverId, path: '/etc/x' }, gatedToken),
        403,
        'plan_gated',
      );
    });

    it('refuses a malformed agent report naming the field', async () => {
      const body = await expectError(
        await sync(a, { results: [{ id: 1, path: '/etc/x', status: 'hashed', checked_at: now() }] }),
        400,
        'validation_failed',
      );
      expect(body.path).toEqual(['results', 0, 'sha256']);
    });

    it('removes a file with its history, and the agent stops watching it', async () => {
      const [file] = (await expectOk(await list(a, '?status=ok'), MonitoredFilesData)).data;
      const id = file!.id;
      await expectOk(
        await post('/flightdeck/cockpit/flies_critical/remove', { id }, a),
        MonitoredFileRemoved,
      );
      expect((await syncOk(a)).watch.map((w) => w.id)).not.toContain(id);
      const changes = await t.db
        .selectFrom('monitored_file_changes')
        .select('id')
        .where('file_id', '=', id)
        .execute();
      expect(changes).toEqual([]);
      await expectError(await post('/flightdeck/cockpit/flies_critical/remove', { id }, a), 404, 'not_found');
    });

    it(`keeps the newest ${MAX_FILE_CHANGES_KEPT} changes of a file`, async () => {
      const id = (
        await expectOk(
          await post('/server/add_config_file', { server_id: a.serverId, path: '/var/log/busy' }, a),
          MonitoredFile,
        )
      ).data.id;
      const request = (text: string): FilesSyncRequest => ({
        tenant: a.tenant,
        host: 'web-1',
        results: [hashed(id, '/var/log/busy', text)],
        tests: [],
      });
      for (let i = 0; i <= MAX_FILE_CHANGES_KEPT + 2; i++)
        await syncAgentFiles(t.db, a.customerId, request(`v${i}`));
      const detail = await expectOk(
        await post('/flightdeck/cockpit/flies_critical/get', { id }, a),
        MonitoredFileDetail,
      );
      expect(detail.data.changes).toHaveLength(MAX_FILE_CHANGES_KEPT);
      expect(detail.data.changes[0]?.sha256).toBe(sha(`v${MAX_FILE_CHANGES_KEPT + 2}`));
      await expectOk(await post('/server/remove_config_file', { id }, a), MonitoredFileRemoved);
    });

    it(`stops at ${MAX_MONITORED_FILES_PER_HOST} files per server`, async () => {
      const count = (
        await expectOk(
          await post('/server/get_files_monitored', { server_id: b.serverId }, b),
          MonitoredFilesData,
        )
      ).data.length;
      const rows = Array.from({ length: MAX_MONITORED_FILES_PER_HOST - count }, (_, i) => ({
        customer_id: b.customerId,
        server_id: b.serverId,
        path: `/etc/many/${i}.conf`,
        created_at: now(),
        baseline_sha256: null,
        sha256: null,
        size: null,
        mtime: null,
        error: null,
        last_checked_at: null,
        changed_at: null,
        baseline_at: null,
        baseline_by: null,
        created_by: null,
      }));
      await t.db.insertInto('monitored_files').values(rows).execute();
      const body = await expectError(
        await post('/server/add_config_file', { server_id: b.serverId, path: '/etc/one-more' }, b),
        409,
        'limit_reached',
      );
      expect(body.message).toContain(String(MAX_MONITORED_FILES_PER_HOST));
      expect((await syncOk(b)).watch).toHaveLength(MAX_MONITORED_FILES_PER_HOST);
    });
  });
}
