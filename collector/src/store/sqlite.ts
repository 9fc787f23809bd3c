import Database from 'better-sqlite3';
import { type ComponentHealth, deadLetterRow, type MetricStore } from './contract';
import { createSqliteReader } from './sqlite-reader';
import { migrateSampleTables, RAW_SCHEMA, RawSamples } from './sqlite-segments';
import { FIVE_MIN, HOUR, validateBatches } from './sqlite-shared';
import { createSqliteWriter } from './sqlite-writer';

// Shared with questdb.ts.
export {
  chartData,
  DEFAULT_MAX_POINTS,
  fieldNamer,
  type Grid,
  labelsMatch,
  MAX_BUCKETS,
  metricsOf,
  parseCanonicalLabels,
  planGrid,
  type SeriesIdentity,
  validateBatches,
} from './sqlite-shared';

const DAY = 86_400_000;
/**
 * `PRAGMA user_version` of the file layout: 0 is a new file or the first layout (a row per sample
 * in `samples` and `samples_recent`), migrated on open; 1 is samples_log and runs of segments.
 */
const FILE_FORMAT = 1;

export interface SqliteStoreOptions {
  /**
   * Database file; created with its tables when absent. One writing process per file; other
   * processes (the stand-alone api) may open it to read and see each write once it is committed.
   */
  path: string;
  /** When set, `retention(retentionDays)` runs at open and every hour until close. */
  retentionDays?: number;
  /** Told when the hourly retention fails (default: a warning on stderr); the next hour tries again. */
  onRetentionError?: (err: unknown) => void;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS series (
  id INTEGER PRIMARY KEY,
  tenant TEXT NOT NULL,
  host TEXT NOT NULL,
  service TEXT NOT NULL DEFAULT '',
  metric TEXT NOT NULL,
  labels TEXT NOT NULL DEFAULT '',
  step_ms INTEGER,
  rolled_5m_until INTEGER,
  rolled_1h_until INTEGER,
  UNIQUE (tenant, host, service, metric, labels)
);
CREATE TABLE IF NOT EXISTS rollup_5m (
  series_id INTEGER NOT NULL, bucket INTEGER NOT NULL,
  min REAL NOT NULL, max REAL NOT NULL, avg REAL NOT NULL, count INTEGER NOT NULL,
  PRIMARY KEY (series_id, bucket)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS rollup_1h (
  series_id INTEGER NOT NULL, bucket INTEGER NOT NULL,
  min REAL NOT NULL, max REAL NOT NULL, avg REAL NOT NULL, count INTEGER NOT NULL,
  PRIMARY KEY (series_id, bucket)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS dead_letters (
  id INTEGER PRIMARY KEY,
  at INTEGER NOT NULL,
  reason TEXT NOT NULL,
  payload TEXT NOT NULL,
  truncated INTEGER NOT NULL DEFAULT 0
);
${RAW_SCHEMA}`;

/** Creates the tables of a new file, or converts a file of the first layout, once. */
function prepareFile(db: Database.Database, path: string): void {
  const version = () => db.pragma('user_version', { simple: true }) as number;
  const check = () => {
    const v = version();
    if (v > FILE_FORMAT) {
      throw new Error(`${path}: metric store layout ${v} is newer than this version reads (${FILE_FORMAT})`);
    }
    return v;
  };
  if (check() === FILE_FORMAT) return;
  db.transaction(() => {
    if (check() === FILE_FORMAT) return; // another process got there first
    db.exec(SCHEMA);
    migrateSampleTables(db);
    db.pragma(`user_version = ${FILE_FORMAT}`);
  }).immediate();
}

/**
 * The embedded metric store (DESIGN section 4): raw samples (a log row per write call, checkpointed
 * into runs of per-series segments, see sqlite-segments.ts) plus 5-min and 1-h rollups filled as
 * buckets close, from running aggregates kept in memory (sqlite-writer.ts); queries read the
 * rollups and the raw samples (sqlite-reader.ts).
 */
export function createSqliteStore(options: SqliteStoreOptions): MetricStore {
  const db = new Database(options.path);
  // Takes effect only when the file is created.
  db.pragma('page_size = 8192');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('temp_store = MEMORY');
  db.pragma('cache_size = -65536');
  // Checkpoint (and fsync) every ~80 MB of WAL rather than every 8 MB.
  db.pragma('wal_autocheckpoint = 10000');
  prepareFile(db, options.path);
  const raw = new RawSamples(db);
  const writer = createSqliteWriter(db, raw);
  const reader = createSqliteReader(db, raw);

  const stmt = {
    insertDeadLetter: db.prepare(
      'INSERT INTO dead_letters (at, reason, payload, truncated) VALUES (?, ?, ?, ?)',
    ),
    deleteDeadLetters: db.prepare('DELETE FROM dead_letters WHERE at < ?'),
    deadLetters: db.prepare(
      'SELECT at, reason, payload, truncated FROM dead_letters ORDER BY id DESC LIMIT ?',
    ),
    seriesIds: db.prepare('SELECT id FROM series').pluck(),
    delete5m: db.prepare('DELETE FROM rollup_5m WHERE series_id = ? AND bucket <= ?'),
    delete1h: db.prepare('DELETE FROM rollup_1h WHERE series_id = ? AND bucket <= ?'),
    ping: db.prepare('SELECT 1'),
  };

  const checkpointTx = db.transaction(() => {
    raw.sync();
    if (raw.view.samples > 0) raw.checkpoint();
  });

  let closed = false;
  let retentionTimer: NodeJS.Timeout | undefined;

  const store: MetricStore = {
    kind: 'sqlite',

    async write(batches, options) {
      const valid = options?.validated ? batches : validateBatches(batches);
      return { batches: valid.length, samples: writer.write(valid) };
    },

    async query(q) {
      return reader.query(q);
    },

    async latest(selector) {
      return reader.latest(selector);
    },

    async retention(days) {
      if (!Number.isFinite(days) || days < 0) {
        throw new RangeError(`retention days must be >= 0, got ${days}`);
      }
      const cutoff = Date.now() - days * DAY;
      const run = db.transaction(() => {
        raw.sync();
        const deleted = raw.retention(cutoff);
        for (const id of stmt.seriesIds.all() as number[]) {
          // A rollup bucket goes once it lies wholly before the cutoff.
          stmt.delete5m.run(id, cutoff - FIVE_MIN);
          stmt.delete1h.run(id, cutoff - HOUR);
        }
        stmt.deleteDeadLetters.run(cutoff);
        return deleted;
      });
      try {
        return { deleted: run.immediate() };
      } catch (err) {
        // The transaction rolled back: read the log and the runs afresh.
        if (db.open) raw.view.reset(-1);
        throw err;
      }
    },

    async deadLetter(entry) {
      const row = deadLetterRow(entry);
      stmt.insertDeadLetter.run(row.at, row.reason, row.payload, row.truncated ? 1 : 0);
    },

    async deadLetters(options = {}) {
      const limit = Math.max(1, Math.min(10_000, Math.floor(options.limit ?? 100)));
      const rows = stmt.deadLetters.all(limit) as {
        at: number;
        reason: string;
        payload: string;
        truncated: number;
      }[];
      return rows.map((r) => ({
        at: r.at,
        reason: r.reason,
        payload: r.payload,
        truncated: r.truncated === 1,
      }));
    },

    async health(): Promise<ComponentHealth> {
      try {
        stmt.ping.get();
        return { state: 'ok' };
      } catch (err) {
        return { state: 'down', detail: err instanceof Error ? err.message : String(err) };
      }
    },

    async close() {
      if (closed) return;
      closed = true;
      clearInterval(retentionTimer);
      try {
        // Only the writing store checkpoints: a reader leaves the log to the writer.
        if (writer.wrote) checkpointTx.immediate();
      } finally {
        db.close();
      }
    },
  };

  // Takes in the log left by the last run (or by the writer, for a reader) before the first call.
  db.transaction(() => raw.sync())();

  if (options.retentionDays !== undefined) {
    const days = options.retentionDays;
    const onError =
      options.onRetentionError ??
      ((err: unknown) =>
        process.emitWarning(
          `metric store retention of ${options.path} failed: ${err instanceof Error ? err.message : String(err)}`,
        ));
    const run = () => void store.retention(days).catch(onError);
    run();
    retentionTimer = setInterval(run, HOUR);
    retentionTimer.unref();
  }
  return store;
}
