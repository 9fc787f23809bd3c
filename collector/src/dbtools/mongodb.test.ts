import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type CommandRequest,
  MongodbPollerConfig,
  ProcessListData,
  ReplicationMembersData,
} from '@flightdeck/schemas';
import { BSON } from 'mongodb';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { freePort } from '../pollers/testing/net';
import { answerDbInspect } from './index';
import { createMongodbInspector, membersData, processListData } from './mongodb';

/**
 * The MongoDB inspections: their answers from the documented replSetGetStatus and `$currentOp`
 * output (the poller's fixtures, MongoDB 7.0), and what they say about targets that are not a
 * working MongoDB server on this machine.
 */

const logger = pino({ level: 'silent' });

function fixture(name: string): Record<string, unknown> {
  const text = readFileSync(
    join(import.meta.dirname, '..', 'pollers', '__fixtures__', 'mongodb', name),
    'utf8',
  );
  return BSON.EJSON.parse(text, { relaxed: true }) as Record<string, unknown>;
}

function inspector(over: Record<string, unknown> = {}) {
  const config = MongodbPollerConfig.parse({ host: '127.0.0.1', connect_timeout_ms: 1000, ...over });
  return createMongodbInspector(config, { logger });
}

function request(params: Record<string, unknown>): CommandRequest {
  return {
    v: 1,
    id: 'cmd-1',
    tenant: 't1',
    command: 'db_inspect',
    params,
    deadline: Date.now() + 5_000,
  };
}

describe('MongoDB replication members', () => {
  it('lists every member of the set with its state, health, lag and sync source', () => {
    const data = ReplicationMembersData.parse(
      membersData(fixture('repl-set-get-status.json').document as Record<string, unknown>, 1_730_800_210_000),
    );
    expect(data.set_name).toBe('rs0');
    expect(data.members).toEqual([
      {
        id: 0,
        name: 'mongo-a:27017',
        state: 'PRIMARY',
        healthy: true,
        self: true,
        uptime_s: 86410,
        optime_ms: Date.parse('2024-11-05T10:00:10.000Z'),
        lag_s: null,
        ping_ms: null,
        sync_source: null,
        message: null,
      },
      {
        id: 1,
        name: 'mongo-b:27017',
        state: 'SECONDARY',
        healthy: true,
        self: false,
        uptime_s: 86395,
        optime_ms: Date.parse('2024-11-05T10:00:09.000Z'),
        lag_s: 1,
        ping_ms: 1,
        sync_source: 'mongo-a:27017',
        message: null,
      },
      {
        id: 2,
        name: 'mongo-c:27017',
        state: 'SECONDARY',
        healthy: true,
        self: false,
        uptime_s: 86390,
        optime_ms: Date.parse('2024-11-05T09:59:28.000Z'),
        lag_s: 42,
        ping_ms: 38,
        sync_source: 'mongo-b:27017',
        message: null,
      },
    ]);
  });

  it('answers a server outside a replica set with no set and no members', () => {
    expect(ReplicationMembersData.parse(membersData(null, 5))).toEqual({
      ts: 5,
      set_name: null,
      members: [],
    });
  });
});

describe('MongoDB process list', () => {
  it('lists the client operations and those waiting for a lock with their holder', () => {
    const operations = fixture('current-op.json').documents as Record<string, unknown>[];
    const data = ProcessListData.parse(processListData(operations, 5, 1_730_800_210_000));
    expect(data.long_query_s).toBe(5);
    expect(data.truncated).toBe(false);
    expect(data.sessions.map((s) => s.id)).toEqual([884312, 884401, 884420, 884101, 884455, 884431, 884440]);
    expect(data.blocked.map((b) => [b.id, b.blocked_by.map((h) => h.id)])).toEqual([
      [884420, [884401]],
      [884431, [884401]],
    ]);
  });
});

describe('MongoDB inspections against targets that do not answer as MongoDB', () => {
  it('says which inspections MongoDB has', () => {
    expect(inspector().supports).toEqual(['process_list', 'replication_members']);
  });

  it('answers connection_failed for a port nobody listens on', async () => {
    const port = await freePort();
    const result = await inspector({ port }).inspect({ inspection: 'replication_members' });
    expect(result).toMatchObject({ ok: false, code: 'connection_failed' });
    if (!result.ok) expect(result.message).toContain(`MongoDB at 127.0.0.1:${port}`);
  });

  it('answers wrong_engine for the PostgreSQL server of this machine', async () => {
    const result = await inspector({ port: 5432 }).inspect({ inspection: 'process_list' });
    expect(result).toMatchObject({ ok: false, code: 'wrong_engine' });
  });

  it('is reached through the db_inspect command, which refuses inspections MongoDB has not', async () => {
    const port = await freePort();
    const config = { host: '127.0.0.1', port, connect_timeout_ms: 1000 };
    const members = await answerDbInspect(
      request({ service: 'mongodb', config, inspection: 'replication_members' }),
      logger,
    );
    expect(members).toMatchObject({ status: 'error', data: { code: 'connection_failed' } });
    const tables = await answerDbInspect(
      request({ service: 'mongodb', config, inspection: 'database_tables' }),
      logger,
    );
    expect(tables).toMatchObject({ status: 'error', data: { code: 'bad_config' } });
    expect(tables.message).toBe('mongodb has no "database_tables" inspection.');
  });
});
