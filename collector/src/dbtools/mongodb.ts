import type {
  MongodbPollerConfig,
  PollerFailure,
  ProcessListData,
  ReplicationMembersData,
} from '@flightdeck/schemas';
import { SERVICE_INSPECTIONS } from '@flightdeck/schemas';
import type { MongoClient } from 'mongodb';
import { failure, hostPort, isFailure, isProgrammerError } from '../pollers/failure';
import {
  classifyMongoError,
  closeMongoClient,
  currentOperations,
  MAX_OPERATIONS,
  openMongoClient,
  replSetStatus,
} from '../pollers/mongodb';
import {
  mongoSessionLists,
  readOperation,
  readReplSetStatus,
  replicationMembers,
} from '../pollers/mongodb-metrics';
import type { InspectionResult, InspectorFactory } from './contract';

/** The members of the replica set as the target sees them; a server outside a set has none. */
export function membersData(
  replSetGetStatus: Record<string, unknown> | null,
  ts: number,
): ReplicationMembersData {
  if (!replSetGetStatus) return { ts, set_name: null, members: [] };
  const set = readReplSetStatus(replSetGetStatus);
  return { ts, set_name: set.set_name, members: replicationMembers(set) };
}

/** The client operations of `$currentOp`, longest first, and those waiting for a lock. */
export function processListData(
  operations: readonly Record<string, unknown>[],
  longQueryS: number,
  ts: number,
): ProcessListData {
  const lists = mongoSessionLists(operations.map(readOperation), longQueryS);
  return {
    ts,
    sessions: lists.sessions,
    blocked: lists.blocked,
    long_query_s: longQueryS,
    // More sessions than are listed, or more operations than one read takes.
    truncated: lists.total > lists.sessions.length || operations.length >= MAX_OPERATIONS,
  };
}

/**
 * The MongoDB inspections: the replica set's members (replSetGetStatus) and the process list
 * (`$currentOp` over every user's active operations). Each opens its own client after checking
 * that MongoDB answers on the port, with the config's time-outs, and closes it before answering.
 */
export const createMongodbInspector: InspectorFactory<'mongodb'> = (
  config: MongodbPollerConfig,
  { logger },
) => {
  const target = hostPort(config.host, config.port);

  async function withClient<T>(
    work: (client: MongoClient) => Promise<T>,
  ): Promise<{ ok: true; data: T } | PollerFailure> {
    // Under the poller's app name, so the process list leaves the inspection's own operation out.
    const opened = await openMongoClient(config, logger);
    if (isFailure(opened)) return opened;
    try {
      return { ok: true, data: await work(opened.client) };
    } catch (err) {
      if (isProgrammerError(err)) throw err;
      return classifyMongoError(err, config);
    } finally {
      await closeMongoClient(opened.client, logger, target);
    }
  }

  return {
    supports: SERVICE_INSPECTIONS.mongodb ?? [],
    async inspect(request) {
      const { inspection } = request;
      let result: InspectionResult;
      if (inspection === 'replication_members') {
        result = await withClient(async (client) =>
          membersData(await replSetStatus(client, config), Date.now()),
        );
      } else if (inspection === 'process_list') {
        result = await withClient(async (client) =>
          processListData(await currentOperations(client, config), config.long_query_s, Date.now()),
        );
      } else {
        result = failure('bad_config', `MongoDB has no "${inspection}" inspection.`);
      }
      return result as InspectionResult<typeof inspection>;
    },
  };
};
