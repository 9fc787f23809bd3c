import type { Heartbeat, Sample } from '@flightdeck/schemas/wire';
import type { Logger } from 'pino';

/**
 * What a collector measures: a metric name, its labels and a value. The scheduler stamps the batch
 * time, so a collector never sets `t`.
 */
export type SampleLike = Pick<Sample, 'm' | 'l' | 'v'>;

/** What a collector may add to the agent's heartbeat besides its samples: the top process lists. */
export type HeartbeatExtras = Pick<Heartbeat, 'top_processes'>;

/** What the scheduler hands a collector on every run. */
export interface CollectContext {
  /** Where `/proc` is mounted: `/proc` on the host, `/host/proc` in a container, a fixture folder in tests. */
  readonly procRoot: string;
  /** Unix ms of this run; collectors turn counters into rates against the previous run's `now`. */
  readonly now: number;
  /** Warnings about a file or a target that could not be read go here, naming it. */
  readonly logger: Logger;
}

/**
 * A probe of one part of the host (DESIGN section 1, CONVENTIONS habit 5). It only measures: the
 * scheduler owns timing, time-outs and publishing.
 *
 * `collect` resolves with whatever it could read. A missing file or a line it does not understand is
 * logged as a warning naming the file and left out; it does not reject. A collector keeps its own
 * previous reading to turn counters into rates, so the first run of a rate collector returns nothing
 * for those metrics. The scheduler never calls `collect` again while the previous call is pending.
 */
export interface Collector {
  /** Stable and short (`cpu`, `filesystem`); used in logs. */
  readonly name: string;
  collect(ctx: CollectContext): Promise<SampleLike[]>;
  /**
   * Optional: what the last completed `collect` adds to the heartbeat (lists that are not time
   * series, such as the top processes). The agent asks after a run in which this collector succeeded.
   */
  heartbeat?(): HeartbeatExtras | undefined;
}
