/** One measured figure, printed by `npm run bench` as a JSON line. */
export interface Figure {
  name: string;
  /** null when the figure could not be measured here; `reason` says why. */
  value: number | null;
  unit: string;
  /** The goal the figure is held to, when it has one: at most `max`, at least `min`. */
  target?: { max?: number; min?: number };
  /** Why `value` is null (a tool that is not installed, a process that did not start). */
  reason?: string;
}

/** A benchmark file exports `benchmark`; `figures` lists the names it prints, for `npm run bench -- PREFIX`. */
export interface Benchmark {
  figures: readonly string[];
  /**
   * Figures of another program measured in the same run for comparison (node_exporter beside the
   * agent): printed whenever the benchmark runs, whatever the prefix.
   */
  comparisons?: readonly string[];
  run(): Promise<Figure[]>;
}

/** Percentile of a sorted array, nearest-rank. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export const round = (v: number, digits = 2) => Math.round(v * 10 ** digits) / 10 ** digits;
