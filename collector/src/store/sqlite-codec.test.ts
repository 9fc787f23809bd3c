import { describe, expect, it } from 'vitest';
import { decodeLog, decodeSegment, encodeSegment, LogBlob, SegmentArena, segmentCount } from './sqlite-codec';
import { LogTails, Tail } from './sqlite-tails';

const f64 = (xs: number[]) => Float64Array.from(xs);

describe('segment blobs', () => {
  it('give back the points they were made of, gaps of any size included', () => {
    const ts = f64([1_700_000_000_000, 1_700_000_010_000, 1_700_000_010_001, 1_700_000_010_001 + 2 ** 40]);
    const values = f64([0.5, -3, 1e300, -0]);
    const blob = encodeSegment(ts, values, 0, 4);
    expect(segmentCount(blob)).toBe(4);
    const back = decodeSegment(blob);
    expect([...back.ts]).toEqual([...ts]);
    expect([...back.values]).toEqual([...values]);
    expect(Object.is(back.values[3], -0)).toBe(true);
  });

  it('encode a slice of the arrays, at about 10 bytes a point for 10-s data', () => {
    const ts = f64(Array.from({ length: 100 }, (_, i) => 1_700_000_000_000 + i * 10_000));
    const values = f64(Array.from({ length: 100 }, (_, i) => i));
    const blob = encodeSegment(ts, values, 10, 60);
    expect(blob.length).toBeLessThan(8 + 50 * 10 + 8);
    const back = decodeSegment(blob);
    expect(back.ts[0]).toBe(ts[10]);
    expect([...back.values]).toEqual([...values.subarray(10, 60)]);
  });

  it('refuse points out of order and blobs of an unknown format', () => {
    expect(() => encodeSegment(f64([2, 1]), f64([0, 0]), 0, 2)).toThrow(/out of order/);
    expect(() => encodeSegment(f64([2, 2]), f64([0, 0]), 0, 2)).toThrow(/out of order/);
    expect(() => encodeSegment(f64([2, 2.5]), f64([0, 0]), 0, 2)).toThrow(/not whole ms/);
    const blob = Buffer.from(encodeSegment(f64([5]), f64([1]), 0, 1));
    blob[0] = 9;
    expect(() => decodeSegment(blob)).toThrow(/unknown segment format 9/);
  });

  it('keep blobs of one arena apart until it is reset', () => {
    const arena = new SegmentArena();
    const a = arena.encode(f64([1, 2]), f64([10, 20]), 0, 2);
    const b = arena.encode(f64([3]), f64([30]), 0, 1);
    expect([...decodeSegment(a).values]).toEqual([10, 20]);
    expect([...decodeSegment(b).ts]).toEqual([3]);
  });
});

describe('log blobs', () => {
  it('carry a write call in write order and read back from an unaligned copy', () => {
    const log = new LogBlob();
    log.begin(3);
    log.ids.set([7, 3, 7]);
    log.ts.set([100, 100, 90]);
    log.values.set([1, 2, 3]);
    const unaligned = Buffer.alloc(log.blob.length + 1);
    log.blob.copy(unaligned, 1);
    const back = decodeLog(unaligned.subarray(1));
    expect([...back.ids]).toEqual([7, 3, 7]);
    expect([...back.ts]).toEqual([100, 100, 90]);
    expect([...back.values]).toEqual([1, 2, 3]);
    log.begin(1);
    expect(decodeLog(log.blob).ids).toHaveLength(1);
  });
});

describe('tails', () => {
  it('keep points sorted, one per ts, the latest write winning', () => {
    const tail = new Tail();
    for (const [t, v] of [
      [30, 1],
      [10, 2],
      [20, 3],
      [10, 4],
      [40, 5],
    ] as const)
      tail.put(t, v);
    expect([...tail.ts.subarray(0, tail.length)]).toEqual([10, 20, 30, 40]);
    expect([...tail.values.subarray(0, tail.length)]).toEqual([4, 3, 1, 5]);
    tail.putRun(f64([50, 60, 70]), f64([6, 7, 8]), 0, 3);
    tail.putRun(f64([35, 20]), f64([9, 10]), 0, 2);
    expect([...tail.ts.subarray(0, tail.length)]).toEqual([10, 20, 30, 35, 40, 50, 60, 70]);
    expect(tail.values[1]).toBe(10);
    expect(tail.last).toBe(70);
  });

  it('sort the log by series, keeping each series in write order', () => {
    const tails = new LogTails();
    const chunk = (ids: number[], ts: number[], values: number[]) => ({
      ids: Uint32Array.from(ids),
      ts: f64(ts),
      values: f64(values),
    });
    tails.add(1, chunk([2, 1, 2], [10, 10, 20], [1, 2, 3]));
    tails.add(2, chunk([1, 2], [20, 10], [4, 5]));
    expect(tails.samples).toBe(5);
    expect(tails.lastRowid).toBe(2);
    const seen: [number, number[], number[]][] = [];
    tails.drain((id, ts, values, from, to) =>
      seen.push([id, [...ts.subarray(from, to)], [...values.subarray(from, to)]]),
    );
    expect(seen).toEqual([
      [1, [10, 20], [2, 4]],
      [2, [10, 20, 10], [1, 3, 5]],
    ]);
    tails.add(3, chunk([2, 2], [10, 30], [6, 7]));
    tails.materialize();
    const t2 = tails.tail(2);
    expect([...t2.ts.subarray(0, t2.length)]).toEqual([10, 30]);
    expect([...t2.values.subarray(0, t2.length)]).toEqual([6, 7]);
  });
});
