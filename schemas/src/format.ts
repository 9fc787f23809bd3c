/**
 * Small display rules of the spec (sections 5 and 9) shared by the api and the console: initials,
 * freemium days left, abbreviated numbers, byte sizes and the tracker's timer.
 */

/**
 * A user's abbreviated name: the first letters of the first two words, or the first two letters of
 * a single word, upper-case. An empty name gives an empty string.
 */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const first = words[0];
  if (first === undefined) return '';
  const second = words[1];
  // Array.from splits by code point, so a letter outside the BMP is not cut in half.
  const picked =
    second === undefined
      ? Array.from(first).slice(0, 2).join('')
      : `${Array.from(first)[0]}${Array.from(second)[0]}`;
  return picked.toUpperCase();
}

/**
 * Whole days left of a freemium plan: (register_in + lifetime days in seconds − now) / 86400,
 * rounded down and never below 0. `registerIn` and `nowSeconds` are unix seconds.
 */
export function freemiumDaysLeft(registerIn: number, lifetimeDays: number, nowSeconds: number): number {
  const days = Math.floor((registerIn + lifetimeDays * 86_400 - nowSeconds) / 86_400);
  return Math.max(0, days);
}

/** Suffixes of abbreviated numbers, one per power of 1000: thousand, million, billion, trillion, quadrillion. */
export const NUMBER_SUFFIXES = ['Mil', 'Mi', 'Bi', 'Tri', 'Qua'] as const;

/**
 * Abbreviates numbers of 1000 and more (in absolute value) with one decimal and the spec's suffixes,
 * e.g. 1500 → "1.5 Mil", 2_000_000 → "2 Mi"; smaller numbers are returned as they are. Beyond
 * quadrillions the number grows in front of "Qua".
 */
export function abbreviateNumber(n: number): string {
  if (!Number.isFinite(n) || Math.abs(n) < 1000) return String(n);
  let step = 0;
  let scaled = Math.abs(n) / 1000;
  // Rounding can carry into the next suffix (999_960 → "1000 Mil"), hence the loop on the rounded value.
  while (step < NUMBER_SUFFIXES.length - 1 && round1(scaled) >= 1000) {
    scaled /= 1000;
    step++;
  }
  return `${n < 0 ? '-' : ''}${round1(scaled)} ${NUMBER_SUFFIXES[step]}`;
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}

/** Units of byte sizes, in steps of 1024. */
export const BYTE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB'] as const;

/**
 * A byte count in steps of 1024 with up to `fractionDigits` decimals (trailing zeros dropped),
 * e.g. 1536 → "1.5 KB", 1023 → "1023 B".
 */
export function formatBytes(n: number, fractionDigits = 2): string {
  if (!Number.isFinite(n)) return String(n);
  const factor = 10 ** fractionDigits;
  const round = (x: number) => Math.round(x * factor) / factor;
  let step = 0;
  let scaled = Math.abs(n);
  while (step < BYTE_UNITS.length - 1 && round(scaled) >= 1024) {
    scaled /= 1024;
    step++;
  }
  return `${n < 0 ? '-' : ''}${round(scaled)} ${BYTE_UNITS[step]}`;
}

/**
 * Tracked seconds as the tracker's HH:MM:SS timer; hours grow past 99 rather than wrap. Fractions
 * are dropped and a negative count shows 00:00:00.
 */
export function formatTimer(seconds: number): string {
  const total = Number.isFinite(seconds) ? Math.max(0, Math.floor(seconds)) : 0;
  const pad = (x: number) => String(x).padStart(2, '0');
  return `${pad(Math.floor(total / 3600))}:${pad(Math.floor(total / 60) % 60)}:${pad(total % 60)}`;
}

/**
 * A duration in seconds as people read it (spec 9 duration helpers: ms, s, m, h, d), the two
 * largest units: "350 ms", "42 s", "5 m 12 s", "3 h 20 m", "6 d 4 h".
 */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '—';
  const sign = seconds < 0 ? '-' : '';
  const abs = Math.abs(seconds);
  if (abs < 1) return `${sign}${Math.round(abs * 1000)} ms`;
  const units: [string, number][] = [
    ['d', 86_400],
    ['h', 3_600],
    ['m', 60],
    ['s', 1],
  ];
  let rest = Math.round(abs);
  const parts: string[] = [];
  for (const [name, size] of units) {
    if (rest >= size || (parts.length === 0 && size === 1)) {
      const n = Math.floor(rest / size);
      rest -= n * size;
      parts.push(`${n} ${name}`);
    } else if (parts.length > 0) break;
    if (parts.length === 2) break;
  }
  return sign + parts.filter((p, i) => i === 0 || !p.startsWith('0 ')).join(' ');
}
