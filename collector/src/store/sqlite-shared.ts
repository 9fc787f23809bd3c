import {
  type ChartData,
  InvalidBatchError,
  type Labels,
  type MetricBatch,
  parseMetricBatch,
} from '@flightdeck/schemas';
import { type SeriesQuery, type SeriesSelector, seriesField } from './contract';

// ---------------------------------------------------------------------------------------------------
// Pieces both stores share (questdb.ts imports them through sqlite.ts): validation, the x grid,
// field names.
// ---------------------------------------------------------------------------------------------------

/** Validates every batch of a write call; the error path names the batch: `batches[2].samples[7].v`. */
export function validateBatches(batches: unknown): readonly MetricBatch[] {
  if (!Array.isArray(batches)) throw new InvalidBatchError('batches', 'expected an array of metric batches');
  for (let i = 0; i < batches.length; i++) {
    try {
      parseMetricBatch(batches[i]);
    } catch (err) {
      if (!(err instanceof InvalidBatchError)) throw err;
      throw new InvalidBatchError(err.path ? `batches[${i}].${err.path}` : `batches[${i}]`, err.reason);
    }
  }
  return batches as readonly MetricBatch[];
}

export const DEFAULT_MAX_POINTS = 1_000;
/** No chart needs more buckets than this; a tiny `step` over a long range is widened to fit. */
export const MAX_BUCKETS = 20_000;

/** Buckets of a query: bucket i starts at `firstMs + i * widthMs`; together they cover [start, end). */
export interface Grid {
  widthMs: number;
  firstMs: number;
  count: number;
}

/**
 * Bucket width: `q.step`, else the range over maxPoints; at least `resolutionMs` and rounded up to a
 * whole multiple of it. Buckets are aligned to the epoch, so one step always gives the same grid.
 */
export function planGrid(q: SeriesQuery, resolutionMs: number): Grid {
  const rangeS = Math.max(0, q.end - q.start);
  const maxPoints = Math.min(MAX_BUCKETS, Math.max(1, Math.floor(q.maxPoints ?? DEFAULT_MAX_POINTS)));
  const wantedS = q.step !== undefined && q.step > 0 ? Math.ceil(q.step) : Math.ceil(rangeS / maxPoints);
  const w = Math.max(resolutionMs, wantedS * 1000, Math.ceil(rangeS / MAX_BUCKETS) * 1000);
  const widthMs = Math.ceil(w / resolutionMs) * resolutionMs;
  const startMs = q.start * 1000;
  const endMs = q.end * 1000;
  const firstMs = Math.floor(startMs / widthMs) * widthMs;
  const count = endMs > startMs ? Math.ceil((endMs - firstMs) / widthMs) : 0;
  return { widthMs, firstMs, count };
}

/** The chart contract around a grid; `fields` in y_axis order, each aligned with the grid. */
export function chartData(grid: Grid, fields: readonly (readonly [string, (number | null)[]])[]): ChartData {
  const x: number[] = new Array(grid.count);
  for (let i = 0; i < grid.count; i++) x[i] = (grid.firstMs + i * grid.widthMs) / 1000;
  const y: Record<string, (number | null)[]> = {};
  for (const [field, values] of fields) y[field] = values;
  return {
    configs: { is_dynamic: false, timer_task: 60, precision: 2, step: grid.widthMs / 1000 },
    x_values: x,
    y_axis: fields.map(([f]) => f),
    y_values: y,
  };
}

/** Inverse of {@link canonicalLabels}; a comma only splits where a label name and `=` follow. */
export function parseCanonicalLabels(s: string | null | undefined): Labels {
  const out: Labels = {};
  if (!s) return out;
  for (const pair of s.split(/,(?=[a-z_][a-z0-9_]*=)/)) {
    const eq = pair.indexOf('=');
    if (eq > 0) out[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return out;
}

/** True when `labels` holds every pair of `wanted`. */
export function labelsMatch(labels: Labels, wanted: Labels | undefined): boolean {
  if (!wanted) return true;
  for (const k in wanted) if (labels[k] !== wanted[k]) return false;
  return true;
}

export const metricsOf = (sel: SeriesSelector): readonly string[] =>
  typeof sel.metric === 'string' ? [sel.metric] : sel.metric;

export interface SeriesIdentity {
  host: string;
  /** '' when the series has no service. */
  service: string;
  metric: string;
  labels: Labels;
}

/**
 * Field namer for one query: the host leads when the selectors span several hosts (the contract's
 * rule); the service leads when the same field would otherwise come twice from different services.
 */
export function fieldNamer(series: readonly SeriesSelector[]): (s: SeriesIdentity) => string {
  const multiHost = new Set(series.map((s) => s.host)).size > 1;
  const seen = new Set<string>();
  return ({ host, service, metric, labels }) => {
    let field = seriesField(metric, labels, multiHost ? host : undefined);
    if (seen.has(field) && service) field = `${service}:${field}`;
    seen.add(field);
    return field;
  };
}

// ---------------------------------------------------------------------------------------------------
// Pieces the SQLite store's writer and reader share.
// ---------------------------------------------------------------------------------------------------

/** Widths of the rollup buckets (rollup_5m, rollup_1h). */
export const FIVE_MIN = 300_000;
export const HOUR = 3_600_000;

/** A row of `series` as both sides read it. */
export interface SeriesRow {
  id: number;
  host: string;
  service: string;
  metric: string;
  labels: string;
  step_ms: number | null;
  rolled_5m_until: number | null;
  rolled_1h_until: number | null;
}

export const SERIES_COLUMNS = 'id, host, service, metric, labels, step_ms, rolled_5m_until, rolled_1h_until';
