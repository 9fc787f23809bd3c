import type { TableColumn, TableIndex, TableInfo } from '@flightdeck/schemas';
import { num, str } from '../pollers/rates';

/**
 * The SQL of the PostgreSQL inspections (PostgreSQL 10 and later) and the readers of their rows.
 * Names from a request only ever travel as bind parameters; a table is then addressed by its oid.
 * Counters are cast to float8 so the driver hands numbers rather than the strings of bigint.
 */

type Row = Record<string, unknown>;

const nn = (v: unknown): number | null => num(v) ?? null;

/** How the inspections' sessions show in pg_stat_activity. */
export const PG_INSPECTOR_APPLICATION_NAME = 'flightdeck-inspector';

/** Every statement of an inspection runs in a read-only transaction. */
export const PG_READ_ONLY_OPTIONS = '-c default_transaction_read_only=on';

export const VERSION_SQL = `SELECT current_setting('server_version_num')::int AS version_num`;

/** pg_class.relkind of what `database_tables` lists, and the word each is listed as. */
export const RELATION_TYPES: Readonly<Record<string, string>> = {
  r: 'table',
  p: 'partitioned_table',
  m: 'materialized_view',
  v: 'view',
  f: 'foreign_table',
};
const KINDS = `('r', 'p', 'm', 'v', 'f')`;
/** System schemas, TOAST and other sessions' temporary schemas. */
const USER_SCHEMAS = `n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname !~ '^pg_(toast|temp_)'`;

/**
 * Sizes of a relation as the size functions tell them, partitioned tables as the sum of their
 * leaves (12+). The size functions wait for a lock an ALTER or a VACUUM FULL holds, up to the
 * connection's lock_timeout: {@link tablesSql} with `estimated` then reads the planner's page
 * counts instead, which take no lock.
 */
function sizeExpressions(versionNum: number, estimated: boolean): { data: string; index: string } {
  if (estimated) {
    const bs = `current_setting('block_size')::float8`;
    return {
      data: `CASE WHEN c.relkind IN ('r', 'm') THEN (c.relpages + coalesce(t.relpages, 0))::float8 * ${bs} END`,
      index: `CASE WHEN c.relkind IN ('r', 'm') THEN (SELECT coalesce(sum(i.relpages), 0)::float8 * ${bs}
        FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid WHERE x.indrelid = c.oid) END`,
    };
  }
  const leaves = (fn: string) =>
    versionNum >= 120000
      ? `WHEN c.relkind = 'p' THEN (SELECT sum(${fn}(l.relid))::float8 FROM pg_partition_tree(c.oid) l WHERE l.isleaf)`
      : '';
  return {
    data: `CASE WHEN c.relkind IN ('r', 'm') THEN pg_table_size(c.oid)::float8 ${leaves('pg_table_size')} END`,
    index: `CASE WHEN c.relkind IN ('r', 'm') THEN pg_indexes_size(c.oid)::float8 ${leaves('pg_indexes_size')} END`,
  };
}

/** Tables, views and the like of the connected database, largest first ($1 = how many). */
export function tablesSql(versionNum: number, estimated: boolean): string {
  const size = sizeExpressions(versionNum, estimated);
  const partitionRows =
    versionNum >= 120000
      ? `WHEN c.relkind = 'p' THEN (SELECT sum(lc.reltuples)::float8 FROM pg_partition_tree(c.oid) l
          JOIN pg_class lc ON lc.oid = l.relid WHERE l.isleaf AND lc.reltuples >= 0)`
      : '';
  return `SELECT current_database() AS database, n.nspname AS schema, c.relname AS name, c.relkind::text AS kind,
  s.data_bytes, s.index_bytes, s.data_bytes + s.index_bytes AS size_bytes,
  CASE WHEN c.relkind IN ('r', 'm') THEN c.reltuples::float8 ${partitionRows} END AS rows
FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace
LEFT JOIN pg_class t ON t.oid = c.reltoastrelid
CROSS JOIN LATERAL (SELECT ${size.data} AS data_bytes, ${size.index} AS index_bytes) s
WHERE c.relkind IN ${KINDS} AND ${USER_SCHEMAS}
ORDER BY s.data_bytes + s.index_bytes DESC NULLS LAST, n.nspname, c.relname
LIMIT $1`;
}

export function readTable(row: Row): TableInfo {
  const rows = nn(row.rows);
  const data = nn(row.data_bytes);
  const index = nn(row.index_bytes);
  return {
    database: str(row.database) ?? '',
    schema: str(row.schema),
    name: str(row.name) ?? '',
    type: RELATION_TYPES[str(row.kind) ?? ''] ?? 'table',
    engine: null,
    // reltuples is -1 for a table never vacuumed or analysed (PostgreSQL 14+).
    rows: rows === null || rows < 0 ? null : rows,
    data_bytes: data,
    index_bytes: index,
    size_bytes: data === null || index === null ? null : data + index,
  };
}

/**
 * A relation by schema and name ($1, $2); a null schema finds it as the search path would. Only
 * the kinds `database_tables` lists.
 */
export const FIND_TABLE_SQL = `SELECT c.oid::text AS oid, c.relkind::text AS kind, n.nspname AS schema
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE c.relname = $2 AND c.relkind IN ${KINDS}
  AND CASE WHEN $1::text IS NULL THEN pg_table_is_visible(c.oid) ELSE n.nspname = $1::text END
LIMIT 1`;

/** Columns of a relation ($1 = oid) in order, with the default or generation expression. */
export function columnsSql(versionNum: number): string {
  const generated =
    versionNum >= 120000
      ? `WHEN a.attgenerated = 's' THEN 'GENERATED ALWAYS AS (' || pg_get_expr(d.adbin, d.adrelid) || ') STORED'`
      : '';
  return `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, NOT a.attnotnull AS nullable,
  CASE WHEN a.attidentity = 'a' THEN 'GENERATED ALWAYS AS IDENTITY'
    WHEN a.attidentity = 'd' THEN 'GENERATED BY DEFAULT AS IDENTITY'
    ${generated}
    ELSE pg_get_expr(d.adbin, d.adrelid) END AS "default",
  EXISTS (SELECT 1 FROM pg_constraint k
    WHERE k.conrelid = a.attrelid AND k.contype = 'p' AND a.attnum = ANY (k.conkey)) AS "primary",
  col_description(a.attrelid, a.attnum) AS comment
FROM pg_attribute a
LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
WHERE a.attrelid = $1::oid AND a.attnum > 0 AND NOT a.attisdropped
ORDER BY a.attnum`;
}

export function readColumn(row: Row): TableColumn {
  return {
    name: str(row.name) ?? '',
    type: str(row.type) ?? '',
    nullable: row.nullable === true,
    default: str(row.default),
    primary: row.primary === true,
    comment: str(row.comment),
  };
}

/** Indexes of a relation ($1 = oid): key and included columns as pg_get_indexdef prints them. */
export const INDEXES_SQL = `SELECT i.relname AS name, x.indisunique AS "unique", x.indisprimary AS "primary",
  am.amname AS method, pg_relation_size(i.oid)::float8 AS size_bytes,
  ARRAY(SELECT pg_get_indexdef(x.indexrelid, k, true) FROM generate_series(1, x.indnatts) k ORDER BY k) AS columns
FROM pg_index x
JOIN pg_class i ON i.oid = x.indexrelid
JOIN pg_am am ON am.oid = i.relam
WHERE x.indrelid = $1::oid
ORDER BY x.indisprimary DESC, i.relname`;

export function readIndex(row: Row): TableIndex {
  return {
    name: str(row.name) ?? '',
    columns: Array.isArray(row.columns) ? row.columns.map((c) => str(c) ?? '') : [],
    unique: row.unique === true,
    primary: row.primary === true,
    method: str(row.method),
    size_bytes: nn(row.size_bytes),
  };
}

const ms = (column: string) => `(extract(epoch FROM s.${column}) * 1000)::float8 AS ${column}`;

/**
 * Statistics of a relation ($1 = oid): sizes (relations with storage), the statistics
 * collector's scan, row and maintenance counters and the block I/O counters. `has_stats` is false
 * for what the collector does not track (views).
 */
export const COUNTERS_SQL = `SELECT c.relkind::text AS kind, s.relid IS NOT NULL AS has_stats,
  CASE WHEN c.relkind IN ('r', 'm') THEN c.reltuples::float8 END AS rows,
  CASE WHEN c.relkind IN ('r', 'm') THEN pg_table_size(c.oid)::float8 END AS data_bytes,
  CASE WHEN c.relkind IN ('r', 'm') THEN pg_indexes_size(c.oid)::float8 END AS index_bytes,
  s.seq_scan::float8 AS seq_scans, s.seq_tup_read::float8 AS seq_rows_read,
  s.idx_scan::float8 AS index_scans, s.idx_tup_fetch::float8 AS index_rows_fetched,
  s.n_tup_ins::float8 AS rows_inserted, s.n_tup_upd::float8 AS rows_updated,
  s.n_tup_hot_upd::float8 AS rows_hot_updated, s.n_tup_del::float8 AS rows_deleted,
  s.n_live_tup::float8 AS live_rows, s.n_dead_tup::float8 AS dead_rows,
  s.n_mod_since_analyze::float8 AS rows_modified_since_analyze,
  s.vacuum_count::float8 AS vacuum_count, s.autovacuum_count::float8 AS autovacuum_count,
  s.analyze_count::float8 AS analyze_count, s.autoanalyze_count::float8 AS autoanalyze_count,
  ${ms('last_vacuum')}, ${ms('last_autovacuum')}, ${ms('last_analyze')}, ${ms('last_autoanalyze')},
  io.heap_blks_read::float8 AS heap_blocks_read, io.heap_blks_hit::float8 AS heap_blocks_hit
FROM pg_class c
LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid
LEFT JOIN pg_statio_user_tables io ON io.relid = c.oid
WHERE c.oid = $1::oid`;

/** The statistics collector's counters, by their `TABLE_COUNTERS` key. */
export const PG_STAT_COUNTERS = [
  'seq_scans',
  'seq_rows_read',
  'index_scans',
  'index_rows_fetched',
  'rows_inserted',
  'rows_updated',
  'rows_hot_updated',
  'rows_deleted',
  'live_rows',
  'dead_rows',
  'rows_modified_since_analyze',
  'vacuum_count',
  'autovacuum_count',
  'analyze_count',
  'autoanalyze_count',
  'last_vacuum',
  'last_autovacuum',
  'last_analyze',
  'last_autoanalyze',
  'heap_blocks_read',
  'heap_blocks_hit',
] as const;

/**
 * Every database but the templates, with its statistics. The size needs the CONNECT privilege;
 * `stats_s` is how long its counters have counted (since their reset or, never reset, since the
 * server started, which makes rates err on the high side after a clean restart).
 */
export const HEALTH_DATABASES_SQL = `SELECT d.datname AS name, d.datname = current_database() AS current,
  CASE WHEN has_database_privilege(d.oid, 'CONNECT') THEN pg_database_size(d.oid)::float8 END AS size_bytes,
  s.numbackends, s.blks_hit::float8 AS blks_hit, s.blks_read::float8 AS blks_read,
  s.xact_commit::float8 AS commits, s.xact_rollback::float8 AS rollbacks, s.deadlocks::float8 AS deadlocks,
  s.temp_bytes::float8 AS temp_bytes, age(d.datfrozenxid)::float8 AS xid_age,
  extract(epoch FROM now() - coalesce(s.stats_reset, pg_postmaster_start_time()))::float8 AS stats_s
FROM pg_database d LEFT JOIN pg_stat_database s ON s.datid = d.oid
WHERE NOT d.datistemplate
ORDER BY d.datname`;

export interface PgHealthDatabaseRow {
  name: string;
  current: boolean;
  size_bytes: number | null;
  numbackends: number | null;
  blks_hit: number;
  blks_read: number;
  commits: number | null;
  rollbacks: number | null;
  deadlocks: number;
  temp_bytes: number;
  xid_age: number | null;
  stats_s: number;
}

export function readHealthDatabase(row: Row): PgHealthDatabaseRow {
  return {
    name: str(row.name) ?? '',
    current: row.current === true,
    size_bytes: nn(row.size_bytes),
    numbackends: nn(row.numbackends),
    blks_hit: num(row.blks_hit) ?? 0,
    blks_read: num(row.blks_read) ?? 0,
    commits: nn(row.commits),
    rollbacks: nn(row.rollbacks),
    deadlocks: num(row.deadlocks) ?? 0,
    temp_bytes: num(row.temp_bytes) ?? 0,
    xid_age: nn(row.xid_age),
    stats_s: num(row.stats_s) ?? 0,
  };
}

/** Tables of the connected database and their live and dead rows. */
export const CURRENT_TABLES_SQL = `SELECT
  (SELECT count(*)::int FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE c.relkind IN ('r', 'p') AND ${USER_SCHEMAS}) AS tables,
  (SELECT coalesce(sum(n_dead_tup), 0)::float8 FROM pg_stat_user_tables) AS dead_rows,
  (SELECT coalesce(sum(n_live_tup + n_dead_tup), 0)::float8 FROM pg_stat_user_tables) AS all_rows`;
