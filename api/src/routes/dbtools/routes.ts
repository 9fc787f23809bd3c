import {
  type DatabaseTablesData,
  DatabaseTablesQuery,
  type DbHealthData,
  type OkEnvelope,
  POLLER_SERVICES,
  type ProcessListData,
  type ReplicationMembersData,
  ReplicationMembersRequest,
  ServiceIdRequest,
  type ServiceStatusData,
  type SnoopInfoData,
  type TableCountersData,
  type TableDefinitionData,
  TableRequest,
} from '@flightdeck/schemas';
import { Hono } from 'hono';
import { requireSession } from '../../auth/middleware';
import { createSecretBox, loadOrCreateSecretsKey, type SecretBox } from '../../crypto/secrets';
import type { AppDeps, AppEnv } from '../../env';
import { ApiError } from '../../errors';
import { jsonBody } from '../../http/body';
import { serverOr404 } from '../servers/shared';
import { inspect, serviceOr404 } from './inspect';
import { serviceStatus, snoopInfo } from './status';

function ok<T>(data: T): OkEnvelope<T> {
  return { status: 'ok', data };
}

/** The agentless services, so `/services_monitored/linux/*` stays the Linux routes'. */
const SERVICE_PARAM = `:service{${POLLER_SERVICES.join('|')}}`;

/**
 * The database screen (spec section 7, "Database"): live lists read from the target by a collector
 * (`db_inspect` over the bus: process list, tables, a table's definition and counters, health,
 * MongoDB replication members), the status tiles of an agentless service from its latest samples,
 * and which collector polls which of the customer's services. Session; the customer's own services
 * only (another customer's id answers 404 like a missing one).
 */
export function dbtoolsRoutes(deps: AppDeps) {
  const { db, store } = deps;
  const session = requireSession(db);
  let sealed: SecretBox | undefined;
  // Made on first use, so a process that never opens a service's secrets never writes a key file.
  const box = () => {
    sealed ??= createSecretBox(loadOrCreateSecretsKey(deps.config.SECRETS_KEY, deps.config.DATA_DIR));
    return sealed;
  };

  async function ofService(customerId: number, id: number) {
    return { deps, box, customerId, service: await serviceOr404(db, customerId, id) };
  }

  return new Hono<AppEnv>()
    .post('/process_list', session, jsonBody(ServiceIdRequest), async (c) => {
      const target = await ofService(c.get('session').customerId, c.req.valid('json').id);
      const data = await inspect({ ...target, inspection: 'process_list' });
      return c.json(ok<ProcessListData>(data));
    })

    .get('/services/database_tables', session, async (c) => {
      const query = DatabaseTablesQuery.parse(c.req.query());
      const target = await ofService(c.get('session').customerId, query.id);
      const data = await inspect({ ...target, inspection: 'database_tables' });
      return c.json(ok<DatabaseTablesData>(data));
    })

    .post('/get_table_definition', session, jsonBody(TableRequest), async (c) => {
      const body = c.req.valid('json');
      const target = await ofService(c.get('session').customerId, body.id);
      const data = await inspect({ ...target, inspection: 'table_definition', table: body.table });
      return c.json(ok<TableDefinitionData>(data));
    })

    .post('/get_table_counters', session, jsonBody(TableRequest), async (c) => {
      const body = c.req.valid('json');
      const target = await ofService(c.get('session').customerId, body.id);
      const data = await inspect({ ...target, inspection: 'table_counters', table: body.table });
      return c.json(ok<TableCountersData>(data));
    })

    .post('/get_all_db_health', session, jsonBody(ServiceIdRequest), async (c) => {
      const target = await ofService(c.get('session').customerId, c.req.valid('json').id);
      const data = await inspect({ ...target, inspection: 'db_health' });
      return c.json(ok<DbHealthData>(data));
    })

    .post('/mongodb/get_replication_members', session, jsonBody(ReplicationMembersRequest), async (c) => {
      const { customerId } = c.get('session');
      const server = await serverOr404(db, customerId, c.req.valid('json').server_id);
      const mongodb = await db
        .selectFrom('services')
        .select('id')
        .where('customer_id', '=', customerId)
        .where('server_id', '=', server.id)
        .where('service_code', '=', 'mongodb')
        .orderBy('id')
        .executeTakeFirst();
      if (!mongodb) throw ApiError.of('not_found', 'This server has no MongoDB service.');
      const data = await inspect({
        ...(await ofService(customerId, mongodb.id)),
        inspection: 'replication_members',
      });
      return c.json(ok<ReplicationMembersData>(data));
    })

    .post(
      `/services_monitored/${SERVICE_PARAM}/get_status`,
      session,
      jsonBody(ServiceIdRequest),
      async (c) => {
        const service = await serviceOr404(db, c.get('session').customerId, c.req.valid('json').id);
        if (service.service_code !== c.req.param('service')) {
          throw ApiError.of('not_found', `This ${c.req.param('service')} service could not be found.`);
        }
        return c.json(ok<ServiceStatusData>(await serviceStatus(store, service)));
      },
    )

    .get('/workers/get_snoop_info', session, async (c) => {
      const live = deps.agentless?.liveCollectors() ?? [];
      return c.json(ok<SnoopInfoData>(await snoopInfo(db, c.get('session').customerId, live)));
    });
}
