import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEAD_LETTER_PAYLOAD_MAX, deadLetterRow } from './contract';
import { createDeadLetterTableSql, deadLetterInsert, deadLettersSql, shapeDeadLetters } from './questdb';
import { createSqliteStore } from './sqlite';

describe('dead letters', () => {
  it('keeps the payload as text, cut to 64 KB on a character boundary', () => {
    expect(deadLetterRow({ reason: 'r', payload: new TextEncoder().encode('{"a":1}'), at: 5 })).toEqual({
      at: 5,
      reason: 'r',
      payload: '{"a":1}',
      truncated: false,
    });
    expect(deadLetterRow({ reason: 'r', payload: { a: 1 }, at: 5 }).payload).toBe('{"a":1}');
    const long = deadLetterRow({ reason: 'r', payload: 'é'.repeat(DEAD_LETTER_PAYLOAD_MAX) });
    expect(long.truncated).toBe(true);
    expect(Buffer.byteLength(long.payload)).toBe(DEAD_LETTER_PAYLOAD_MAX);
    const odd = deadLetterRow({ reason: 'r', payload: `x${'é'.repeat(DEAD_LETTER_PAYLOAD_MAX)}` });
    expect(Buffer.byteLength(odd.payload)).toBe(DEAD_LETTER_PAYLOAD_MAX - 1);
    expect(odd.payload.endsWith('é')).toBe(true);
  });

  it('SQLite: writes them to dead_letters and reads the newest first', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fd-dead-'));
    try {
      const store = createSqliteStore({ path: join(dir, 'm.db') });
      expect(await store.deadLetters()).toEqual([]);
      await store.deadLetter({ reason: 'first', payload: '{}', at: 1000 });
      await store.deadLetter({ reason: 'second', payload: 'x'.repeat(70_000), at: 2000 });
      const letters = await store.deadLetters({ limit: 10 });
      expect(letters.map((l) => [l.reason, l.at, l.truncated])).toEqual([
        ['second', 2000, true],
        ['first', 1000, false],
      ]);
      expect(letters[0]!.payload).toHaveLength(DEAD_LETTER_PAYLOAD_MAX);
      expect(await store.deadLetters({ limit: 1 })).toHaveLength(1);
      // Retention takes old dead letters with the old samples.
      await store.retention(1);
      expect(await store.deadLetters()).toEqual([]);
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('QuestDB: a dead_letters WAL table, a bound INSERT, rows shaped back', () => {
    expect(createDeadLetterTableSql()).toBe(
      'CREATE TABLE IF NOT EXISTS dead_letters (at TIMESTAMP, reason STRING, payload STRING, truncated BOOLEAN) ' +
        'TIMESTAMP(at) PARTITION BY DAY WAL',
    );
    expect(deadLetterInsert({ reason: "it's bad", payload: '{"v":2}', at: Date.UTC(2026, 0, 1) })).toEqual({
      text: 'INSERT INTO dead_letters (at, reason, payload, truncated) VALUES ($1, $2, $3, $4)',
      values: ['2026-01-01T00:00:00.000Z', "it's bad", '{"v":2}', false],
    });
    expect(deadLettersSql(5)).toBe(
      'SELECT at, reason, payload, truncated FROM dead_letters ORDER BY at DESC LIMIT 5',
    );
    expect(
      shapeDeadLetters([{ at: '2026-01-01 00:00:00.000000', reason: 'r', payload: 'p', truncated: true }]),
    ).toEqual([{ at: Date.UTC(2026, 0, 1), reason: 'r', payload: 'p', truncated: true }]);
  });
});
