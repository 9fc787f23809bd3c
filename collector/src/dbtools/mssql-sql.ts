import type {
  DatabaseHealth,
  HealthStatus,
  TableColumn,
  TableCounterKey,
  TableIndex,
  TableInfo,
} from '@flightdeck/schemas';
import { num, str } from '../pollers/rates';
import { levelAbove, worstStatus } from './health';

/**
 * The T-SQL of the SQL Server inspections (SQL Server 2019 and 2022 documentation; 2016 and later)
 * and the readers of their rows. Nothing from a request is ever spliced into a statement: the
 * database, schema and table names travel as bound parameters. A statement that must run inside
 * another database goes through that database's own sp_executesql, whose name the server builds
 * with QUOTENAME from the bound database name ({@link IN_DATABASE}).
 */

type Row = Record<string, unknown>;

const nn = (v: unknown): number | null => num(v) ?? null;
const bool = (v: unknown): boolean => v === true || v === 1 || v === '1';
const PAGE = 8192;
const pages = (v: unknown): number | null => {
  const n = num(v);
  return n === undefined ? null : n * PAGE;
};

/**
 * Runs the bound statement `@stmt` in the database `@db`, with its parameters `@schema`, `@name`
 * and `@limit` bound too: `EXEC @proc` calls the procedure whose name the variable holds.
 */
export const IN_DATABASE = `DECLARE @proc nvarchar(300) = QUOTENAME(@db) + N'.sys.sp_executesql';
EXEC @proc @stmt, N'@schema sysname, @name sysname, @limit int', @schema = @schema, @name = @name, @limit = @limit;`;

/** A database by name (`@db`): whether it exists, is online and the login may use it. */
export const DATABASE_SQL = `SELECT name, state_desc, HAS_DBACCESS(name) AS has_access
FROM sys.databases WHERE name = @db`;

/**
 * Databases whose tables are listed: online ones the login may use, the system databases left out
 * unless the target's own database is one (`@configured`).
 */
export const LISTED_DATABASES_SQL = `SELECT name FROM sys.databases
WHERE state = 0 AND HAS_DBACCESS(name) = 1 AND (database_id > 4 OR name = @configured)
ORDER BY name`;

/** Sizes of an object from its partitions' allocation units (readable with any permission on it). */
const SIZES = `SELECT SUM(CASE WHEN p.index_id < 2 AND au.type = 1 THEN p.rows ELSE 0 END) AS row_count,
    SUM(CASE WHEN p.index_id < 2 THEN au.used_pages ELSE 0 END) AS data_pages,
    SUM(CASE WHEN p.index_id >= 2 THEN au.used_pages ELSE 0 END) AS index_pages,
    SUM(au.used_pages) AS used_pages,
    SUM(au.total_pages) AS total_pages
  FROM sys.partitions AS p
  JOIN sys.allocation_units AS au
    ON au.container_id = CASE au.type WHEN 2 THEN p.partition_id ELSE p.hobt_id END
  WHERE p.object_id = o.object_id`;

/** (In a database.) Its tables and views, largest first, at most `@limit`. */
export const TABLES_STMT = `SELECT TOP (@limit) DB_NAME() AS database_name, s.name AS schema_name,
  o.name AS table_name, o.type AS object_type, sz.row_count, sz.data_pages, sz.index_pages, sz.total_pages
FROM sys.objects AS o
JOIN sys.schemas AS s ON s.schema_id = o.schema_id
OUTER APPLY (${SIZES}) AS sz
WHERE o.type IN ('U', 'V') AND o.is_ms_shipped = 0
ORDER BY sz.total_pages DESC, s.name, o.name`;

const FIND_OBJECT = (types: string) => `DECLARE @object_id int = (SELECT o.object_id FROM sys.objects AS o
  JOIN sys.schemas AS s ON s.schema_id = o.schema_id
  WHERE s.name = @schema AND o.name = @name AND o.type IN (${types}));`;

/** (In a database.) The table or view `@schema`.`@name`: the object, its columns, its indexes. */
export const DEFINITION_STMT = `${FIND_OBJECT("'U', 'V'")}
SELECT s.name AS schema_name, o.name AS table_name, o.type AS object_type
FROM sys.objects AS o JOIN sys.schemas AS s ON s.schema_id = o.schema_id
WHERE o.object_id = @object_id;
SELECT c.column_id, c.name AS column_name, ty.name AS type_name, ty.is_user_defined, c.max_length,
  c.[precision], c.[scale], c.is_nullable, c.is_identity, c.is_computed,
  dc.definition AS default_definition, cc.definition AS computed_definition,
  CAST(ic.seed_value AS nvarchar(40)) AS identity_seed,
  CAST(ic.increment_value AS nvarchar(40)) AS identity_increment,
  CAST(ep.value AS nvarchar(4000)) AS column_comment,
  CASE WHEN EXISTS (SELECT 1 FROM sys.indexes AS i
    JOIN sys.index_columns AS k ON k.object_id = i.object_id AND k.index_id = i.index_id
    WHERE i.object_id = c.object_id AND i.is_primary_key = 1 AND k.column_id = c.column_id)
  THEN 1 ELSE 0 END AS is_primary
FROM sys.columns AS c
JOIN sys.types AS ty ON ty.user_type_id = c.user_type_id
LEFT JOIN sys.default_constraints AS dc ON dc.object_id = c.default_object_id
LEFT JOIN sys.computed_columns AS cc ON cc.object_id = c.object_id AND cc.column_id = c.column_id
LEFT JOIN sys.identity_columns AS ic ON ic.object_id = c.object_id AND ic.column_id = c.column_id
LEFT JOIN sys.extended_properties AS ep
  ON ep.class = 1 AND ep.major_id = c.object_id AND ep.minor_id = c.column_id AND ep.name = N'MS_Description'
WHERE c.object_id = @object_id
ORDER BY c.column_id;
SELECT i.index_id, i.name AS index_name, i.type_desc, i.is_unique, i.is_primary_key,
  k.key_ordinal, c.name AS column_name,
  (SELECT SUM(au.used_pages) FROM sys.partitions AS p
    JOIN sys.allocation_units AS au
      ON au.container_id = CASE au.type WHEN 2 THEN p.partition_id ELSE p.hobt_id END
    WHERE p.object_id = i.object_id AND p.index_id = i.index_id) AS used_pages
FROM sys.indexes AS i
LEFT JOIN sys.index_columns AS k
  ON k.object_id = i.object_id AND k.index_id = i.index_id AND k.is_included_column = 0
LEFT JOIN sys.columns AS c ON c.object_id = k.object_id AND c.column_id = k.column_id
WHERE i.object_id = @object_id AND i.index_id > 0 AND i.is_hypothetical = 0
ORDER BY i.index_id, k.key_ordinal, k.index_column_id;`;

/** (In a database.) The table `@schema`.`@name`, its sizes and age: no row when there is none. */
export const TABLE_SIZES_STMT = `${FIND_OBJECT("'U'")}
SELECT s.name AS schema_name, o.name AS table_name,
  DATEDIFF_BIG(MILLISECOND, o.create_date, SYSDATETIME()) AS created_age_ms,
  sz.row_count, sz.data_pages, sz.index_pages, sz.used_pages, sz.total_pages
FROM sys.objects AS o
JOIN sys.schemas AS s ON s.schema_id = o.schema_id
OUTER APPLY (${SIZES}) AS sz
WHERE o.object_id = @object_id;`;

/**
 * (In a database; VIEW SERVER STATE.) Index use since the instance started and row operations of
 * the heap or clustered index, for the table `@schema`.`@name`. dm_db_index_operational_stats
 * counts while the table's metadata stays cached, so its figures can restart from zero.
 */
export const TABLE_USAGE_STMT = `${FIND_OBJECT("'U'")}
SELECT ISNULL(SUM(CASE WHEN u.index_id < 2 THEN u.user_scans ELSE 0 END), 0) AS table_scans,
  ISNULL(SUM(u.user_seeks + CASE WHEN u.index_id >= 2 THEN u.user_scans ELSE 0 END), 0) AS index_scans,
  DATEDIFF_BIG(MILLISECOND, MAX(u.last_user_update), SYSDATETIME()) AS updated_age_ms
FROM sys.dm_db_index_usage_stats AS u
WHERE u.database_id = DB_ID() AND u.object_id = @object_id;
SELECT SUM(os.leaf_insert_count) AS rows_inserted, SUM(os.leaf_update_count) AS rows_updated,
  SUM(os.leaf_delete_count + os.leaf_ghost_count) AS rows_deleted
FROM sys.dm_db_index_operational_stats(DB_ID(), @object_id, NULL, NULL) AS os
WHERE @object_id IS NOT NULL AND os.index_id < 2;`;

/** (In a database.) When the table's statistics were last updated and rows changed since. */
export const TABLE_STATS_STMT = `${FIND_OBJECT("'U'")}
SELECT DATEDIFF_BIG(MILLISECOND, MAX(sp.last_updated), SYSDATETIME()) AS analyzed_age_ms,
  MAX(sp.modification_counter) AS modifications
FROM sys.stats AS st
CROSS APPLY sys.dm_db_stats_properties(st.object_id, st.stats_id) AS sp
WHERE st.object_id = @object_id;`;

/** Every database: state, file sizes and user sessions in it. */
export const DATABASES_HEALTH_SQL = `SELECT d.name, d.state_desc, d.user_access_desc, d.is_read_only,
  (SELECT SUM(CAST(f.size AS bigint)) * 8192 FROM sys.master_files AS f WHERE f.database_id = d.database_id) AS size_bytes,
  (SELECT COUNT(*) FROM sys.dm_exec_sessions AS s
    WHERE s.database_id = d.database_id AND s.is_user_process = 1 AND s.session_id <> @@SPID) AS connections
FROM sys.databases AS d
ORDER BY d.name`;

/**
 * User tables of every online database the login may use, in one batch the server builds: the
 * names come from sys.databases and are quoted there with QUOTENAME.
 */
export const TABLE_COUNTS_SQL = `DECLARE @sql nvarchar(max) = N'';
SELECT @sql = @sql + CASE WHEN @sql = N'' THEN N'' ELSE N' UNION ALL ' END
  + N'SELECT ' + CAST(database_id AS nvarchar(10)) + N' AS database_id, N' + QUOTENAME(name, '''')
  + N' AS name, COUNT(*) AS tables FROM ' + QUOTENAME(name) + N'.sys.tables WHERE is_ms_shipped = 0'
FROM sys.databases WHERE state = 0 AND HAS_DBACCESS(name) = 1;
IF @sql <> N'' EXEC sys.sp_executesql @sql;`;

/** sys.objects.type and the word a table is listed as. */
export function objectType(type: string | null): string {
  const t = (type ?? '').trim();
  return t === 'V' ? 'view' : 'table';
}

export function readTableInfo(row: Row): TableInfo {
  return {
    database: str(row.database_name) ?? '',
    schema: str(row.schema_name),
    name: str(row.table_name) ?? '',
    type: objectType(str(row.object_type)),
    engine: null,
    // A view without an index has no partitions: no rows and no sizes.
    rows: nn(row.row_count),
    data_bytes: pages(row.data_pages),
    index_bytes: pages(row.index_pages),
    size_bytes: pages(row.total_pages),
  };
}

/** Largest first; a view without storage after every table. */
export function bySize(a: TableInfo, b: TableInfo): number {
  return (b.size_bytes ?? -1) - (a.size_bytes ?? -1);
}

/**
 * A column's type as SQL Server spells it in its scripts: `nvarchar(50)` (sys.columns gives nchar
 * lengths in bytes), `varchar(max)`, `decimal(10,2)`, `datetime2(3)`; alias types by their name.
 */
export function columnType(row: Row): string {
  const name = str(row.type_name) ?? '';
  if (bool(row.is_user_defined)) return name;
  const length = num(row.max_length) ?? 0;
  const precision = num(row.precision) ?? 0;
  const scale = num(row.scale) ?? 0;
  switch (name) {
    case 'varchar':
    case 'char':
    case 'varbinary':
    case 'binary':
      return `${name}(${length === -1 ? 'max' : length})`;
    case 'nvarchar':
    case 'nchar':
      return `${name}(${length === -1 ? 'max' : length / 2})`;
    case 'decimal':
    case 'numeric':
      return `${name}(${precision},${scale})`;
    case 'datetime2':
    case 'datetimeoffset':
    case 'time':
      return `${name}(${scale})`;
    case 'float':
      return precision === 53 ? 'float' : `float(${precision})`;
    default:
      return name;
  }
}

export function readColumn(row: Row): TableColumn {
  const computed = str(row.computed_definition);
  const identity = bool(row.is_identity)
    ? `IDENTITY(${str(row.identity_seed) ?? 1},${str(row.identity_increment) ?? 1})`
    : null;
  return {
    name: str(row.column_name) ?? '',
    type: columnType(row),
    nullable: bool(row.is_nullable),
    default: computed !== null ? `AS ${computed}` : (identity ?? str(row.default_definition)),
    primary: bool(row.is_primary),
    comment: str(row.column_comment),
  };
}

/** Index rows (one per key column) grouped into indexes, in index_id order. */
export function readIndexes(rows: readonly Row[]): TableIndex[] {
  const byId = new Map<number, TableIndex>();
  for (const row of rows) {
    const id = num(row.index_id) ?? 0;
    let index = byId.get(id);
    if (!index) {
      index = {
        name: str(row.index_name) ?? '',
        columns: [],
        unique: bool(row.is_unique),
        primary: bool(row.is_primary_key),
        method: str(row.type_desc),
        size_bytes: pages(row.used_pages),
      };
      byId.set(id, index);
    }
    const column = str(row.column_name);
    if (column !== null) index.columns.push(column);
  }
  return [...byId.values()];
}

/** The table counters of the three reads; a section that could not be read is undefined. */
export function tableCounterValues(
  now: number,
  sizes: Row,
  usage: { scans?: Row | undefined; operations?: Row | undefined } | undefined,
  stats: Row | undefined,
): Partial<Record<TableCounterKey, number | null>> {
  const at = (age: unknown) => {
    const ms = num(age);
    return ms === undefined ? null : now - ms;
  };
  const total = pages(sizes.total_pages);
  const used = pages(sizes.used_pages);
  const values: Partial<Record<TableCounterKey, number | null>> = {
    rows: nn(sizes.row_count),
    data_bytes: pages(sizes.data_pages),
    index_bytes: pages(sizes.index_pages),
    size_bytes: total,
    free_bytes: total === null || used === null ? null : total - used,
    created_at: at(sizes.created_age_ms),
  };
  if (usage) {
    values.seq_scans = nn(usage.scans?.table_scans);
    values.index_scans = nn(usage.scans?.index_scans);
    values.updated_at = at(usage.scans?.updated_age_ms);
    values.rows_inserted = nn(usage.operations?.rows_inserted);
    values.rows_updated = nn(usage.operations?.rows_updated);
    values.rows_deleted = nn(usage.operations?.rows_deleted);
  }
  if (stats) {
    values.last_analyze = at(stats.analyzed_age_ms);
    values.rows_modified_since_analyze = nn(stats.modifications);
  }
  return values;
}

/** Transaction log in use, as a percentage of its size: past these a database needs a log backup. */
export const LOG_USED_PCT = { warning: 80, critical: 95 } as const;

/** A database's state (sys.databases.state_desc) as a health status. */
export function stateStatus(state: string | null): HealthStatus {
  switch (state) {
    case 'ONLINE':
      return 'ok';
    case 'SUSPECT':
    case 'EMERGENCY':
      return 'critical';
    case null:
      return 'unknown';
    default:
      // RESTORING, RECOVERING, RECOVERY_PENDING, OFFLINE, OFFLINE_SECONDARY, COPYING.
      return 'warning';
  }
}

/** One database's health from its row, its log use and its table count (when read). */
export function readDatabaseHealth(
  row: Row,
  logUsedPct: number | undefined,
  tables: number | undefined,
): DatabaseHealth {
  const state = str(row.state_desc);
  const logStatus = logUsedPct === undefined ? 'ok' : levelAbove(logUsedPct, LOG_USED_PCT);
  return {
    name: str(row.name) ?? '',
    status: worstStatus([stateStatus(state), logStatus]),
    size_bytes: nn(row.size_bytes),
    connections: nn(row.connections),
    cache_hit_ratio: null,
    commits: null,
    rollbacks: null,
    deadlocks: null,
    temp_bytes: null,
    transaction_id_age: null,
    tables: tables ?? null,
  };
}
