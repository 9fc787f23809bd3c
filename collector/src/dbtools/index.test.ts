import { CommandReply, type CommandRequest, DatabaseTablesData, ProcessListData } from '@flightdeck/schemas';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { startAgentlessWorker } from '../agentless/worker';
import { createInProcessBus } from '../bus';
import { silentServer } from '../pollers/testing/net';
import { answerDbInspect, createInspector, INSPECTOR_FACTORIES } from './index';

/** The `db_inspect` answer: request checks, the deadline, and real inspections of this machine's servers. */

const logger = pino({ level: 'silent' });
const PG = { host: '127.0.0.1', port: 5432, user: 'postgres', database: 'postgres' };
const MARIADB = { host: '127.0.0.1', port: 3306, user: 'root' };

function request(params: Record<string, unknown>, deadlineMs = 10_000): CommandRequest {
  return {
    v: 1,
    id: 'cmd-1',
    tenant: 't1',
    command: 'db_inspect',
    params,
    deadline: Date.now() + deadlineMs,
  };
}

async function answer(params: Record<string, unknown>, deadlineMs?: number): Promise<CommandReply> {
  return CommandReply.parse(await answerDbInspect(request(params, deadlineMs), logger));
}

describe('answerDbInspect', () => {
  it('answers an inspection of a real server with data in its schema', async () => {
    const reply = await answer({ service: 'postgresql', config: PG, inspection: 'process_list' });
    expect(reply).toMatchObject({ v: 1, id: 'cmd-1', status: 'ok' });
    const list = ProcessListData.parse(reply.data);
    expect(list.long_query_s).toBe(60);
  });

  it('answers the failure code of an inspection that failed, with its message', async () => {
    const reply = await answer({
      service: 'mysql',
      config: MARIADB,
      inspection: 'table_counters',
      table: { database: 'mysql', name: 'fd_no_such_table' },
    });
    expect(reply).toMatchObject({ status: 'error', data: { code: 'not_found' } });
    expect(reply.message).toContain('mysql.fd_no_such_table');
  });

  it('refuses params off their schema, naming the field', async () => {
    const missing = await answer({ service: 'postgresql', config: PG });
    expect(missing).toMatchObject({ status: 'error', data: { code: 'bad_config' } });
    expect(missing.message).toContain('inspection');
    const unknown = await answer({ service: 'postgresql', config: PG, inspection: 'process_list', sql: 'x' });
    expect(unknown).toMatchObject({ status: 'error', data: { code: 'bad_config' } });
    expect(unknown.message).toContain('sql');
    const badTable = await answer({
      service: 'postgresql',
      config: PG,
      inspection: 'table_definition',
      table: { database: 'postgres', name: '' },
    });
    expect(badTable).toMatchObject({ status: 'error', data: { code: 'bad_config' } });
    expect(badTable.message).toContain('table.name');
  });

  it('refuses a config its service does not accept, naming the field', async () => {
    const reply = await answer({ service: 'postgresql', config: { port: 5432 }, inspection: 'db_health' });
    expect(reply).toMatchObject({ status: 'error', data: { code: 'bad_config' } });
    expect(reply.message).toContain('host');
  });

  it('refuses a service without inspections and an inspection its engine does not have', async () => {
    const nginx = await answer({
      service: 'nginx',
      config: { host: 'localhost' },
      inspection: 'process_list',
    });
    expect(nginx).toMatchObject({ status: 'error', data: { code: 'bad_config' } });
    expect(nginx.message).toContain('"nginx" has no database inspections');
    const unknownService = await answer({ service: 'fd-no-engine', config: {}, inspection: 'process_list' });
    expect(unknownService).toMatchObject({ status: 'error', data: { code: 'bad_config' } });
    const replication = await answer({
      service: 'postgresql',
      config: PG,
      inspection: 'replication_members',
    });
    expect(replication).toMatchObject({ status: 'error', data: { code: 'bad_config' } });
    expect(replication.message).toContain('replication_members');
  });

  it('refuses a table inspection without the table', async () => {
    for (const inspection of ['table_definition', 'table_counters']) {
      const reply = await answer({ service: 'mysql', config: MARIADB, inspection });
      expect(reply).toMatchObject({ status: 'error', data: { code: 'bad_config' } });
      expect(reply.message).toContain('needs the table');
    }
  });

  it('answers timeout before the deadline when the server accepts and never answers', async () => {
    const silent = await silentServer();
    try {
      for (const service of ['postgresql', 'mysql']) {
        const started = performance.now();
        const reply = await answer(
          {
            service,
            config: { host: '127.0.0.1', user: 'u', port: silent.port, connect_timeout_ms: 20_000 },
            inspection: 'db_health',
          },
          1_200,
        );
        const ms = performance.now() - started;
        expect(reply, service).toMatchObject({ status: 'error', data: { code: 'timeout' } });
        expect(reply.message).toContain('did not answer "db_health" in time');
        expect(ms).toBeGreaterThanOrEqual(800);
        expect(ms).toBeLessThan(1_200);
      }
    } finally {
      await silent.close();
    }
  });

  it('rejects data off the inspection schema rather than pass it on', async () => {
    const offSchema: typeof createInspector = () => ({
      ok: true,
      inspector: {
        supports: ['process_list'],
        inspect: async () => ({ ok: true, data: { ts: Date.now(), sessions: 'none' } }) as never,
      },
    });
    await expect(
      answerDbInspect(
        request({ service: 'postgresql', config: PG, inspection: 'process_list' }),
        logger,
        offSchema,
      ),
    ).rejects.toThrow(/off its schema/);
  });

  it('registers the PostgreSQL and MySQL inspectors', () => {
    expect(INSPECTOR_FACTORIES.postgresql).toBeTypeOf('function');
    expect(INSPECTOR_FACTORIES.mysql).toBeTypeOf('function');
    const made = createInspector('mysql', MARIADB, logger);
    expect(made.ok && made.inspector.supports).toEqual([
      'process_list',
      'database_tables',
      'table_definition',
      'table_counters',
      'db_health',
    ]);
  });

  it("is served to the collectors' group by the agentless worker", async () => {
    const bus = createInProcessBus({ logger });
    // The api's side: no target to poll.
    const api = await bus.serveCommands('api', async (r) => ({
      v: 1,
      id: r.id,
      status: 'ok',
      data: { assignments: [], refresh_ms: 60_000 },
      ts: Date.now(),
    }));
    const worker = await startAgentlessWorker({ bus, logger });
    try {
      const reply = await bus.request(
        'collectors',
        request({ service: 'mysql', config: MARIADB, inspection: 'database_tables' }),
      );
      expect(reply).toMatchObject({ status: 'ok' });
      expect(DatabaseTablesData.parse(reply.data).truncated).toBe(false);
    } finally {
      await worker.stop();
      await api.unsubscribe();
      await bus.close();
    }
  });
});
