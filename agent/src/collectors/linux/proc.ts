import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CollectContext } from '../contract';

/** The absolute path of a file under `ctx.procRoot`, e.g. `procPath(ctx, 'net/dev')`. */
export function procPath(ctx: CollectContext, relative: string): string {
  return join(ctx.procRoot, relative);
}

/**
 * Reads a file under `ctx.procRoot` as text. A file that cannot be read (absent on this kernel, no
 * permission) is logged as a warning naming it and yields `undefined`: a probe never throws.
 */
export async function readProcText(ctx: CollectContext, relative: string): Promise<string | undefined> {
  const file = procPath(ctx, relative);
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    ctx.logger.warn({ file, err: errorMessage(err) }, `cannot read ${file}`);
    return undefined;
  }
}

/** Logs lines of a file that did not parse, once per run, naming the file. */
export function warnUnparsed(ctx: CollectContext, relative: string, lines: readonly string[]): void {
  if (lines.length === 0) return;
  const file = procPath(ctx, relative);
  ctx.logger.warn(
    { file, count: lines.length, first: lines[0]?.slice(0, 200) },
    `${lines.length} line(s) of ${file} not understood`,
  );
}

/** Splits on runs of blanks, dropping empty fields. */
export function fields(line: string): string[] {
  return line.trim().split(/\s+/);
}

/** A non-negative integer field, or `undefined` when it is not one. */
export function toCount(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d+$/.test(text)) return undefined;
  return Number(text);
}

/** A finite decimal field such as `0.27` or `669.68`, or `undefined`. */
export function toDecimal(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d+(\.\d+)?$/.test(text)) return undefined;
  return Number(text);
}

/** Rounds for the wire: percentages to 2 decimals, rates to 3. */
export function round(value: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
}

/** `part / whole` as a percentage (2 decimals), or `undefined` when `whole` is 0. */
export function percent(part: number, whole: number): number | undefined {
  return whole > 0 ? round((part / whole) * 100, 2) : undefined;
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
