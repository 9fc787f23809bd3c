/** Rounds to `digits` decimals, so samples do not carry float noise. */
export function round(value: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/**
 * Per-second rate of a counter between two readings `seconds` apart, or undefined when either
 * reading is missing, no time passed, or the counter went backwards (the server restarted or its
 * statistics were reset): that interval has no rate, the next one does.
 */
export function ratePerSecond(
  before: number | undefined,
  after: number | undefined,
  seconds: number,
): number | undefined {
  if (before === undefined || after === undefined || !(seconds > 0) || after < before) return undefined;
  return round((after - before) / seconds);
}

/**
 * Share of `hits` among `hits + misses` over an interval, from two readings of each counter; undefined
 * when nothing happened in between or a counter went backwards.
 */
export function hitRatio(
  hitsBefore: number | undefined,
  hitsAfter: number | undefined,
  missesBefore: number | undefined,
  missesAfter: number | undefined,
): number | undefined {
  if (
    hitsBefore === undefined ||
    hitsAfter === undefined ||
    missesBefore === undefined ||
    missesAfter === undefined
  ) {
    return undefined;
  }
  const hits = hitsAfter - hitsBefore;
  const misses = missesAfter - missesBefore;
  if (hits < 0 || misses < 0 || hits + misses === 0) return undefined;
  return round(hits / (hits + misses), 4);
}

/** A number from a driver's value (numbers, numeric strings, bigints); undefined for anything else. */
export function num(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

/** A string from a driver's value, or null. */
export function str(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (Buffer.isBuffer(value)) return value.toString('utf8');
  return String(value);
}
