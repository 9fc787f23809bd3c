import {
  type CounterUnit,
  TABLE_COUNTERS,
  type TableCounterKey,
  type TableCountersData,
  type TableRef,
} from '@flightdeck/schemas';

/** What the engine inspections share: counter units, table names in messages, closing with a bound. */

/** How a table counter reads: sizes in bytes, times as unix ms, waits in seconds, the rest counts. */
export function counterUnit(key: TableCounterKey): CounterUnit {
  if (key.endsWith('_bytes')) return 'bytes';
  if (key.startsWith('last_') || key === 'created_at' || key === 'updated_at') return 'timestamp';
  if (key.endsWith('_wait_s')) return 'seconds';
  return 'count';
}

/**
 * The counters an engine keeps, in the order of {@link TABLE_COUNTERS}: a key absent from `values`
 * is a counter the engine does not keep; null one it keeps that was never set.
 */
export function tableCounters(
  values: Partial<Record<TableCounterKey, number | null>>,
): TableCountersData['counters'] {
  return TABLE_COUNTERS.filter((key) => values[key] !== undefined).map((key) => {
    const v = values[key] ?? null;
    const unit = counterUnit(key);
    return { key, unit, value: v === null ? null : unit === 'timestamp' ? Math.round(v) : v };
  });
}

/** How a message names a table: `schema.name` in database "db" (MySQL: `db.name`). */
export function tableWords(table: TableRef): string {
  return table.schema === null
    ? `Table "${table.database}.${table.name}"`
    : `Table "${table.schema}.${table.name}" in database "${table.database}"`;
}

/** Time a connection gets to close politely before the inspection answers without waiting for it. */
export const CLOSE_WAIT_MS = 1_000;

/**
 * Waits for `closing` at most {@link CLOSE_WAIT_MS}; the caller forces the close after. A close
 * that fails is logged by the caller's `onError`, never thrown: the answer is already known.
 */
export async function closeWithin(
  closing: Promise<unknown>,
  onError: (err: unknown) => void,
): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), CLOSE_WAIT_MS);
  });
  try {
    return await Promise.race([
      closing.then(
        () => true,
        (err: unknown) => {
          onError(err);
          return false;
        },
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
