/**
 * Pure readers of the JSON document Windows PowerShell 5.1 prints for the CIM queries of
 * `script.ts` (`ConvertTo-Json -Compress`). They accept the shapes that serializer produces for
 * the same data: one instance as an object and several as an array, an array wrapped as
 * `{"value": [...], "Count": n}`, dates as `/Date(ms)/` or CIM datetime strings, and 64-bit
 * numbers as numbers or strings.
 */

/** One CIM instance: property name to value as the JSON had it. */
export type CimRow = Record<string, unknown>;

/** The document of one run. */
export interface WindowsDocument {
  /** Instances by class; a class the document does not hold, or holds as `null`, is absent. */
  classes: Map<string, CimRow[]>;
  /** Why a class could not be read, by class (`Invalid class`, `Access denied`...). */
  errors: Map<string, string>;
}

function isObject(value: unknown): value is CimRow {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The instances of one class value: `null` is none, an object is one instance, an array is several.
 * PowerShell 5.1 writes an array that went through the pipeline as an object with `value` and
 * `Count`, which is unwrapped here.
 */
export function instances(value: unknown): CimRow[] | undefined {
  if (value === null || value === undefined) return undefined;
  if (Array.isArray(value)) return value.filter(isObject);
  if (isObject(value)) {
    if (Array.isArray(value.value) && 'Count' in value) return value.value.filter(isObject);
    return [value];
  }
  return undefined;
}

/**
 * The document in the lines a run printed. PowerShell may print other lines first (a `WARNING:`
 * of the host) or text before the document on its line, so the document is the last line holding a
 * JSON object from its first `{` to its end.
 */
export function parseWindowsDocument(
  lines: readonly string[],
): { doc: WindowsDocument; problem?: undefined } | { doc?: undefined; problem: string } {
  let parsed: unknown;
  let problem: string | undefined;
  for (let i = lines.length - 1; i >= 0 && parsed === undefined; i--) {
    // Windows PowerShell may put a byte order mark before the first line it writes.
    const line = (lines[i] as string).replace(/^\uFEFF/, '').trim();
    const start = line.indexOf('{');
    if (start < 0) continue;
    try {
      parsed = JSON.parse(line.slice(start));
    } catch (err) {
      problem ??= `the document is not JSON (${(err as Error).message}): ${line.slice(start, start + 120)}`;
    }
  }
  if (parsed === undefined) {
    if (problem) return { problem };
    const printed = lines.join(' ').trim().slice(0, 200);
    return { problem: printed ? `no JSON document in the output: ${printed}` : 'the script printed nothing' };
  }
  if (!isObject(parsed)) return { problem: 'the document is not a JSON object' };
  const classes = new Map<string, CimRow[]>();
  const errors = new Map<string, string>();
  for (const [key, value] of Object.entries(parsed)) {
    if (key === 'errors') continue;
    const rows = instances(value);
    if (rows) classes.set(key, rows);
  }
  if (isObject(parsed.errors)) {
    for (const [cls, message] of Object.entries(parsed.errors)) errors.set(cls, String(message).trim());
  }
  return { doc: { classes, errors } };
}

/** A number property: a JSON number, or a string of digits as 64-bit values may come. */
export function num(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  return undefined;
}

export function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * Unix ms of a date property: `/Date(1731900000000)/` (PowerShell 5.1, optionally with an offset
 * that does not change the instant), a CIM datetime `20241118083000.500000+060` (minutes east of
 * UTC), an ISO 8601 string (PowerShell 7), or 5.1's `Get-Date` object `{value, DisplayHint, DateTime}`.
 */
export function cimDate(value: unknown): number | undefined {
  if (isObject(value)) return cimDate(value.value);
  if (typeof value !== 'string') return undefined;
  const ms = /^\/Date\((-?\d+)(?:[+-]\d{4})?\)\/$/.exec(value);
  if (ms) return Number(ms[1]);
  const cim = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})\.(\d{6})([+-])(\d{3})$/.exec(value);
  if (cim) {
    const [, y, mo, d, h, mi, s, micro, sign, offset] = cim as unknown as string[];
    const local = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
    const offsetMs = Number(offset) * 60_000 * (sign === '-' ? -1 : 1);
    return local - offsetMs + Math.floor(Number(micro) / 1000);
  }
  const iso = Date.parse(value);
  return Number.isFinite(iso) ? iso : undefined;
}
