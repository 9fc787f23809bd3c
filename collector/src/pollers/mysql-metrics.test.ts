import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PollerExtras } from '@flightdeck/schemas';
import { describe, expect, it } from 'vitest';
import {
  type MysqlReading,
  type MysqlVariables,
  mysqlExtras,
  mysqlReplication,
  mysqlSamples,
} from './mysql-metrics';
import {
  lockWaitsSql,
  readGlobalStatus,
  readLockWait,
  readProcess,
  readReplicaStatus,
} from './mysql-queries';
import { outsideCatalogue, sampleValue } from './testing/catalogue';

type Rows = Record<string, unknown>;
const fixture = (name: string) =>
  JSON.parse(readFileSync(join(import.meta.dirname, '__fixtures__', name), 'utf8')) as Record<
    string,
    unknown
  >;

const f1 = fixture('mysql-poll-1.json');
const f2 = fixture('mysql-poll-2.json');
const variables = f2.variables as MysqlVariables;
const first: MysqlReading = {
  status: readGlobalStatus(f1.status as Rows[]),
  variables,
  processes: [],
  lockWaits: [],
  replica: null,
};
const second: MysqlReading = {
  status: readGlobalStatus(f2.status as Rows[]),
  variables,
  processes: (f2.processlist as Rows[]).map(readProcess),
  lockWaits: (f2.lock_waits as Rows[]).map(readLockWait),
  replica: null,
};
const IDS = { poller: 16, holder: 17, waiter: 18, sleeper: 19 };

describe('MySQL rows', () => {
  it('reads SHOW GLOBAL STATUS as numbers by lower-case name, leaving out words', () => {
    expect(second.status.get('queries')).toBe(53);
    expect(second.status.get('threads_running')).toBe(3);
    expect(second.status.get('innodb_row_lock_current_waits')).toBe(1);
    expect(second.status.has('Queries')).toBe(false);
    expect(second.status.has('innodb_buffer_pool_dump_status')).toBe(false);
  });

  it("reads the process list, with MariaDB's TIME_MS in seconds", () => {
    expect(second.processes.find((p) => p.id === IDS.sleeper)).toEqual({
      id: IDS.sleeper,
      user: 'root',
      host: '127.0.0.1:55474',
      db: null,
      command: 'Query',
      time_s: 2.524,
      state: 'User sleep',
      info: 'SELECT SLEEP(30)',
    });
    expect(readProcess({ id: 5, command: 'Query', time: 7, time_ms: null }).time_s).toBe(7);
  });

  it('reads replica status with the MySQL 8 and the older column names', () => {
    expect(
      readReplicaStatus({
        Replica_IO_Running: 'Yes',
        Replica_SQL_Running: 'Yes',
        Seconds_Behind_Source: 4,
        Source_Host: '10.0.0.7',
        Source_Port: 3306,
        Last_IO_Error: '',
        Last_SQL_Error: '',
      }),
    ).toEqual({ io_running: 'Yes', sql_running: 'Yes', lag_s: 4, source: '10.0.0.7:3306', last_error: null });
    expect(
      readReplicaStatus({
        Slave_IO_Running: 'Connecting',
        Slave_SQL_Running: 'Yes',
        Seconds_Behind_Master: null,
        Master_Host: 'db1',
        Master_Port: 3306,
        Last_IO_Error: "error connecting to master 'repl@db1:3306'",
        Last_SQL_Error: '',
      }),
    ).toEqual({
      io_running: 'Connecting',
      sql_running: 'Yes',
      lag_s: null,
      source: 'db1:3306',
      last_error: "error connecting to master 'repl@db1:3306'",
    });
  });
});

describe('mysqlSamples', () => {
  it('gives gauges and no rates on a first reading', () => {
    const samples = mysqlSamples(first, undefined, 0, 60);
    expect(outsideCatalogue(samples)).toEqual([]);
    expect(sampleValue(samples, 'mysql.threads_connected')).toBe(4);
    expect(sampleValue(samples, 'mysql.uptime')).toBe(2731);
    expect(samples.filter((s) => s.m.endsWith('_rate') || s.m.endsWith('_ratio'))).toEqual([]);
  });

  it('turns the status counters into rates and the buffer pool hit ratio', () => {
    const samples = mysqlSamples(second, first, 10, 2);
    expect(outsideCatalogue(samples)).toEqual([]);
    expect(sampleValue(samples, 'mysql.queries_rate')).toBe(2.8);
    expect(sampleValue(samples, 'mysql.com_select_rate')).toBe(2.1);
    expect(sampleValue(samples, 'mysql.com_update_rate')).toBe(0.2);
    expect(sampleValue(samples, 'mysql.commits_rate')).toBe(0);
    expect(sampleValue(samples, 'mysql.innodb_row_lock_waits_rate')).toBe(0.1);
    expect(sampleValue(samples, 'mysql.innodb_log_written_bytes_rate')).toBe(377.9);
    expect(sampleValue(samples, 'mysql.bytes_sent_rate')).toBe(1862.4);
    // 396 page requests in between, none read from disk.
    expect(sampleValue(samples, 'mysql.buffer_pool_hit_ratio')).toBe(1);
  });

  it('counts threads, long-running statements, blocked sessions and connection use', () => {
    const samples = mysqlSamples(second, first, 10, 2);
    expect(sampleValue(samples, 'mysql.threads_running')).toBe(3);
    expect(sampleValue(samples, 'mysql.threads_sleeping')).toBe(1);
    expect(sampleValue(samples, 'mysql.long_queries')).toBe(2);
    expect(sampleValue(samples, 'mysql.blocked_sessions')).toBe(1);
    expect(sampleValue(samples, 'mysql.max_connections')).toBe(151);
    expect(sampleValue(samples, 'mysql.connections_used_pct')).toBe(2.65);
    expect(sampleValue(samples, 'mysql.innodb_buffer_pool_size_bytes')).toBe(134_217_728);
    expect(sampleValue(samples, 'mysql.replicas')).toBe(0);
    expect(sampleValue(samples, 'mysql.replication_lag')).toBeUndefined();
  });

  it('gives no rate for a counter that went backwards (FLUSH STATUS, restart)', () => {
    const samples = mysqlSamples(first, second, 10, 60);
    expect(sampleValue(samples, 'mysql.queries_rate')).toBeUndefined();
  });

  it('publishes replication threads and lag on a replica', () => {
    const replica: MysqlReading = {
      ...second,
      replica: {
        io_running: 'Yes',
        sql_running: 'No',
        lag_s: null,
        source: 'db1:3306',
        last_error: 'Duplicate entry',
      },
    };
    const samples = mysqlSamples(replica, undefined, 0, 60);
    expect(sampleValue(samples, 'mysql.replication_io_running')).toBe(1);
    expect(sampleValue(samples, 'mysql.replication_sql_running')).toBe(0);
    expect(sampleValue(samples, 'mysql.replication_lag')).toBeUndefined();
    expect(mysqlReplication(replica)).toMatchObject({
      role: 'replica',
      state: 'sql stopped',
      last_error: 'Duplicate entry',
    });
  });
});

describe('mysqlExtras', () => {
  const extras = mysqlExtras(second, 2);

  it('passes the shared schema', () => {
    expect(PollerExtras.parse(extras)).toEqual(extras);
  });

  it('lists the blocked thread with the thread holding its row lock', () => {
    expect(extras.blocked_sessions).toEqual([
      expect.objectContaining({
        id: IDS.waiter,
        query: "UPDATE fd_fixture.t SET v = 'waiting' WHERE id = 1",
        wait: 'Updating',
        wait_s: 3,
        blocked_by: [expect.objectContaining({ id: IDS.holder, state: 'Sleep', query: null })],
      }),
    ]);
  });

  it('lists long-running statements and sessions without its own thread', () => {
    expect(extras.long_queries!.map((q) => q.id)).toEqual([IDS.waiter, IDS.sleeper]);
    expect(extras.sessions!.map((s) => s.id).sort()).toEqual([IDS.holder, IDS.waiter, IDS.sleeper]);
    expect(extras.replication).toMatchObject({ role: 'standalone', replicas: [] });
    expect(extras.server).toEqual({
      version: '10.11.19-MariaDB-0+deb12u1',
      uptime_s: 2734,
      max_connections: 151,
    });
  });

  it('sees a primary by its Binlog Dump threads', () => {
    const primary: MysqlReading = {
      ...second,
      processes: [
        ...second.processes,
        readProcess({
          id: 30,
          user: 'repl',
          host: '10.0.0.8:41000',
          command: 'Binlog Dump',
          time: 9000,
          state: 'Master has sent all binlog to slave; waiting for more updates',
        }),
      ],
    };
    expect(mysqlReplication(primary)).toMatchObject({
      role: 'primary',
      replicas: [{ name: '10.0.0.8:41000' }],
    });
    expect(sampleValue(mysqlSamples(primary, undefined, 0, 60), 'mysql.replicas')).toBe(1);
  });
});

describe('lockWaitsSql', () => {
  it('reads performance_schema on MySQL 8 and information_schema on MariaDB and MySQL 5.7', () => {
    expect(lockWaitsSql('8.0.36')).toContain('performance_schema.data_lock_waits');
    expect(lockWaitsSql('10.11.19-MariaDB-0+deb12u1')).toContain('information_schema.INNODB_LOCK_WAITS');
    expect(lockWaitsSql('5.7.44-log')).toContain('information_schema.INNODB_LOCK_WAITS');
  });
});
