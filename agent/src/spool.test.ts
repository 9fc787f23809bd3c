import { appendFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MetricBatch } from '@flightdeck/schemas';
import { afterEach, describe, expect, it } from 'vitest';
import { openSpool } from './spool';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'fd-spool-test-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function batch(i: number): MetricBatch {
  return {
    v: 1,
    tenant: 't1',
    host: 'h1',
    source: 'agent',
    ts: 1_700_000_000_000 + i,
    samples: [{ m: 'cpu.user', v: i }],
  };
}
const lineBytes = Buffer.byteLength(`${JSON.stringify(batch(100))}\n`);
const ids = (batches: MetricBatch[]) => batches.map((b) => b.samples[0]!.v);

describe('spool', () => {
  it('gives batches back oldest first across segment files, and forgets what was shifted', () => {
    const dir = tempDir();
    const spool = openSpool({ dir, segmentBytes: lineBytes * 3 });
    for (let i = 0; i < 10; i++) spool.append(batch(i));
    expect(spool.depth).toBe(10);
    expect(readdirSync(dir).filter((f) => f.endsWith('.jsonl')).length).toBe(4);
    expect(ids(spool.peek(4))).toEqual([0, 1, 2, 3]);
    spool.shift(4);
    expect(ids(spool.peek(100))).toEqual([4, 5, 6, 7, 8, 9]);
    spool.append(batch(10));
    spool.shift(6);
    expect(ids(spool.peek(100))).toEqual([10]);
    spool.shift(1);
    expect(spool.depth).toBe(0);
    expect(spool.bytes).toBe(0);
    // Consumed segments are deleted.
    expect(readdirSync(dir).filter((f) => f.endsWith('.jsonl'))).toEqual([]);
    spool.close();
  });

  it('when full drops the oldest batches first and counts them', () => {
    const dir = tempDir();
    const spool = openSpool({ dir, maxBytes: lineBytes * 5, segmentBytes: lineBytes * 2 });
    for (let i = 100; i < 108; i++) spool.append(batch(i));
    expect(spool.depth).toBe(5);
    expect(spool.dropped).toBe(3);
    expect(spool.bytes).toBeLessThanOrEqual(lineBytes * 5);
    expect(ids(spool.peek(100))).toEqual([103, 104, 105, 106, 107]);
    spool.close();
  });

  it('replays after a restart what the previous run left, from where it stopped', () => {
    const dir = tempDir();
    const first = openSpool({ dir, segmentBytes: lineBytes * 2 });
    for (let i = 0; i < 7; i++) first.append(batch(i));
    first.shift(3);
    first.close();

    const second = openSpool({ dir, segmentBytes: lineBytes * 2 });
    expect(second.depth).toBe(4);
    expect(ids(second.peek(100))).toEqual([3, 4, 5, 6]);
    second.append(batch(7));
    expect(ids(second.peek(100))).toEqual([3, 4, 5, 6, 7]);
    second.shift(2);
    // Not closed: a crash. What was appended is on disk already.
    const third = openSpool({ dir, segmentBytes: lineBytes * 2 });
    expect(ids(third.peek(100))).toEqual([5, 6, 7]);
    third.close();
  });

  it('keeps the dropped count across restarts', () => {
    const dir = tempDir();
    const first = openSpool({ dir, maxBytes: lineBytes * 2 });
    for (let i = 0; i < 5; i++) first.append(batch(100 + i));
    first.close();
    const second = openSpool({ dir, maxBytes: lineBytes * 2 });
    expect(second.dropped).toBe(3);
    expect(ids(second.peek(10))).toEqual([103, 104]);
    second.close();
  });

  it('skips a line torn by a crash and counts it as dropped', () => {
    const dir = tempDir();
    const first = openSpool({ dir });
    first.append(batch(1));
    first.append(batch(2));
    first.close();
    const [segment] = readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
    appendFileSync(join(dir, segment!), '{"v":1,"tenant":"t1","ho');
    const second = openSpool({ dir });
    expect(second.depth).toBe(3);
    second.append(batch(3));
    expect(ids(second.peek(10))).toEqual([1, 2]);
    second.shift(2);
    expect(ids(second.peek(10))).toEqual([3]);
    expect(second.dropped).toBe(1);
    expect(second.depth).toBe(1);
    second.close();
  });
});
