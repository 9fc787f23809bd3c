import { decodeLog } from './sqlite-codec';

/** Tails larger than this many points give their memory back when a checkpoint empties them. */
const KEEP_CAPACITY = 1 << 16;

/**
 * The points of one series written since the last checkpoint: sorted by ts, one value per ts, the
 * latest write winning. Appends (the usual case) cost a store into two typed arrays.
 */
export class Tail {
  ts = new Float64Array(8);
  values = new Float64Array(8);
  length = 0;
  /**
   * Newest ts in the series' segments, once looked up (undefined until then; -Infinity when the
   * series has none): a checkpoint appends the points after it without reading a segment.
   */
  segEnd: number | undefined = undefined;

  /** Newest ts held, or -Infinity. */
  get last(): number {
    return this.length === 0 ? Number.NEGATIVE_INFINITY : this.ts[this.length - 1]!;
  }

  /** Writes a point: appended when newest, else inserted in place or replacing the same ts. */
  put(t: number, v: number): void {
    const n = this.length;
    if (n === 0 || t > this.ts[n - 1]!) {
      if (n === this.ts.length) this.grow();
      this.ts[n] = t;
      this.values[n] = v;
      this.length = n + 1;
      return;
    }
    const i = this.lowerBound(t);
    if (this.ts[i] === t) {
      this.values[i] = v;
      return;
    }
    if (n === this.ts.length) this.grow();
    this.ts.copyWithin(i + 1, i, n);
    this.values.copyWithin(i + 1, i, n);
    this.ts[i] = t;
    this.values[i] = v;
    this.length = n + 1;
  }

  /** Writes points [from, to) in their order (later ones win a tie); a newer ascending run is copied at once. */
  putRun(ts: Float64Array, values: Float64Array, from: number, to: number): void {
    let ascending = this.length === 0 || ts[from]! > this.ts[this.length - 1]!;
    for (let i = from + 1; ascending && i < to; i++) ascending = ts[i]! > ts[i - 1]!;
    if (!ascending) {
      for (let i = from; i < to; i++) this.put(ts[i]!, values[i]!);
      return;
    }
    const n = this.length + (to - from);
    if (this.ts.length < n) this.grow(n);
    this.ts.set(ts.subarray(from, to), this.length);
    this.values.set(values.subarray(from, to), this.length);
    this.length = n;
  }

  /** First index whose ts is >= t (length when none). */
  lowerBound(t: number): number {
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.ts[mid]! < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  clear(): void {
    if (this.ts.length > KEEP_CAPACITY) {
      this.ts = new Float64Array(8);
      this.values = new Float64Array(8);
    }
    this.length = 0;
  }

  private grow(atLeast = this.ts.length + 1): void {
    let capacity = this.ts.length * 2;
    while (capacity < atLeast) capacity *= 2;
    const ts = new Float64Array(capacity);
    ts.set(this.ts.subarray(0, this.length));
    this.ts = ts;
    const values = new Float64Array(capacity);
    values.set(this.values.subarray(0, this.length));
    this.values = values;
  }
}

/** Samples of one log row, in write order. */
export interface LogChunk {
  ids: Uint32Array;
  ts: Float64Array;
  values: Float64Array;
}

/**
 * What `samples_log` holds, as tails per series: every store on a file keeps one, the writer by
 * adding its own log rows, any other reader by decoding the rows newer than `lastRowid`. A
 * checkpoint moves the tails into segments, empties the log and bumps `generation`; a store that
 * sees another generation empties its tails and reads the log again from the start.
 *
 * Rows are taken in as they are (columnar, in write order) and sorted into the tails only when
 * something reads them (`materialize`): writing a sample then touches no per-series memory, and the
 * sort, by series id, puts each series' new points into its tail in one go.
 */
export class LogTails {
  /** Never shrinks: a tail is emptied in place, so references to it stay valid. */
  readonly tails = new Map<number, Tail>();
  lastRowid = 0;
  generation = -1;
  /** Samples in the log rows taken in (a rewrite counts again: this sizes the log, not the series). */
  samples = 0;
  /** Samples taken in and not yet in the tails, in write order (one arena, reused). */
  private pendingIds = new Uint32Array(1024);
  private pendingTs = new Float64Array(1024);
  private pendingValues = new Float64Array(1024);
  private pendingLength = 0;
  private counts = new Uint32Array(1024);
  private sortedTs = new Float64Array(1024);
  private sortedValues = new Float64Array(1024);

  /** The series' tail, holding every row taken in once `materialize` ran. */
  tail(id: number): Tail {
    let t = this.tails.get(id);
    if (!t) {
      t = new Tail();
      this.tails.set(id, t);
    }
    return t;
  }

  /** Empties every tail (also forgetting where the segments end) for a log read from the start. */
  reset(generation: number): void {
    for (const t of this.tails.values()) {
      t.clear();
      t.segEnd = undefined;
    }
    this.pendingLength = 0;
    this.lastRowid = 0;
    this.samples = 0;
    this.generation = generation;
  }

  /** Takes in one log row, in rowid order (copied: the chunk's arrays may be reused). */
  add(rowid: number, chunk: LogChunk): void {
    const n = chunk.ids.length;
    const at = this.pendingLength;
    if (this.pendingIds.length < at + n) {
      const capacity = Math.max(at + n, this.pendingIds.length * 2);
      const ids = new Uint32Array(capacity);
      ids.set(this.pendingIds.subarray(0, at));
      this.pendingIds = ids;
      const ts = new Float64Array(capacity);
      ts.set(this.pendingTs.subarray(0, at));
      this.pendingTs = ts;
      const values = new Float64Array(capacity);
      values.set(this.pendingValues.subarray(0, at));
      this.pendingValues = values;
    }
    this.pendingIds.set(chunk.ids, at);
    this.pendingTs.set(chunk.ts, at);
    this.pendingValues.set(chunk.values, at);
    this.pendingLength = at + n;
    this.samples += n;
    this.lastRowid = rowid;
  }

  /** Takes in one log row as stored. */
  apply(rowid: number, blob: Uint8Array): void {
    this.add(rowid, decodeLog(blob));
  }

  /** Puts the rows taken in since the last call into the tails. */
  materialize(): void {
    this.drain((id, ts, values, from, to) => this.tail(id).putRun(ts, values, from, to));
  }

  /**
   * Hands the rows taken in since the last call to `visit`, by series in ascending id order, each
   * series' points in write order: a stable counting sort by series id. The arrays are reused
   * after `visit` returns.
   */
  drain(visit: (id: number, ts: Float64Array, values: Float64Array, from: number, to: number) => void): void {
    const total = this.pendingLength;
    if (total === 0) return;
    this.pendingLength = 0;
    const ids = this.pendingIds;
    let maxId = 0;
    for (let i = 0; i < total; i++) if (ids[i]! > maxId) maxId = ids[i]!;
    if (this.counts.length < maxId + 2)
      this.counts = new Uint32Array(Math.max(maxId + 2, this.counts.length * 2));
    if (this.sortedTs.length < total) {
      this.sortedTs = new Float64Array(Math.max(total, this.sortedTs.length * 2));
      this.sortedValues = new Float64Array(this.sortedTs.length);
    }
    // next[id] is where the series' next point goes; it ends as where the series' points end.
    const next = this.counts;
    next.fill(0, 0, maxId + 2);
    for (let i = 0; i < total; i++) next[ids[i]! + 1]!++;
    for (let id = 1; id <= maxId + 1; id++) next[id]! += next[id - 1]!;
    const ts = this.sortedTs;
    const values = this.sortedValues;
    const pendingTs = this.pendingTs;
    const pendingValues = this.pendingValues;
    for (let i = 0; i < total; i++) {
      const at = next[ids[i]!]!++;
      ts[at] = pendingTs[i]!;
      values[at] = pendingValues[i]!;
    }
    let from = 0;
    for (let id = 0; id <= maxId; id++) {
      const to = next[id]!;
      if (to > from) visit(id, ts, values, from, to);
      from = to;
    }
  }
}
