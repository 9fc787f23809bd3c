import type { DatabaseSize, TableSize } from '@flightdeck/schemas';
import type {
  OracleCounts,
  OracleDatabaseRow,
  OracleDataguardRow,
  OracleInstanceRow,
  OracleLimits,
  OracleMemory,
  OracleSessionRow,
  OracleStandbyRow,
  OracleStats,
  OracleTablespaceRow,
  OracleWaits,
} from './oracle-metrics';
import { num, round, str } from './rates';

/**
 * The SQL of the Oracle poller (Oracle Database 12.1 and later: 19c, 21c, 23ai) and the readers
 * that turn node-oracledb's rows into typed rows. Rows come as objects keyed by the upper-case
 * column name (outFormat OUT_FORMAT_OBJECT); NUMBER columns arrive as numbers. Everything reads
 * V$ and DBA_ views, which SELECT_CATALOG_ROLE grants.
 */

type Row = Record<string, unknown>;

/** Instance facts; VERSION_FULL exists from 18c on, {@link INSTANCE_SQL_12C} is the fallback. */
export const INSTANCE_SQL = `SELECT INSTANCE_NAME, HOST_NAME, VERSION_FULL AS VERSION, STATUS, DATABASE_STATUS,
  ROUND((SYSDATE - STARTUP_TIME) * 86400) AS UPTIME_S,
  SYS_CONTEXT('USERENV', 'SID') AS SELF_SID, SYS_CONTEXT('USERENV', 'CON_NAME') AS CON_NAME
FROM V$INSTANCE`;

/** {@link INSTANCE_SQL} for 12c, which has no VERSION_FULL. */
export const INSTANCE_SQL_12C = INSTANCE_SQL.replace('VERSION_FULL AS VERSION', 'VERSION');

export const DATABASE_SQL = `SELECT NAME, DB_UNIQUE_NAME, DATABASE_ROLE, OPEN_MODE, PROTECTION_MODE
FROM V$DATABASE`;

/** The limits sessions and processes count against, and where a standby fetches missing redo from. */
export const PARAMETERS_SQL = `SELECT NAME, VALUE FROM V$PARAMETER
WHERE NAME IN ('sessions', 'processes', 'fal_server')`;

export const COUNTS_SQL = `SELECT (SELECT COUNT(*) FROM V$SESSION) AS SESSIONS,
  (SELECT COUNT(*) FROM V$PROCESS) AS PROCESSES
FROM DUAL`;

/** The V$SYSSTAT statistics the poller reads, by their exact (lower-case) names. */
export const SYSSTAT_NAMES = [
  'user commits',
  'user rollbacks',
  'execute count',
  'parse count (total)',
  'parse count (hard)',
  'user calls',
  'logons cumulative',
  'session logical reads',
  'physical reads',
  'physical writes',
  'physical reads cache',
  'db block gets from cache',
  'consistent gets from cache',
  'redo size',
  'bytes received via SQL*Net from client',
  'bytes sent via SQL*Net to client',
  'enqueue waits',
  'enqueue deadlocks',
] as const;

export const SYSSTAT_SQL = `SELECT NAME, VALUE FROM V$SYSSTAT
WHERE NAME IN (${SYSSTAT_NAMES.map((n) => `'${n}'`).join(', ')})`;

/**
 * Every user session, and the statement of those running one. LAST_CALL_ET is how long an active
 * session's call has run, or how long an inactive one has been idle. V$SQL is joined by address
 * and hash value, its fixed index, and only for active sessions.
 */
export const SESSIONS_SQL = `SELECT s.SID, s.USERNAME, s.STATUS, s.TYPE, s.SERVICE_NAME, s.MACHINE, s.PROGRAM,
  s.MODULE, s.LAST_CALL_ET, s.BLOCKING_SESSION, s.STATE, s.EVENT, s.WAIT_CLASS,
  ROUND(s.WAIT_TIME_MICRO / 1000000, 3) AS WAIT_S, q.SQL_TEXT
FROM V$SESSION s
LEFT JOIN V$SQL q ON s.STATUS = 'ACTIVE' AND q.ADDRESS = s.SQL_ADDRESS
  AND q.HASH_VALUE = s.SQL_HASH_VALUE AND q.CHILD_NUMBER = s.SQL_CHILD_NUMBER
WHERE s.TYPE = 'USER'`;

/** Time waited by wait class, in centiseconds, idle waits left out. */
export const WAIT_CLASSES_SQL = `SELECT WAIT_CLASS, TIME_WAITED FROM V$SYSTEM_WAIT_CLASS
WHERE WAIT_CLASS <> 'Idle'`;

export const MEMORY_SQL = `SELECT (SELECT SUM(VALUE) FROM V$SGA) AS SGA_BYTES,
  (SELECT VALUE FROM V$PGASTAT WHERE NAME = 'total PGA allocated') AS PGA_ALLOCATED_BYTES
FROM DUAL`;

/** On a standby: its lags (no rows on a primary). Every column, as 12.1 lacks the source's name. */
export const DATAGUARD_SQL = 'SELECT * FROM V$DATAGUARD_STATS';

/** On a primary: the standby destinations it ships redo to. */
export const STANDBYS_SQL = `SELECT * FROM V$ARCHIVE_DEST
WHERE TARGET = 'STANDBY' AND STATUS <> 'INACTIVE'
ORDER BY DEST_ID`;

/**
 * Tablespace use against what each may grow to (autoextend counted), in bytes. The view counts
 * blocks; each tablespace has its own block size.
 */
export const TABLESPACES_SQL = `SELECT m.TABLESPACE_NAME, t.CONTENTS, m.USED_SPACE * t.BLOCK_SIZE AS USED_BYTES,
  m.TABLESPACE_SIZE * t.BLOCK_SIZE AS SIZE_BYTES, m.USED_PERCENT
FROM DBA_TABLESPACE_USAGE_METRICS m
JOIN DBA_TABLESPACES t ON t.TABLESPACE_NAME = m.TABLESPACE_NAME
ORDER BY m.USED_PERCENT DESC`;

/** Segment space of each schema that is not Oracle's own. */
export const SCHEMA_SIZES_SQL = `SELECT s.OWNER, SUM(s.BYTES) AS SIZE_BYTES
FROM DBA_SEGMENTS s
JOIN DBA_USERS u ON u.USERNAME = s.OWNER AND u.ORACLE_MAINTAINED = 'N'
GROUP BY s.OWNER
ORDER BY SIZE_BYTES DESC`;

/**
 * The largest tables of schemas that are not Oracle's own, ranked by their table segments
 * (partitions summed), with the segments of their indexes and the optimizer's row count.
 */
export const TABLE_SIZES_SQL = `WITH seg AS (
  SELECT OWNER, SEGMENT_NAME, SUM(BYTES) AS BYTES FROM DBA_SEGMENTS
  WHERE SEGMENT_TYPE IN ('TABLE', 'TABLE PARTITION', 'TABLE SUBPARTITION')
  GROUP BY OWNER, SEGMENT_NAME
), largest AS (
  SELECT seg.OWNER, seg.SEGMENT_NAME AS TABLE_NAME, seg.BYTES AS DATA_BYTES
  FROM seg JOIN DBA_USERS u ON u.USERNAME = seg.OWNER AND u.ORACLE_MAINTAINED = 'N'
  ORDER BY seg.BYTES DESC
  FETCH FIRST :top_tables ROWS ONLY
)
SELECT l.OWNER, l.TABLE_NAME, l.DATA_BYTES,
  (SELECT NVL(SUM(s.BYTES), 0) FROM DBA_INDEXES i
   JOIN DBA_SEGMENTS s ON s.OWNER = i.OWNER AND s.SEGMENT_NAME = i.INDEX_NAME
   WHERE i.TABLE_OWNER = l.OWNER AND i.TABLE_NAME = l.TABLE_NAME) AS INDEX_BYTES,
  t.NUM_ROWS
FROM largest l
LEFT JOIN DBA_TABLES t ON t.OWNER = l.OWNER AND t.TABLE_NAME = l.TABLE_NAME
ORDER BY l.DATA_BYTES DESC`;

export function readInstance(row: Row): OracleInstanceRow {
  return {
    instance_name: str(row.INSTANCE_NAME) ?? '',
    host_name: str(row.HOST_NAME),
    version: str(row.VERSION) ?? '',
    status: str(row.STATUS),
    database_status: str(row.DATABASE_STATUS),
    uptime_s: num(row.UPTIME_S) ?? null,
    self_sid: num(row.SELF_SID) ?? null,
    container: str(row.CON_NAME),
  };
}

export function readDatabase(row: Row): OracleDatabaseRow {
  return {
    name: str(row.NAME) ?? '',
    db_unique_name: str(row.DB_UNIQUE_NAME),
    role: str(row.DATABASE_ROLE) ?? 'PRIMARY',
    open_mode: str(row.OPEN_MODE),
    protection_mode: str(row.PROTECTION_MODE),
  };
}

/** Reads the rows of {@link PARAMETERS_SQL}; V$PARAMETER holds every value as text. */
export function readLimits(rows: readonly Row[]): OracleLimits {
  const value = (name: string) => rows.find((r) => str(r.NAME) === name)?.VALUE;
  const fal = str(value('fal_server'));
  return {
    sessions_limit: num(value('sessions')) ?? null,
    processes_limit: num(value('processes')) ?? null,
    fal_server: fal?.trim() ? fal.trim() : null,
  };
}

export function readCounts(row: Row): OracleCounts {
  return { sessions: num(row.SESSIONS) ?? 0, processes: num(row.PROCESSES) ?? 0 };
}

/** Reads V$SYSSTAT rows (`NAME`, `VALUE`) into a map by lower-case name. */
export function readSysstat(rows: readonly Row[]): OracleStats {
  const stats = new Map<string, number>();
  for (const row of rows) {
    const name = str(row.NAME);
    const value = num(row.VALUE);
    if (name && value !== undefined) stats.set(name.toLowerCase(), value);
  }
  return stats;
}

export function readSession(row: Row): OracleSessionRow {
  return {
    sid: num(row.SID) ?? 0,
    username: str(row.USERNAME),
    status: str(row.STATUS),
    type: str(row.TYPE),
    service: str(row.SERVICE_NAME),
    machine: str(row.MACHINE),
    program: str(row.PROGRAM),
    module: str(row.MODULE),
    last_call_et: num(row.LAST_CALL_ET) ?? null,
    blocking_session: num(row.BLOCKING_SESSION) ?? null,
    state: str(row.STATE),
    event: str(row.EVENT),
    wait_class: str(row.WAIT_CLASS),
    wait_s: num(row.WAIT_S) ?? null,
    sql_text: str(row.SQL_TEXT),
  };
}

/** Reads V$SYSTEM_WAIT_CLASS rows into centiseconds waited by wait class. */
export function readWaitClasses(rows: readonly Row[]): OracleWaits {
  const waits = new Map<string, number>();
  for (const row of rows) {
    const name = str(row.WAIT_CLASS);
    const value = num(row.TIME_WAITED);
    if (name && value !== undefined) waits.set(name, value);
  }
  return waits;
}

export function readMemory(row: Row): OracleMemory {
  return {
    sga_bytes: num(row.SGA_BYTES) ?? null,
    pga_allocated_bytes: num(row.PGA_ALLOCATED_BYTES) ?? null,
  };
}

/**
 * An interval of V$DATAGUARD_STATS (`+DD HH:MI:SS`, seconds possibly with a fraction) in seconds,
 * or null for an empty value (the lag has not been computed).
 */
export function intervalSeconds(value: unknown): number | null {
  const text = str(value)?.trim();
  if (!text) return null;
  const m = /^([+-])?(\d+) (\d{1,2}):(\d{1,2}):(\d{1,2}(?:\.\d+)?)$/.exec(text);
  if (!m) return null;
  const seconds = Number(m[2]) * 86_400 + Number(m[3]) * 3600 + Number(m[4]) * 60 + Number(m[5]);
  return round(m[1] === '-' ? -seconds : seconds);
}

/** Reads V$DATAGUARD_STATS rows; null when there are none (a primary, or no Data Guard). */
export function readDataguard(rows: readonly Row[]): OracleDataguardRow | null {
  if (rows.length === 0) return null;
  const metric = (name: string) => rows.find((r) => str(r.NAME)?.toLowerCase() === name);
  const apply = metric('apply lag');
  const transport = metric('transport lag');
  return {
    apply_lag_s: intervalSeconds(apply?.VALUE),
    transport_lag_s: intervalSeconds(transport?.VALUE),
    source: str((apply ?? transport)?.SOURCE_DB_UNIQUE_NAME),
  };
}

/** A row of V$ARCHIVE_DEST; DB_UNIQUE_NAME is NONE when the destination's setting does not name it. */
export function readStandby(row: Row): OracleStandbyRow {
  const error = str(row.ERROR)?.trim();
  const unique = str(row.DB_UNIQUE_NAME);
  return {
    name: unique && unique !== 'NONE' ? unique : (str(row.DEST_NAME) ?? ''),
    destination: str(row.DESTINATION),
    status: str(row.STATUS),
    transmit_mode: str(row.TRANSMIT_MODE),
    error: error ? error : null,
  };
}

export function readTablespace(row: Row): OracleTablespaceRow {
  return {
    name: str(row.TABLESPACE_NAME) ?? '',
    contents: str(row.CONTENTS),
    used_bytes: num(row.USED_BYTES) ?? 0,
    size_bytes: num(row.SIZE_BYTES) ?? 0,
    used_pct: round(num(row.USED_PERCENT) ?? 0, 2),
  };
}

export function readSchemaSize(row: Row): DatabaseSize {
  return { name: str(row.OWNER) ?? '', size_bytes: num(row.SIZE_BYTES) ?? 0 };
}

/** A row of {@link TABLE_SIZES_SQL}; `database` names the database or pluggable database. */
export function readTableSize(row: Row, database: string): TableSize {
  const data = num(row.DATA_BYTES) ?? 0;
  const index = num(row.INDEX_BYTES) ?? 0;
  return {
    database,
    schema: str(row.OWNER),
    name: str(row.TABLE_NAME) ?? '',
    size_bytes: data + index,
    data_bytes: data,
    index_bytes: index,
    rows: num(row.NUM_ROWS) ?? null,
  };
}
