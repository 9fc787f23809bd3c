/**
 * Rows of the Oracle poller's queries (oracle-queries.ts) written in the shape node-oracledb returns
 * them with outFormat OUT_FORMAT_OBJECT: one object per row keyed by the upper-case column name or
 * alias, NUMBER as a JavaScript number, VARCHAR2 as a string, NULL (and Oracle's empty string) as
 * null. Column names, value formats and statistic names follow the Oracle Database 23ai Reference
 * (V$INSTANCE, V$DATABASE, V$PARAMETER, V$SYSSTAT and its statistics descriptions, V$SESSION,
 * V$SYSTEM_WAIT_CLASS, V$SGA, V$PGASTAT, V$DATAGUARD_STATS, V$ARCHIVE_DEST,
 * DBA_TABLESPACE_USAGE_METRICS, DBA_SEGMENTS), which 19c matches for these columns. They are
 * written from that documentation, not recorded from a server: the numbers are made up to be
 * consistent with each other.
 *
 * The scene is an Oracle Database 23ai Free instance polled in its pluggable database FREEPDB1,
 * twice 10 s apart. In the second reading SID 101 holds a row lock in an open transaction and sits
 * idle, SID 102 waits for that lock, SID 103 runs a two-minute PL/SQL sleep, SID 104 has been idle
 * for ten minutes, and SID 45 is the poller itself.
 */

export const instance = {
  INSTANCE_NAME: 'FREE',
  HOST_NAME: '8c2f7a9d41b3',
  VERSION: '23.5.0.24.07',
  STATUS: 'OPEN',
  DATABASE_STATUS: 'ACTIVE',
  UPTIME_S: 5432,
  // SYS_CONTEXT returns VARCHAR2.
  SELF_SID: '45',
  CON_NAME: 'FREEPDB1',
};

export const database = {
  NAME: 'FREE',
  DB_UNIQUE_NAME: 'FREE',
  DATABASE_ROLE: 'PRIMARY',
  OPEN_MODE: 'READ WRITE',
  PROTECTION_MODE: 'MAXIMUM PERFORMANCE',
};

/** V$PARAMETER.VALUE is VARCHAR2 for every parameter; an unset fal_server is NULL. */
export const parameters = [
  { NAME: 'processes', VALUE: '300' },
  { NAME: 'sessions', VALUE: '472' },
  { NAME: 'fal_server', VALUE: null },
];

export const counts = { SESSIONS: 62, PROCESSES: 71 };

const stat = (NAME: string, VALUE: number) => ({ NAME, VALUE });

export const sysstat1 = [
  stat('logons cumulative', 410),
  stat('user commits', 1520),
  stat('user rollbacks', 12),
  stat('user calls', 30_500),
  stat('session logical reads', 2_500_000),
  stat('enqueue waits', 300),
  stat('enqueue deadlocks', 0),
  stat('db block gets from cache', 400_000),
  stat('consistent gets from cache', 2_090_000),
  stat('physical reads', 61_000),
  stat('physical reads cache', 60_000),
  stat('physical writes', 18_000),
  stat('redo size', 52_000_000),
  stat('parse count (total)', 41_000),
  stat('parse count (hard)', 5200),
  stat('execute count', 98_000),
  stat('bytes sent via SQL*Net to client', 24_000_000),
  stat('bytes received via SQL*Net from client', 9_000_000),
];

export const sysstat2 = [
  stat('logons cumulative', 412),
  stat('user commits', 1545),
  stat('user rollbacks', 13),
  stat('user calls', 30_800),
  stat('session logical reads', 2_520_000),
  stat('enqueue waits', 302),
  stat('enqueue deadlocks', 0),
  stat('db block gets from cache', 403_000),
  stat('consistent gets from cache', 2_107_000),
  stat('physical reads', 61_100),
  stat('physical reads cache', 60_080),
  stat('physical writes', 18_050),
  stat('redo size', 52_512_000),
  stat('parse count (total)', 41_150),
  stat('parse count (hard)', 5210),
  stat('execute count', 98_420),
  stat('bytes sent via SQL*Net to client', 24_051_200),
  stat('bytes received via SQL*Net from client', 9_010_240),
];

const sessionRow = (over: Record<string, unknown>) => ({
  SID: 0,
  USERNAME: 'FD',
  STATUS: 'INACTIVE',
  TYPE: 'USER',
  SERVICE_NAME: 'freepdb1',
  MACHINE: 'app1.example.net',
  PROGRAM: 'node@app1.example.net (TNS V1-V3)',
  MODULE: 'node@app1.example.net (TNS V1-V3)',
  LAST_CALL_ET: 0,
  BLOCKING_SESSION: null,
  STATE: 'WAITING',
  EVENT: 'SQL*Net message from client',
  WAIT_CLASS: 'Idle',
  WAIT_S: 0,
  SQL_TEXT: null,
  ...over,
});

export const sessions2 = [
  sessionRow({
    SID: 45,
    USERNAME: 'SYSTEM',
    STATUS: 'ACTIVE',
    MACHINE: 'collector1',
    PROGRAM: 'node',
    MODULE: 'flightdeck-poller',
    STATE: 'WAITED SHORT TIME',
    EVENT: 'SQL*Net message to client',
    WAIT_CLASS: 'Network',
    SQL_TEXT: 'SELECT s.SID, s.USERNAME, s.STATUS, s.TYPE, s.SERVICE_NAME, s.MACHINE, s.PROGRAM',
  }),
  sessionRow({ SID: 101, LAST_CALL_ET: 40, WAIT_S: 40.105 }),
  sessionRow({
    SID: 102,
    STATUS: 'ACTIVE',
    LAST_CALL_ET: 35,
    BLOCKING_SESSION: 101,
    EVENT: 'enq: TX - row lock contention',
    WAIT_CLASS: 'Application',
    WAIT_S: 35.217,
    SQL_TEXT: "UPDATE FD.T SET V = 'waiting' WHERE ID = 1",
  }),
  sessionRow({
    SID: 103,
    STATUS: 'ACTIVE',
    MACHINE: 'batch1.example.net',
    PROGRAM: 'sqlplus@batch1.example.net (TNS V1-V3)',
    MODULE: 'SQL*Plus',
    LAST_CALL_ET: 90,
    EVENT: 'PL/SQL lock timer',
    WAIT_CLASS: 'Idle',
    WAIT_S: 89.998,
    SQL_TEXT: 'BEGIN DBMS_SESSION.SLEEP(120); END;',
  }),
  sessionRow({ SID: 104, USERNAME: 'HR', LAST_CALL_ET: 600, WAIT_S: 600.004 }),
];

/** TIME_WAITED is in hundredths of a second. */
export const waitClasses1 = [
  { WAIT_CLASS: 'Other', TIME_WAITED: 9000 },
  { WAIT_CLASS: 'Application', TIME_WAITED: 5000 },
  { WAIT_CLASS: 'Configuration', TIME_WAITED: 300 },
  { WAIT_CLASS: 'Administrative', TIME_WAITED: 0 },
  { WAIT_CLASS: 'Concurrency', TIME_WAITED: 2000 },
  { WAIT_CLASS: 'Commit', TIME_WAITED: 1500 },
  { WAIT_CLASS: 'Network', TIME_WAITED: 700 },
  { WAIT_CLASS: 'User I/O', TIME_WAITED: 120_000 },
  { WAIT_CLASS: 'System I/O', TIME_WAITED: 80_000 },
  { WAIT_CLASS: 'Scheduler', TIME_WAITED: 0 },
];

export const waitClasses2 = [
  { WAIT_CLASS: 'Other', TIME_WAITED: 9000 },
  { WAIT_CLASS: 'Application', TIME_WAITED: 6000 },
  { WAIT_CLASS: 'Configuration', TIME_WAITED: 300 },
  { WAIT_CLASS: 'Administrative', TIME_WAITED: 0 },
  { WAIT_CLASS: 'Concurrency', TIME_WAITED: 2000 },
  { WAIT_CLASS: 'Commit', TIME_WAITED: 1530 },
  { WAIT_CLASS: 'Network', TIME_WAITED: 701 },
  { WAIT_CLASS: 'User I/O', TIME_WAITED: 120_500 },
  { WAIT_CLASS: 'System I/O', TIME_WAITED: 80_200 },
  { WAIT_CLASS: 'Scheduler', TIME_WAITED: 0 },
];

export const memory = { SGA_BYTES: 1_610_612_736, PGA_ALLOCATED_BYTES: 251_658_240 };

/** No standby destination on this primary. */
export const standbys: Record<string, unknown>[] = [];

/** USED_BYTES and SIZE_BYTES are the query's blocks times BLOCK_SIZE; USED_PERCENT is the view's. */
export const tablespaces = [
  {
    TABLESPACE_NAME: 'SYSAUX',
    CONTENTS: 'PERMANENT',
    USED_BYTES: 524_288_000,
    SIZE_BYTES: 34_359_721_984,
    USED_PERCENT: 1.525881201349222,
  },
  {
    TABLESPACE_NAME: 'SYSTEM',
    CONTENTS: 'PERMANENT',
    USED_BYTES: 293_601_280,
    SIZE_BYTES: 34_359_721_984,
    USED_PERCENT: 0.8544934727555643,
  },
  {
    TABLESPACE_NAME: 'USERS',
    CONTENTS: 'PERMANENT',
    USED_BYTES: 27_787_264,
    SIZE_BYTES: 34_359_721_984,
    USED_PERCENT: 0.08087158203125,
  },
  {
    TABLESPACE_NAME: 'UNDOTBS1',
    CONTENTS: 'UNDO',
    USED_BYTES: 2_097_152,
    SIZE_BYTES: 34_359_721_984,
    USED_PERCENT: 0.006103527830017,
  },
  {
    TABLESPACE_NAME: 'TEMP',
    CONTENTS: 'TEMPORARY',
    USED_BYTES: 0,
    SIZE_BYTES: 34_359_721_984,
    USED_PERCENT: 0,
  },
];

export const schemaSizes = [
  { OWNER: 'FD', SIZE_BYTES: 26_214_400 },
  { OWNER: 'HR', SIZE_BYTES: 1_572_864 },
];

export const tableSizes = [
  { OWNER: 'FD', TABLE_NAME: 'T', DATA_BYTES: 25_165_824, INDEX_BYTES: 1_048_576, NUM_ROWS: 100_000 },
  { OWNER: 'HR', TABLE_NAME: 'EMPLOYEES', DATA_BYTES: 65_536, INDEX_BYTES: 393_216, NUM_ROWS: 107 },
  // A table never analysed has no optimizer row count.
  { OWNER: 'HR', TABLE_NAME: 'JOB_HISTORY', DATA_BYTES: 65_536, INDEX_BYTES: 262_144, NUM_ROWS: null },
];

/** V$DATABASE of a physical standby with real-time apply, for the replication tests. */
export const standbyDatabase = {
  NAME: 'ORCL',
  DB_UNIQUE_NAME: 'ORCL_B',
  DATABASE_ROLE: 'PHYSICAL STANDBY',
  OPEN_MODE: 'READ ONLY WITH APPLY',
  PROTECTION_MODE: 'MAXIMUM PERFORMANCE',
};

/** V$DATAGUARD_STATS on that standby (SELECT *), names in the lower case 19c and later use. */
export const dataguardStats = [
  {
    SOURCE_DBID: 1_650_892_183,
    SOURCE_DB_UNIQUE_NAME: 'ORCL_A',
    NAME: 'transport lag',
    VALUE: '+00 00:00:02',
    UNIT: 'day(2) to second(0) interval',
    TIME_COMPUTED: '11/21/2026 10:15:31',
    DATUM_TIME: '11/21/2026 10:15:30',
    CON_ID: 0,
  },
  {
    SOURCE_DBID: 1_650_892_183,
    SOURCE_DB_UNIQUE_NAME: 'ORCL_A',
    NAME: 'apply lag',
    VALUE: '+00 00:01:07',
    UNIT: 'day(2) to second(0) interval',
    TIME_COMPUTED: '11/21/2026 10:15:31',
    DATUM_TIME: '11/21/2026 10:15:30',
    CON_ID: 0,
  },
  {
    SOURCE_DBID: 1_650_892_183,
    SOURCE_DB_UNIQUE_NAME: 'ORCL_A',
    NAME: 'apply finish time',
    VALUE: '+00 00:00:00.412',
    UNIT: 'day(2) to second(3) interval',
    TIME_COMPUTED: '11/21/2026 10:15:31',
    DATUM_TIME: null,
    CON_ID: 0,
  },
  {
    SOURCE_DBID: 0,
    SOURCE_DB_UNIQUE_NAME: null,
    NAME: 'estimated startup time',
    VALUE: '9',
    UNIT: 'second',
    TIME_COMPUTED: '11/21/2026 10:15:31',
    DATUM_TIME: null,
    CON_ID: 0,
  },
];

/** V$ARCHIVE_DEST (SELECT *, the columns the poller reads) on a primary shipping redo to one standby. */
export const archiveDests = [
  {
    DEST_ID: 2,
    DEST_NAME: 'LOG_ARCHIVE_DEST_2',
    STATUS: 'VALID',
    BINDING: 'OPTIONAL',
    TARGET: 'STANDBY',
    DESTINATION: 'orcl_b',
    ERROR: null,
    TRANSMIT_MODE: 'ASYNCHRONOUS',
    VALID_ROLE: 'ONLINE_LOGFILE,PRIMARY_ROLE',
    DB_UNIQUE_NAME: 'ORCL_B',
  },
  {
    DEST_ID: 3,
    DEST_NAME: 'LOG_ARCHIVE_DEST_3',
    STATUS: 'ERROR',
    BINDING: 'OPTIONAL',
    TARGET: 'STANDBY',
    DESTINATION: 'orcl_c',
    ERROR: 'ORA-12541: Cannot connect. No listener at host 10.0.0.9 port 1521.',
    TRANSMIT_MODE: 'ASYNCHRONOUS',
    VALID_ROLE: 'ONLINE_LOGFILE,PRIMARY_ROLE',
    DB_UNIQUE_NAME: 'NONE',
  },
];
