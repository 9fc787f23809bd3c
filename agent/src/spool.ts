import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import type { MetricBatch } from '@flightdeck/schemas/wire';

export interface SpoolOptions {
  /** Directory of the segment files; created when missing. */
  dir: string;
  /** Bound of the batches held (bytes of their JSON lines). Default 100 MB. */
  maxBytes?: number;
  /** A segment is closed (fsync'd) and a new one started past this size. Default min(4 MB, max / 8). */
  segmentBytes?: number;
}

/**
 * Batches that could not be published, kept on disk in the order they came (DESIGN section 1).
 * Only the transport owning the spool calls it, one call at a time; every call is synchronous.
 */
export interface Spool {
  /** Adds a batch at the end; when the bound would be passed the oldest batches are dropped first. */
  append(batch: MetricBatch): void;
  /** Up to `n` of the oldest batches, oldest first, without removing them. */
  peek(n: number): MetricBatch[];
  /** Removes the `n` oldest batches (they were delivered, or rejected for good). */
  shift(n: number): void;
  /** Batches held. */
  readonly depth: number;
  /** Batches dropped because the spool was full (kept across restarts). */
  readonly dropped: number;
  /** Bytes of the batches held. */
  readonly bytes: number;
  /** Syncs and closes the open segment; the next run replays what is left. */
  close(): void;
}

export const DEFAULT_SPOOL_MAX_BYTES = 100 * 1024 * 1024;

const SEGMENT_RE = /^seg-(\d{16})\.jsonl$/;
const CURSOR_FILE = 'cursor.json';

interface Segment {
  seq: number;
  path: string;
  /** Byte length of each line (newline included), in file order. */
  sizes: number[];
  /** Lines before this index were delivered or dropped. */
  consumed: number;
  /** Parsed lines; loaded for the head segment only (the one being replayed). */
  lines: (MetricBatch | null)[] | null;
}

const segmentName = (seq: number) => `seg-${String(seq).padStart(16, '0')}.jsonl`;

/**
 * An append-only spool of JSON lines split into segment files. The open segment takes appends and
 * is fsync'd when it is closed (rotation, `close()`); what a segment held at a crash is replayed,
 * except a torn last line. A cursor file keeps how far the head segment was delivered, so a restart
 * replays from there (a crash between a delivery and the cursor write replays that batch again,
 * which the stores absorb: writing the same sample twice replaces it). The bound counts the bytes of
 * batches still held: a fully consumed segment file is deleted, so the files on disk exceed the
 * bound by at most one segment.
 */
export function openSpool(options: SpoolOptions): Spool {
  const { dir } = options;
  const maxBytes = options.maxBytes ?? DEFAULT_SPOOL_MAX_BYTES;
  const segmentBytes = options.segmentBytes ?? Math.max(1024, Math.min(4 * 1024 * 1024, maxBytes / 8));
  mkdirSync(dir, { recursive: true });

  let dropped = 0;
  let cursor = { seq: 0, line: 0 };
  try {
    const saved = JSON.parse(readFileSync(join(dir, CURSOR_FILE), 'utf8')) as Record<string, unknown>;
    if (typeof saved.seq === 'number' && typeof saved.line === 'number') {
      cursor = { seq: saved.seq, line: saved.line };
    }
    if (typeof saved.dropped === 'number') dropped = saved.dropped;
  } catch {
    // No cursor yet (first run) or an unreadable one: replay everything found.
  }

  const segments: Segment[] = [];
  let bytes = 0;
  let depth = 0;
  const files = readdirSync(dir)
    .map((f) => SEGMENT_RE.exec(f))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b);
  for (const seq of files) {
    const path = join(dir, segmentName(seq));
    if (seq < cursor.seq) {
      rmSync(path, { force: true });
      continue;
    }
    const { sizes, lines } = readSegment(path);
    const consumed = seq === cursor.seq ? Math.min(cursor.line, sizes.length) : 0;
    const seg: Segment = { seq, path, sizes, consumed, lines };
    for (let i = consumed; i < sizes.length; i++) bytes += sizes[i]!;
    depth += sizes.length - consumed;
    seg.lines = null;
    segments.push(seg);
  }

  // Appends always go to a new segment: an old one may end in a torn line.
  let open: { seg: Segment; fd: number; size: number } | null = null;
  let nextSeq = (segments.at(-1)?.seq ?? cursor.seq) + 1;

  function saveCursor(): void {
    const head = segments[0];
    const tmp = join(dir, `${CURSOR_FILE}.tmp`);
    const value = head ? { seq: head.seq, line: head.consumed, dropped } : { seq: nextSeq, line: 0, dropped };
    writeFileSync(tmp, JSON.stringify(value));
    renameSync(tmp, join(dir, CURSOR_FILE));
  }

  function closeOpen(): void {
    if (!open) return;
    fsyncSync(open.fd);
    closeSync(open.fd);
    open = null;
  }

  function headLines(seg: Segment): (MetricBatch | null)[] {
    if (!seg.lines) seg.lines = readSegment(seg.path).lines;
    return seg.lines;
  }

  /** Drops consumed segments at the head and deletes their files. */
  function trimHead(): void {
    while (segments.length > 0 && segments[0]!.consumed >= segments[0]!.sizes.length) {
      const seg = segments[0]!;
      if (open?.seg === seg) {
        // The open segment is empty of live lines: keep appending to it would grow a dead file.
        closeOpen();
      }
      segments.shift();
      rmSync(seg.path, { force: true });
    }
  }

  function consume(n: number): number {
    let left = n;
    while (left > 0 && segments.length > 0) {
      const seg = segments[0]!;
      const take = Math.min(left, seg.sizes.length - seg.consumed);
      for (let i = seg.consumed; i < seg.consumed + take; i++) bytes -= seg.sizes[i]!;
      seg.consumed += take;
      depth -= take;
      left -= take;
      trimHead();
    }
    return n - left;
  }

  return {
    append(batch) {
      const line = `${JSON.stringify(batch)}\n`;
      const size = Buffer.byteLength(line);
      // Make room: the oldest batches go first, each one counted.
      while (depth > 0 && bytes + size > maxBytes) dropped += consume(1);
      if (open && open.size + size > segmentBytes && open.size > 0) closeOpen();
      if (!open) {
        const seg: Segment = { seq: nextSeq++, path: '', sizes: [], consumed: 0, lines: [] };
        seg.path = join(dir, segmentName(seg.seq));
        open = { seg, fd: openSync(seg.path, 'a'), size: 0 };
        segments.push(seg);
      }
      writeSync(open.fd, line);
      open.size += size;
      open.seg.sizes.push(size);
      // Lines stay parsed only for the head; later segments are read back when they become the head.
      if (open.seg.lines && open.seg === segments[0]) open.seg.lines.push(batch);
      else open.seg.lines = null;
      bytes += size;
      depth++;
      saveCursor();
    },
    peek(n) {
      const out: MetricBatch[] = [];
      let skipped = 0;
      // Stops before an unreadable line so that shift(out.length) removes exactly what was returned.
      scan: for (const seg of segments) {
        if (out.length >= n) break;
        const lines = headLines(seg);
        for (let i = seg.consumed; i < seg.sizes.length && out.length < n; i++) {
          const b = lines[i];
          if (b) out.push(b);
          else if (out.length === 0) skipped++;
          else break scan;
        }
      }
      // A line that does not parse (torn by a crash) can never be delivered: count it as dropped.
      if (skipped > 0) {
        dropped += consume(skipped);
        saveCursor();
      }
      return out;
    },
    shift(n) {
      consume(n);
      saveCursor();
    },
    get depth() {
      return depth;
    },
    get dropped() {
      return dropped;
    },
    get bytes() {
      return bytes;
    },
    close() {
      closeOpen();
      saveCursor();
    },
  };
}

/** Reads a segment: the byte size of each line and its batch (null when the line does not parse). */
function readSegment(path: string): { sizes: number[]; lines: (MetricBatch | null)[] } {
  const sizes: number[] = [];
  const lines: (MetricBatch | null)[] = [];
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return { sizes, lines };
  }
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    const complete = end !== -1;
    if (!complete) end = text.length;
    const raw = text.slice(start, end);
    sizes.push(Buffer.byteLength(raw) + (complete ? 1 : 0));
    let batch: MetricBatch | null = null;
    if (complete) {
      try {
        batch = JSON.parse(raw) as MetricBatch;
      } catch {
        batch = null;
      }
    }
    lines.push(batch);
    start = end + 1;
  }
  return { sizes, lines };
}
