import type Database from 'better-sqlite3';
import { decodeSegment, type LogBlob, type Points, SegmentArena } from './sqlite-codec';
import { LogTails, type Tail } from './sqlite-tails';

/** No segment spans two of these windows, so a range read starts at most one window early. */
export const SEGMENT_WINDOW_MS = 3_600_000;
/** This many checkpoint runs are merged into one larger run. */
const RUNS_PER_MERGE = 8;
/** Series read at once when runs are merged (bounds the memory of a merge). */
const MERGE_SERIES = 1_000;
/** Segment rows per INSERT: one statement for 32 rows costs far less than 32 statements. */
const INSERT_ROWS = 32;

/*
 * Raw samples live in two places:
 * - samples_log: one row per write call (its samples as one blob), appended in the write's
 *   transaction, so a write that resolved survives a crash; every store on the file holds what the
 *   log holds as per-series tails (sqlite-tails.ts);
 * - segments: a series' points of a stretch of time as one blob (sqlite-codec.ts), grouped in runs.
 *   A checkpoint writes the tails as one new run, in series order at the end of the b-tree, and
 *   empties the log, in one transaction; every RUNS_PER_MERGE checkpoint runs (level 0) are merged
 *   into one run of level 1, which holds fewer and larger segments.
 * Invariants: a (series, ts) is stored at most once in segments (a tail point that meets a stored
 * point is merged with the segments of its window, the tail's value winning); no segment crosses
 * a SEGMENT_WINDOW_MS boundary; a series' segments, in all runs, do not interleave; a run's min_ts
 * and max_ts bound its segments, so a read looks only into the runs that overlap its range.
 */
export const RAW_SCHEMA = `
CREATE TABLE IF NOT EXISTS runs (
  id INTEGER PRIMARY KEY, level INTEGER NOT NULL,
  min_ts INTEGER NOT NULL, max_ts INTEGER NOT NULL, samples INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS segments (
  run INTEGER NOT NULL, series_id INTEGER NOT NULL, start_ts INTEGER NOT NULL, end_ts INTEGER NOT NULL,
  count INTEGER NOT NULL, data BLOB NOT NULL,
  PRIMARY KEY (run, series_id, start_ts)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS samples_log (id INTEGER PRIMARY KEY AUTOINCREMENT, data BLOB NOT NULL);
-- generation: bumped by every checkpoint, so other stores on the file know to read the log afresh.
CREATE TABLE IF NOT EXISTS store_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
INSERT OR IGNORE INTO store_meta (key, value) VALUES ('generation', 0);
`;

interface Run {
  id: number;
  level: number;
  minTs: number;
  maxTs: number;
  samples: number;
}

const windowOf = (ts: number) => ts - (ts % SEGMENT_WINDOW_MS);

/** Raw sample storage of the SQLite metric store: the log, the tails and the segments. */
export class RawSamples {
  readonly view = new LogTails();
  readonly arena = new SegmentArena();
  private readonly stmt;
  private readonly db: Database.Database;
  private readonly inserts: Database.Statement[] = [];
  /** The runs table, read again after the file changed shape (a new generation). */
  private runList: Run[] | null = null;

  constructor(db: Database.Database) {
    this.db = db;
    const inRuns = 'run IN (SELECT value FROM json_each(?))';
    this.stmt = {
      generation: db.prepare("SELECT value FROM store_meta WHERE key = 'generation'").pluck(),
      bump: db
        .prepare("UPDATE store_meta SET value = value + 1 WHERE key = 'generation' RETURNING value")
        .pluck(),
      logAfter: db.prepare('SELECT id, data FROM samples_log WHERE id > ? ORDER BY id').raw(),
      appendLog: db.prepare('INSERT INTO samples_log (data) VALUES (?)'),
      clearLog: db.prepare('DELETE FROM samples_log WHERE id <= ?'),
      runs: db.prepare('SELECT id, level, min_ts AS minTs, max_ts AS maxTs, samples FROM runs ORDER BY id'),
      insertRun: db.prepare('INSERT INTO runs (id, level, min_ts, max_ts, samples) VALUES (?, ?, ?, ?, ?)'),
      updateRun: db.prepare('UPDATE runs SET min_ts = ?, samples = ? WHERE id = ?'),
      deleteRun: db.prepare('DELETE FROM runs WHERE id = ?'),
      insert: db.prepare(
        'INSERT INTO segments (run, series_id, start_ts, end_ts, count, data) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      range: db
        .prepare(
          `SELECT data FROM segments WHERE ${inRuns} AND series_id = ? AND start_ts >= ? AND start_ts < ? AND end_ts >= ?`,
        )
        .pluck(),
      window: db.prepare(
        `SELECT run, start_ts, count, data FROM segments WHERE ${inRuns} AND series_id = ? AND start_ts >= ? AND start_ts < ?`,
      ),
      overlaps: db
        .prepare(
          `SELECT 1 FROM segments WHERE ${inRuns} AND series_id = ? AND start_ts >= ? AND start_ts < ? AND end_ts >= ? LIMIT 1`,
        )
        .pluck(),
      lastOfRun: db
        .prepare(
          'SELECT end_ts, data FROM segments WHERE run = ? AND series_id = ? ORDER BY start_ts DESC LIMIT 1',
        )
        .raw(),
      deleteOne: db.prepare('DELETE FROM segments WHERE run = ? AND series_id = ? AND start_ts = ?'),
      ofSeries: db.prepare(
        `SELECT series_id, data FROM segments WHERE ${inRuns} AND series_id >= ? AND series_id < ? ORDER BY series_id`,
      ),
      maxSeries: db.prepare('SELECT max(series_id) FROM segments WHERE run = ?').pluck(),
      deleteRunSegments: db.prepare('DELETE FROM segments WHERE run = ?'),
      deleteOld: db.prepare('DELETE FROM segments WHERE run = ? AND end_ts < ? RETURNING count').pluck(),
      straddling: db.prepare(
        'SELECT series_id, start_ts, data FROM segments WHERE run = ? AND start_ts < ? AND end_ts >= ?',
      ),
    };
  }

  /**
   * Brings the tails up to the file: the log rows written since the last call (by this store or
   * another), or the whole log after a checkpoint made elsewhere. Runs first in every transaction.
   */
  sync(): void {
    const generation = this.stmt.generation.get() as number;
    if (generation !== this.view.generation) {
      this.view.reset(generation);
      this.runList = null;
    }
    for (const [id, data] of this.stmt.logAfter.iterate(this.view.lastRowid) as Iterable<[number, Buffer]>) {
      this.view.apply(id, data);
    }
  }

  /** Appends a write call's log row and takes its samples in. */
  appendLog(log: LogBlob): void {
    const { lastInsertRowid } = this.stmt.appendLog.run(log.blob);
    this.view.add(Number(lastInsertRowid), log);
  }

  /** Newest ts stored for the series (-Infinity when none). */
  lastTs(id: number): number {
    this.view.materialize();
    return Math.max(this.view.tail(id).last, this.storedLast(id)?.[0] ?? Number.NEGATIVE_INFINITY);
  }

  /** Writes every tail as a new run and empties the log, in the caller's transaction. */
  checkpoint(): void {
    // Series whose points were put into tails (by a read) are written from the tail, the others
    // straight from the sorted log; either way in series order, so the run's rows go to the end of
    // the b-tree one after the other.
    const held: number[] = [];
    for (const [id, tail] of this.view.tails) if (tail.length > 0) held.push(id);
    held.sort((a, b) => a - b);
    const runs = this.runs();
    const writer = new RunWriter(this, (runs.at(-1)?.id ?? 0) + 1, 0);
    let h = 0;
    const writeHeld = (below: number) => {
      for (; h < held.length && held[h]! < below; h++) {
        const tail = this.view.tails.get(held[h]!)!;
        this.writePoints(writer, held[h]!, tail, tail.ts, tail.values, 0, tail.length, runs);
        tail.clear();
      }
    };
    this.view.drain((id, ts, values, from, to) => {
      writeHeld(id);
      const tail = this.view.tail(id);
      let ascending = true;
      for (let i = from + 1; ascending && i < to; i++) ascending = ts[i]! > ts[i - 1]!;
      if (tail.length === 0 && ascending) {
        this.writePoints(writer, id, tail, ts, values, from, to, runs);
        return;
      }
      tail.putRun(ts, values, from, to);
      if (held[h] === id) h++;
      this.writePoints(writer, id, tail, tail.ts, tail.values, 0, tail.length, runs);
      tail.clear();
    });
    writeHeld(Number.POSITIVE_INFINITY);
    writer.finish();
    this.stmt.clearLog.run(this.view.lastRowid);
    this.view.samples = 0;
    this.runList = null;
    const level0 = this.runs().filter((r) => r.level === 0);
    if (level0.length >= RUNS_PER_MERGE) this.merge(level0, 1);
    this.view.generation = this.stmt.bump.get() as number;
  }

  /**
   * Calls `visit` for each point of the series in [from, to), in ts order: segment points, with the
   * tail's points among them (the tail's value where both have a ts).
   */
  read(id: number, from: number, to: number, visit: (ts: number, value: number) => void): void {
    if (from >= to) return;
    this.view.materialize();
    const tail = this.view.tails.get(id);
    let j = tail ? tail.lowerBound(from) : 0;
    const jEnd = tail ? tail.lowerBound(to) : 0;
    const lo = windowOf(from);
    const runs = this.overlapping(lo, to);
    const segments = runs
      ? (this.stmt.range.all(runs, id, lo, to, from) as Buffer[])
          .map(decodeSegment)
          .sort((a, b) => a.ts[0]! - b.ts[0]!)
      : [];
    for (const { ts, values } of segments) {
      for (let k = 0; k < ts.length; k++) {
        const t = ts[k]!;
        if (t < from) continue;
        if (t >= to) break;
        while (j < jEnd && tail!.ts[j]! < t) {
          visit(tail!.ts[j]!, tail!.values[j]!);
          j++;
        }
        if (j < jEnd && tail!.ts[j] === t) {
          visit(t, tail!.values[j]!);
          j++;
        } else visit(t, values[k]!);
      }
    }
    for (; j < jEnd; j++) visit(tail!.ts[j]!, tail!.values[j]!);
  }

  /** The newest point of the series, or undefined when it has none. */
  latest(id: number): [number, number] | undefined {
    this.view.materialize();
    const tail = this.view.tails.get(id);
    const stored = this.storedLast(id);
    if (tail && tail.length > 0 && (!stored || tail.last >= stored[0]))
      return [tail.last, tail.values[tail.length - 1]!];
    if (!stored) return undefined;
    const i = tail ? tail.lowerBound(stored[0]) : 0;
    return tail && i < tail.length && tail.ts[i] === stored[0] ? [stored[0], tail.values[i]!] : stored;
  }

  /**
   * Deletes the points older than `cutoff` (checkpointing first, so all are in segments): runs
   * wholly older go at once, segments wholly older go, a segment across the cutoff is cut. Returns
   * how many points went.
   */
  retention(cutoff: number): number {
    this.checkpoint();
    let deleted = 0;
    for (const run of this.runs()) {
      if (run.minTs >= cutoff) continue;
      let gone = 0;
      if (run.maxTs < cutoff) {
        this.stmt.deleteRunSegments.run(run.id);
        gone = run.samples;
      } else {
        for (const count of this.stmt.deleteOld.all(run.id, cutoff) as number[]) gone += count;
        const cut = this.stmt.straddling.all(run.id, cutoff, cutoff) as {
          series_id: number;
          start_ts: number;
          data: Buffer;
        }[];
        for (const seg of cut) {
          const { ts, values } = decodeSegment(seg.data);
          let k = 0;
          while (ts[k]! < cutoff) k++;
          gone += k;
          this.stmt.deleteOne.run(run.id, seg.series_id, seg.start_ts);
          this.insertSegment(run.id, seg.series_id, ts, values, k, ts.length);
        }
      }
      deleted += gone;
      this.shrinkRun(run, gone, cutoff);
    }
    for (const tail of this.view.tails.values()) tail.segEnd = undefined;
    this.runList = null;
    return deleted;
  }

  /** Writes one segment row (points [i, j), within one window). */
  insertSegment(run: number, id: number, ts: Float64Array, values: Float64Array, i: number, j: number): void {
    this.stmt.insert.run(run, id, ts[i]!, ts[j - 1]!, j - i, this.arena.encode(ts, values, i, j));
    this.arena.reset();
  }

  /** Writes `rows` segment rows of 6 values each (blobs from `arena`, which is then reset). */
  insertSegments(values: unknown[], rows: number): void {
    let s = this.inserts[rows];
    if (!s) {
      s = this.db.prepare(
        `INSERT INTO segments (run, series_id, start_ts, end_ts, count, data) VALUES ${Array(rows).fill('(?, ?, ?, ?, ?, ?)').join(', ')}`,
      );
      this.inserts[rows] = s;
    }
    s.run(values.length === rows * 6 ? values : values.slice(0, rows * 6));
    this.arena.reset();
  }

  insertRun(run: Run): void {
    this.stmt.insertRun.run(run.id, run.level, run.minTs, run.maxTs, run.samples);
  }

  private runs(): Run[] {
    this.runList ??= this.stmt.runs.all() as Run[];
    return this.runList;
  }

  /** Ids of the runs that may hold points in [from, to), as JSON for `json_each`; null when none. */
  private overlapping(from: number, to: number, except = -1): string | null {
    let ids = '';
    for (const r of this.runs())
      if (r.minTs < to && r.maxTs >= from && r.id !== except) ids += ids ? `,${r.id}` : r.id;
    return ids ? `[${ids}]` : null;
  }

  /** The newest stored point of the series: runs are searched newest-ending first. */
  private storedLast(id: number): [number, number] | undefined {
    let best: [number, number] | undefined;
    const runs = [...this.runs()].sort((a, b) => b.maxTs - a.maxTs);
    for (const run of runs) {
      if (best && run.maxTs <= best[0]) break;
      const row = this.stmt.lastOfRun.get(run.id, id) as [number, Buffer] | undefined;
      if (row && (!best || row[0] > best[0])) {
        const { ts, values } = decodeSegment(row[1]);
        best = [ts[ts.length - 1]!, values[values.length - 1]!];
      }
    }
    return best;
  }

  /**
   * Sorted points [from, to) of a series into the new run, window by window; a window whose stored
   * points they meet is merged. `tail` keeps where the series' stored points end.
   */
  private writePoints(
    writer: RunWriter,
    id: number,
    tail: Tail,
    ts: Float64Array,
    values: Float64Array,
    from: number,
    to: number,
    runs: readonly Run[],
  ): void {
    let i = from;
    while (i < to) {
      const window = windowOf(ts[i]!);
      let j = i + 1;
      while (j < to && ts[j]! < window + SEGMENT_WINDOW_MS) j++;
      if (this.meetsStored(id, tail, window, ts[i]!)) this.mergeWindow(writer, id, window, ts, values, i, j);
      else writer.add(id, ts, values, i, j);
      i = j;
    }
    // Where the series' stored points now end, known without a read unless older runs end later.
    let end = Math.max(tail.segEnd ?? Number.NEGATIVE_INFINITY, ts[to - 1]!);
    if (tail.segEnd === undefined && runs.some((r) => r.maxTs > end))
      end = Math.max(end, this.storedLast(id)?.[0] ?? end);
    tail.segEnd = end;
  }

  /** True when the window holds stored points of the series at or after `first`. */
  private meetsStored(id: number, tail: Tail, window: number, first: number): boolean {
    if (tail.segEnd !== undefined) {
      if (first > tail.segEnd) return false;
    }
    const runs = this.overlapping(first, window + SEGMENT_WINDOW_MS);
    return (
      runs !== null &&
      this.stmt.overlaps.get(runs, id, window, window + SEGMENT_WINDOW_MS, first) !== undefined
    );
  }

  /** The window's stored segments of the series and points [i, j), merged into the new run; the new points win. */
  private mergeWindow(
    writer: RunWriter,
    id: number,
    window: number,
    ts: Float64Array,
    values: Float64Array,
    i: number,
    j: number,
  ) {
    const end = window + SEGMENT_WINDOW_MS;
    const runs = this.overlapping(window, end, writer.run.id);
    const rows = runs
      ? (this.stmt.window.all(runs, id, window, end) as {
          run: number;
          start_ts: number;
          count: number;
          data: Buffer;
        }[])
      : [];
    const old = rows.map((r) => decodeSegment(r.data)).sort((a, b) => a.ts[0]! - b.ts[0]!);
    const merged = mergePoints(old, ts, values, i, j);
    for (const r of rows) {
      this.stmt.deleteOne.run(r.run, id, r.start_ts);
      this.shrinkRun(this.runs().find((x) => x.id === r.run)!, r.count);
    }
    writer.add(id, merged.ts, merged.values, 0, merged.ts.length);
  }

  /** Takes `gone` points off a run's count (and raises its min_ts to `cutoff`); drops it when empty. */
  private shrinkRun(run: Run, gone: number, cutoff = Number.NEGATIVE_INFINITY): void {
    run.samples -= gone;
    run.minTs = Math.max(run.minTs, cutoff);
    if (run.samples <= 0) this.stmt.deleteRun.run(run.id);
    else this.stmt.updateRun.run(run.minTs, run.samples, run.id);
  }

  /** Merges runs into one new run of `level`, MERGE_SERIES series at a time. */
  private merge(runs: readonly Run[], level: number): void {
    const ids = `[${runs.map((r) => r.id).join(',')}]`;
    const writer = new RunWriter(this, this.runs().at(-1)!.id + 1, level);
    let maxSeries = 0;
    for (const r of runs)
      maxSeries = Math.max(maxSeries, (this.stmt.maxSeries.get(r.id) as number | null) ?? 0);
    for (let lo = 0; lo <= maxSeries; lo += MERGE_SERIES) {
      const bySeries = new Map<number, Points[]>();
      for (const row of this.stmt.ofSeries.all(ids, lo, lo + MERGE_SERIES) as {
        series_id: number;
        data: Buffer;
      }[]) {
        let list = bySeries.get(row.series_id);
        if (!list) {
          list = [];
          bySeries.set(row.series_id, list);
        }
        list.push(decodeSegment(row.data));
      }
      for (const [id, list] of bySeries) {
        // The series' segments do not interleave: in start order they are one sorted sequence.
        list.sort((a, b) => a.ts[0]! - b.ts[0]!);
        const all = mergePoints(list, new Float64Array(0), new Float64Array(0), 0, 0);
        writer.add(id, all.ts, all.values, 0, all.ts.length);
      }
    }
    for (const r of runs) {
      this.stmt.deleteRunSegments.run(r.id);
      this.stmt.deleteRun.run(r.id);
    }
    writer.finish();
    this.runList = null;
  }
}

/** Segments of one new run, added in series order, INSERT_ROWS a statement; `finish` records the run. */
class RunWriter {
  readonly run: Run;
  private readonly rows: unknown[] = new Array(INSERT_ROWS * 6);
  private pending = 0;
  constructor(
    private readonly raw: RawSamples,
    id: number,
    level: number,
  ) {
    this.run = { id, level, minTs: Number.POSITIVE_INFINITY, maxTs: Number.NEGATIVE_INFINITY, samples: 0 };
  }

  /** Points [i, j) of one series, sorted: one segment per window they touch. */
  add(id: number, ts: Float64Array, values: Float64Array, i: number, j: number): void {
    if (i >= j) return;
    const run = this.run;
    if (ts[i]! < run.minTs) run.minTs = ts[i]!;
    if (ts[j - 1]! > run.maxTs) run.maxTs = ts[j - 1]!;
    run.samples += j - i;
    while (i < j) {
      const end = windowOf(ts[i]!) + SEGMENT_WINDOW_MS;
      let k = i + 1;
      while (k < j && ts[k]! < end) k++;
      const at = this.pending * 6;
      this.rows[at] = run.id;
      this.rows[at + 1] = id;
      this.rows[at + 2] = ts[i]!;
      this.rows[at + 3] = ts[k - 1]!;
      this.rows[at + 4] = k - i;
      this.rows[at + 5] = this.raw.arena.encode(ts, values, i, k);
      if (++this.pending === INSERT_ROWS) this.flush();
      i = k;
    }
  }

  /** Writes the rows held (before anything else of the run's transaction reads segments). */
  flush(): void {
    if (this.pending > 0) this.raw.insertSegments(this.rows, this.pending);
    this.pending = 0;
  }

  finish(): void {
    this.flush();
    if (this.run.samples > 0) this.raw.insertRun(this.run);
  }
}

/** Sorted, non-interleaving segments merged with points [i, j) of sorted arrays; those points win a tie. */
export function mergePoints(
  old: readonly Points[],
  ts: Float64Array,
  values: Float64Array,
  i: number,
  j: number,
): Points {
  let total = j - i;
  for (const p of old) total += p.ts.length;
  const outTs = new Float64Array(total);
  const outValues = new Float64Array(total);
  let n = 0;
  for (const p of old) {
    for (let k = 0; k < p.ts.length; k++) {
      const t = p.ts[k]!;
      while (i < j && ts[i]! < t) {
        outTs[n] = ts[i]!;
        outValues[n++] = values[i++]!;
      }
      if (i < j && ts[i] === t) {
        outTs[n] = t;
        outValues[n++] = values[i++]!;
      } else {
        outTs[n] = t;
        outValues[n++] = p.values[k]!;
      }
    }
  }
  for (; i < j; i++) {
    outTs[n] = ts[i]!;
    outValues[n++] = values[i]!;
  }
  return { ts: outTs.subarray(0, n), values: outValues.subarray(0, n) };
}

/**
 * Files of the first layout kept raw samples one row each in `samples` (and newer ones in
 * `samples_recent`): converted once into one run of segments, then both tables dropped. In the
 * caller's transaction; a no-op on files without them.
 */
export function migrateSampleTables(db: Database.Database): void {
  const has = (table: string) =>
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) !== undefined;
  if (!has('samples')) return;
  if (has('samples_recent')) {
    db.exec(
      'INSERT OR REPLACE INTO samples (series_id, ts, value) SELECT series_id, ts, value FROM samples_recent',
    );
  }
  const raw = new RawSamples(db);
  const writer = new RunWriter(
    raw,
    ((db.prepare('SELECT max(id) FROM runs').pluck().get() as number | null) ?? 0) + 1,
    1,
  );
  const page = db
    .prepare('SELECT ts, value FROM samples WHERE series_id = ? AND ts > ? ORDER BY ts LIMIT ?')
    .raw();
  const PAGE = 100_000;
  for (const id of db
    .prepare('SELECT DISTINCT series_id FROM samples ORDER BY 1')
    .pluck()
    .all() as number[]) {
    let after = Number.NEGATIVE_INFINITY;
    for (;;) {
      const rows = page.all(id, after, PAGE) as [number, number][];
      if (rows.length === 0) break;
      const ts = new Float64Array(rows.length);
      const values = new Float64Array(rows.length);
      for (let k = 0; k < rows.length; k++) {
        ts[k] = rows[k]![0];
        values[k] = rows[k]![1];
      }
      // A full page may end inside a window: that window waits for the next page.
      let n = ts.length;
      if (rows.length === PAGE) {
        const last = windowOf(ts[n - 1]!);
        while (n > 0 && ts[n - 1]! >= last) n--;
        if (n === 0) n = ts.length;
      }
      writer.add(id, ts, values, 0, n);
      after = ts[n - 1]!;
    }
  }
  writer.finish();
  db.exec('DROP TABLE samples; DROP TABLE IF EXISTS samples_recent');
}
