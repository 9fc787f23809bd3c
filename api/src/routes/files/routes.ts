import {
  type FilesSyncData,
  FilesSyncRequest,
  type MonitoredFile,
  type MonitoredFileDetail,
  MonitoredFileIdRequest,
  type MonitoredFileRemoved,
  type MonitoredFilesData,
  MonitoredFilesQuery,
  type OkEnvelope,
  type PathTestCreated,
  PathTestIdRequest,
  type PathTestResult,
  ServerFilesRequest,
  ServerPathRequest,
} from '@flightdeck/schemas';
import { Hono } from 'hono';
import { type AgentCallEnv, requireAgentKey } from '../../auth/agent-key';
import { requireSession } from '../../auth/middleware';
import { unixNow } from '../../clock';
import type { Db } from '../../db/kysely';
import type { AppDeps, AppEnv } from '../../env';
import { ApiError } from '../../errors';
import { jsonBody } from '../../http/body';
import { requireResource } from '../../plans/guards';
import { serverOr404 } from '../servers/shared';
import {
  addMonitoredFile,
  createPathTest,
  equalizeMonitoredFile,
  listFileChanges,
  listMonitoredFiles,
  monitoredFileOr404,
  pathTestOr404,
  removeMonitoredFile,
} from './queries';
import { syncAgentFiles } from './sync';

/** The plan resource of the critical files (the cockpit page `files_criticals`). */
export const FILES_RESOURCE = 'flightdeck.cockpit.files_criticals';

const COCKPIT = '/flightdeck/cockpit/flies_critical';

function ok<T>(data: T): OkEnvelope<T> {
  return { status: 'ok', data };
}

async function addFile(db: Db, customerId: number, userId: number, serverId: number, path: string) {
  await serverOr404(db, customerId, serverId);
  const id = await addMonitoredFile(db, customerId, serverId, path, userId, unixNow());
  return monitoredFileOr404(db, customerId, id);
}

async function fileDetail(db: Db, customerId: number, id: number): Promise<MonitoredFileDetail> {
  const file = await monitoredFileOr404(db, customerId, id);
  return { ...file, changes: await listFileChanges(db, customerId, id) };
}

/**
 * Critical files (spec section 7): the `/server/*` files calls and the cockpit's
 * `/flightdeck/cockpit/flies_critical/*` calls (paths spelled as the spec has them), each behind a
 * session and the plan resource `flightdeck.cockpit.files_criticals`; plus `POST /agent/files/sync`,
 * the agent's exchange, behind the agent access key. Every call sees only the signed-in customer's
 * files; another customer's id answers 404.
 */
export function filesRoutes(deps: AppDeps) {
  const { db } = deps;
  // Per route, not `use('/server/*')`: other domains serve /server/* calls of their own.
  const session = requireSession(db);
  const plan = requireResource(db, FILES_RESOURCE);

  const agentSync = new Hono<AgentCallEnv>().post(
    '/agent/files/sync',
    requireAgentKey(db),
    jsonBody(FilesSyncRequest),
    async (c) => {
      const request = c.req.valid('json');
      const customerId = c.get('agentCustomerId');
      if (request.tenant !== String(customerId)) {
        throw ApiError.of('forbidden', 'tenant: the access key does not belong to this tenant.');
      }
      return c.json(ok<FilesSyncData>(await syncAgentFiles(db, customerId, request)));
    },
  );

  const calls = new Hono<AppEnv>()
    .post('/server/get_files_monitored', session, plan, jsonBody(ServerFilesRequest), async (c) => {
      const { customerId } = c.get('session');
      const server = await serverOr404(db, customerId, c.req.valid('json').server_id);
      return c.json(
        ok<MonitoredFilesData>(await listMonitoredFiles(db, customerId, { serverId: server.id })),
      );
    })

    .post('/server/test_full_path', session, plan, jsonBody(ServerPathRequest), async (c) => {
      const { customerId } = c.get('session');
      const { server_id, path } = c.req.valid('json');
      const server = await serverOr404(db, customerId, server_id);
      const testId = await createPathTest(db, customerId, server, path, unixNow());
      return c.json(ok<PathTestCreated>({ test_id: testId }));
    })

    .post('/server/test_result', session, plan, jsonBody(PathTestIdRequest), async (c) => {
      const { customerId } = c.get('session');
      const result = await pathTestOr404(db, customerId, c.req.valid('json').test_id, unixNow());
      return c.json(ok<PathTestResult>(result));
    })

    .post('/server/add_config_file', session, plan, jsonBody(ServerPathRequest), async (c) => {
      const { customerId, userId } = c.get('session');
      const { server_id, path } = c.req.valid('json');
      return c.json(ok<MonitoredFile>(await addFile(db, customerId, userId, server_id, path)));
    })

    .post('/server/remove_config_file', session, plan, jsonBody(MonitoredFileIdRequest), async (c) => {
      const { id } = c.req.valid('json');
      await removeMonitoredFile(db, c.get('session').customerId, id);
      return c.json(ok<MonitoredFileRemoved>({ id }));
    })

    .post('/server/equalize_hash', session, plan, jsonBody(MonitoredFileIdRequest), async (c) => {
      const { customerId, userId } = c.get('session');
      const { id } = c.req.valid('json');
      await equalizeMonitoredFile(db, customerId, id, userId, unixNow());
      return c.json(ok<MonitoredFile>(await monitoredFileOr404(db, customerId, id)));
    })

    .get(`${COCKPIT}/list`, session, plan, async (c) => {
      const query = MonitoredFilesQuery.parse(c.req.query());
      const files = await listMonitoredFiles(db, c.get('session').customerId, {
        serverId: query.server_id,
        status: query.status,
      });
      return c.json(ok<MonitoredFilesData>(files));
    })

    .post(`${COCKPIT}/get`, session, plan, jsonBody(MonitoredFileIdRequest), async (c) => {
      const detail = await fileDetail(db, c.get('session').customerId, c.req.valid('json').id);
      return c.json(ok<MonitoredFileDetail>(detail));
    })

    .post(`${COCKPIT}/equilize`, session, plan, jsonBody(MonitoredFileIdRequest), async (c) => {
      const { customerId, userId } = c.get('session');
      const { id } = c.req.valid('json');
      await equalizeMonitoredFile(db, customerId, id, userId, unixNow());
      return c.json(ok<MonitoredFileDetail>(await fileDetail(db, customerId, id)));
    })

    .post(`${COCKPIT}/remove`, session, plan, jsonBody(MonitoredFileIdRequest), async (c) => {
      const { id } = c.req.valid('json');
      await removeMonitoredFile(db, c.get('session').customerId, id);
      return c.json(ok<MonitoredFileRemoved>({ id }));
    })

    .post(`${COCKPIT}/new`, session, plan, jsonBody(ServerPathRequest), async (c) => {
      const { customerId, userId } = c.get('session');
      const { server_id, path } = c.req.valid('json');
      return c.json(ok<MonitoredFile>(await addFile(db, customerId, userId, server_id, path)));
    });

  return new Hono<AppEnv>().route('/', agentSync).route('/', calls);
}
