import { endianness } from 'node:os';

/*
 * Blob layouts of the SQLite metric store. Both are little-endian (Float64Array and Uint32Array are
 * read and written in place), so the store refuses to start on a big-endian machine.
 */
if (endianness() !== 'LE') throw new Error('the SQLite metric store needs a little-endian machine');

/** Points of one series: `ts` ascending without repeats, `values` aligned with it. */
export interface Points {
  ts: Float64Array;
  values: Float64Array;
}

/**
 * A segment (one row of `segments`), format 1:
 * `[u8 1][3 x u8 0][u32 count][f64 value x count][ts: varint first, then varint gaps]`.
 * Gaps are positive, so a 10-s series costs 2 bytes of time and 8 of value per point.
 */
export const SEGMENT_FORMAT = 1;
const SEGMENT_HEADER = 8;

/** Encodes points [from, to) of sorted arrays as one segment blob (a new buffer). */
export function encodeSegment(ts: Float64Array, values: Float64Array, from: number, to: number): Buffer {
  const arena = new SegmentArena();
  return arena.encode(ts, values, from, to);
}

/**
 * Encodes segments one after the other into a reused buffer, so that several can be bound to one
 * statement (better-sqlite3 copies bound blobs): a blob stays valid until `reset`. Spares the write
 * path a buffer per segment, whose memory outside the JS heap would bring on full collections.
 */
export class SegmentArena {
  private buf = Buffer.allocUnsafeSlow(1 << 16);
  private used = 0;

  reset(): void {
    this.used = 0;
  }

  encode(ts: Float64Array, values: Float64Array, from: number, to: number): Buffer {
    const n = to - from;
    // A varint of a number below 2^53 takes at most 8 bytes.
    const size = SEGMENT_HEADER + 16 * n;
    if (this.buf.length - this.used < size) {
      // Blobs handed out before keep the old buffer alive until they are bound.
      this.buf = Buffer.allocUnsafeSlow(Math.max(size, this.buf.length));
      this.used = 0;
    }
    const buf = this.buf;
    const at = this.used;
    buf.writeUInt32LE(SEGMENT_FORMAT, at);
    buf.writeUInt32LE(n, at + 4);
    buf.set(new Uint8Array(values.buffer, values.byteOffset + from * 8, n * 8), at + SEGMENT_HEADER);
    let p = at + SEGMENT_HEADER + 8 * n;
    let prev = 0;
    for (let i = from; i < to; i++) {
      const t = ts[i]!;
      let d = t - prev;
      if (!(d > 0 && d === Math.floor(d)))
        throw new Error(`segment points out of order or not whole ms at ts ${t}`);
      prev = t;
      if (d < 0x80000000) {
        while (d >= 128) {
          buf[p++] = (d & 127) | 128;
          d >>>= 7;
        }
      } else {
        while (d >= 128) {
          buf[p++] = (d % 128) | 128;
          d = Math.floor(d / 128);
        }
      }
      buf[p++] = d;
    }
    this.used = p;
    return buf.subarray(at, p);
  }
}

/** Number of points in a segment blob, without decoding it. */
export function segmentCount(blob: Uint8Array): number {
  return new DataView(blob.buffer, blob.byteOffset, blob.byteLength).getUint32(4, true);
}

/** Decodes a segment blob; throws on a format this version does not know. */
export function decodeSegment(blob: Uint8Array): Points {
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  const format = view.getUint32(0, true);
  if (format !== SEGMENT_FORMAT) throw new Error(`unknown segment format ${format}`);
  const n = view.getUint32(4, true);
  const values = new Float64Array(n);
  new Uint8Array(values.buffer).set(blob.subarray(SEGMENT_HEADER, SEGMENT_HEADER + 8 * n));
  const ts = new Float64Array(n);
  let p = SEGMENT_HEADER + 8 * n;
  let prev = 0;
  for (let i = 0; i < n; i++) {
    let b = blob[p++]!;
    let x = b & 127;
    let mul = 128;
    while (b & 128) {
      b = blob[p++]!;
      x += (b & 127) * mul;
      mul *= 128;
    }
    prev += x;
    ts[i] = prev;
  }
  if (p > blob.length) throw new Error('segment blob cut short');
  return { ts, values };
}

/**
 * A write call's samples (one row of `samples_log`), format 1:
 * `[u32 count][u32 1][f64 ts x count][f64 value x count][u32 series id x count]`, in write order.
 * Built in place in one reused buffer: `begin(count)` sizes it, the caller fills `ts`, `values`
 * and `ids` and binds `blob`; all valid until the next `begin`.
 */
export class LogBlob {
  private buffer = new ArrayBuffer(1 << 16);
  count = 0;
  blob: Buffer = Buffer.alloc(0);
  ts = new Float64Array(0);
  values = new Float64Array(0);
  ids = new Uint32Array(0);

  begin(count: number): void {
    const size = 8 + 20 * count;
    if (this.buffer.byteLength < size)
      this.buffer = new ArrayBuffer(Math.max(size, this.buffer.byteLength * 2));
    const buffer = this.buffer;
    const head = new Uint32Array(buffer, 0, 2);
    head[0] = count;
    head[1] = 1;
    this.count = count;
    this.ts = new Float64Array(buffer, 8, count);
    this.values = new Float64Array(buffer, 8 + 8 * count, count);
    this.ids = new Uint32Array(buffer, 8 + 16 * count, count);
    this.blob = Buffer.from(buffer, 0, size);
  }
}

/** The samples of a `samples_log` blob (views on a copy when the blob is not 8-byte aligned). */
export function decodeLog(blob: Uint8Array): { ids: Uint32Array; ts: Float64Array; values: Float64Array } {
  let bytes = blob;
  if (bytes.byteOffset % 8 !== 0) bytes = new Uint8Array(blob);
  const head = new DataView(bytes.buffer, bytes.byteOffset, 8);
  const n = head.getUint32(0, true);
  const format = head.getUint32(4, true);
  if (format !== 1) throw new Error(`unknown samples_log format ${format}`);
  if (bytes.byteLength < 8 + 20 * n) throw new Error('samples_log blob cut short');
  const at = bytes.byteOffset;
  return {
    ts: new Float64Array(bytes.buffer, at + 8, n),
    values: new Float64Array(bytes.buffer, at + 8 + 8 * n, n),
    ids: new Uint32Array(bytes.buffer, at + 8 + 16 * n, n),
  };
}
