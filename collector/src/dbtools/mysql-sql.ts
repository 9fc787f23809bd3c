import type { TableColumn, TableIndex, TableInfo } from '@flightdeck/schemas';
import { num, str } from '../pollers/rates';

/**
 * The SQL of the MySQL and MariaDB inspections and the readers of their rows. Schema and table
 * names from a request travel as `?` values the driver escapes; the one statement that needs them
 * as identifiers (SHOW CREATE TABLE) quotes them with the driver's escapeId.
 */

type Row = Record<string, unknown>;

const nn = (v: unknown): number | null => num(v) ?? null;

/** Schemas of the server itself, left out of the table list. */
const SYSTEM_SCHEMAS = `('information_schema', 'performance_schema', 'mysql', 'sys')`;

/** information_schema.TABLES.TABLE_TYPE and the word a table is listed as. */
const TABLE_TYPES: Readonly<Record<string, string>> = {
  'BASE TABLE': 'table',
  VIEW: 'view',
  'SYSTEM VIEW': 'view',
  'SYSTEM VERSIONED': 'system_versioned_table',
  SEQUENCE: 'sequence',
  TEMPORARY: 'temporary_table',
};

export function tableType(type: string | null): string {
  if (type === null) return 'table';
  return TABLE_TYPES[type] ?? type.toLowerCase().replace(/\s+/g, '_');
}

/** Tables of every user schema, largest first (? = how many). */
export const TABLES_SQL = `SELECT TABLE_SCHEMA AS db, TABLE_NAME AS name, TABLE_TYPE AS type, ENGINE AS engine,
  TABLE_ROWS AS table_rows, DATA_LENGTH AS data_bytes, INDEX_LENGTH AS index_bytes
FROM information_schema.TABLES
WHERE TABLE_SCHEMA NOT IN ${SYSTEM_SCHEMAS}
ORDER BY DATA_LENGTH + INDEX_LENGTH DESC, TABLE_SCHEMA, TABLE_NAME
LIMIT ?`;

export function readTable(row: Row): TableInfo {
  const data = nn(row.data_bytes);
  const index = nn(row.index_bytes);
  return {
    database: str(row.db) ?? '',
    schema: null,
    name: str(row.name) ?? '',
    type: tableType(str(row.type)),
    engine: str(row.engine),
    rows: nn(row.table_rows),
    data_bytes: data,
    index_bytes: index,
    size_bytes: data === null || index === null ? null : data + index,
  };
}

/**
 * One table by schema and name (?, ?), with the figures of `table_counters`. The name it answers
 * is the table's own spelling, which SHOW CREATE TABLE then uses.
 */
export const FIND_TABLE_SQL = `SELECT TABLE_NAME AS name, TABLE_TYPE AS type, TABLE_ROWS AS table_rows,
  DATA_LENGTH AS data_bytes, INDEX_LENGTH AS index_bytes, DATA_FREE AS free_bytes,
  AUTO_INCREMENT AS auto_increment,
  UNIX_TIMESTAMP(CREATE_TIME) * 1000 AS created_at, UNIX_TIMESTAMP(UPDATE_TIME) * 1000 AS updated_at
FROM information_schema.TABLES
WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?
LIMIT 1`;

export const COLUMNS_SQL = `SELECT COLUMN_NAME AS name, COLUMN_TYPE AS type, IS_NULLABLE AS nullable,
  COLUMN_DEFAULT AS dflt, COLUMN_KEY AS col_key, COLUMN_COMMENT AS comment
FROM information_schema.COLUMNS
WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?
ORDER BY ORDINAL_POSITION`;

export function readColumn(row: Row): TableColumn {
  return {
    name: str(row.name) ?? '',
    type: str(row.type) ?? '',
    nullable: str(row.nullable) === 'YES',
    default: str(row.dflt),
    primary: str(row.col_key) === 'PRI',
    comment: str(row.comment) || null,
  };
}

/** One row per index column, the primary key first, columns in index order. */
export const INDEX_COLUMNS_SQL = `SELECT INDEX_NAME AS name, NON_UNIQUE AS non_unique, COLUMN_NAME AS col,
  SUB_PART AS sub_part, INDEX_TYPE AS method
FROM information_schema.STATISTICS
WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?
ORDER BY INDEX_NAME = 'PRIMARY' DESC, INDEX_NAME, SEQ_IN_INDEX`;

/** InnoDB's persistent statistics: each index's size in pages, times the page size. */
export const INDEX_SIZES_SQL = `SELECT index_name AS name, stat_value * @@innodb_page_size AS size_bytes
FROM mysql.innodb_index_stats
WHERE database_name = ? AND table_name = ? AND stat_name = 'size'`;

/** Indexes from their column rows, in the order the rows come; sizes by index name where known. */
export function readIndexes(rows: readonly Row[], sizes: ReadonlyMap<string, number>): TableIndex[] {
  const byName = new Map<string, TableIndex>();
  for (const row of rows) {
    const name = str(row.name) ?? '';
    let index = byName.get(name);
    if (!index) {
      index = {
        name,
        columns: [],
        unique: num(row.non_unique) === 0,
        primary: name === 'PRIMARY',
        method: str(row.method),
        size_bytes: sizes.get(name) ?? null,
      };
      byName.set(name, index);
    }
    // A functional key part (MySQL 8) has no column name.
    const column = str(row.col) ?? '(expression)';
    const part = num(row.sub_part);
    index.columns.push(part === undefined ? column : `${column}(${part})`);
  }
  return [...byName.values()];
}

/**
 * performance_schema's I/O summary of one table (?, ?), where performance_schema is on. Timers are
 * in picoseconds.
 */
export const TABLE_IO_SQL = `SELECT COUNT_READ AS rows_read, COUNT_INSERT AS rows_inserted,
  COUNT_UPDATE AS rows_updated, COUNT_DELETE AS rows_deleted,
  SUM_TIMER_FETCH / 1e12 AS rows_fetched_wait_s,
  (SUM_TIMER_INSERT + SUM_TIMER_UPDATE + SUM_TIMER_DELETE) / 1e12 AS rows_changed_wait_s
FROM performance_schema.table_io_waits_summary_by_table
WHERE OBJECT_TYPE = 'TABLE' AND OBJECT_SCHEMA = ? AND OBJECT_NAME = ?`;

export const PERFORMANCE_SCHEMA_SQL = 'SELECT @@performance_schema AS on_';

/** Every schema but the virtual ones, with its size and how many tables it holds. */
export const SCHEMAS_SQL = `SELECT s.SCHEMA_NAME AS name, SUM(t.DATA_LENGTH + t.INDEX_LENGTH) AS size_bytes,
  COUNT(CASE WHEN t.TABLE_TYPE IN ('BASE TABLE', 'SYSTEM VERSIONED') THEN 1 END) AS tables
FROM information_schema.SCHEMATA s
LEFT JOIN information_schema.TABLES t ON t.TABLE_SCHEMA = s.SCHEMA_NAME
WHERE s.SCHEMA_NAME NOT IN ('information_schema', 'performance_schema')
GROUP BY s.SCHEMA_NAME
ORDER BY s.SCHEMA_NAME`;

/** MySQL 8 keeps its deadlock count in an InnoDB metric rather than in SHOW GLOBAL STATUS. */
export const DEADLOCKS_METRIC_SQL = `SELECT COUNT AS deadlocks FROM information_schema.INNODB_METRICS
WHERE NAME = 'lock_deadlocks'`;
