import type {
  DB_INSPECTION_DATA,
  DbInspection,
  DbInspectParams,
  PollerConfigOf,
  PollerFailure,
  PollerService,
  TableRef,
} from '@flightdeck/schemas';
import type { Logger } from 'pino';
import type { z } from 'zod';

/** The `data` an inspection answers with. */
export type InspectionData<I extends DbInspection> = z.infer<(typeof DB_INSPECTION_DATA)[I]>;

/** Outcome of one inspection: its data, or why the target could not answer it. */
export type InspectionResult<I extends DbInspection = DbInspection> =
  | { ok: true; data: InspectionData<I> }
  | PollerFailure;

/** What an inspection is asked: the table for `table_definition` and `table_counters`. */
export interface InspectionRequest {
  readonly inspection: DbInspection;
  readonly table?: TableRef | undefined;
}

/**
 * The live, on-demand side of a database engine (the database screen's calls). It opens its own
 * short-lived, read-only connection with the config's time-outs, answers, and closes it: nothing
 * stays open between two calls, and it never shares the poller's connections. Nothing rejects
 * except a programming error: a target that fails gives a failure result (`connection_failed`,
 * `auth_failed`, `timeout`, `not_found` for a table that does not exist...). Inspections an engine
 * does not have are simply absent from `supports`.
 */
export interface Inspector {
  readonly supports: readonly DbInspection[];
  inspect<I extends DbInspection>(
    request: InspectionRequest & { inspection: I },
  ): Promise<InspectionResult<I>>;
}

/** Builds the inspector of one target from its parsed config. */
export type InspectorFactory<S extends PollerService> = (
  config: PollerConfigOf<S>,
  options: { readonly logger: Logger },
) => Inspector;

export type { DbInspectParams };
