import type {
  ConnectionTestResult,
  PollerConfigOf,
  PollerExtras,
  PollerFailure,
  PollerService,
  Sample,
} from '@flightdeck/schemas';
import type { Logger } from 'pino';

/**
 * What a poller measures: a metric name, its labels and a value. The scheduler stamps the batch
 * time and the batch's `service`, so a poller sets neither.
 */
export type PollSample = Pick<Sample, 'm' | 'l' | 'v'>;

/** A poll that reached the target: its samples and, for databases and URLs, the lists beside them. */
export interface PollSuccess {
  ok: true;
  samples: PollSample[];
  extras?: PollerExtras;
}

/**
 * Outcome of one poll. A failure means the target could not be measured at all (unreachable,
 * credentials refused, no answer in time): the scheduler marks it unavailable. A section that
 * failed on its own (a view the user may not read) is logged as a warning and left out.
 */
export type PollResult = PollSuccess | PollerFailure;

/** What every poller is given besides its config. */
export interface PollerOptions {
  /** Warnings about a part of a target that could not be read go here, naming the target. */
  readonly logger: Logger;
}

/**
 * One registered target of an agentless service (CONVENTIONS habit 5): it only measures. The
 * scheduler owns timing, retries and publishing; it never calls `poll` again while a poll is
 * pending, and calls `close` once when the target is removed or the collector stops.
 *
 * Every connection and every query has a time-out taken from the config, so each call settles on
 * its own. Nothing rejects except a programming error: a target that fails gives a failure result.
 */
export interface Poller {
  readonly service: PollerService;
  /** `host:port` or the URL: how messages and logs name the target. */
  readonly target: string;
  /**
   * Connects as a poll would and says what answered: the version and a few facts, or why not. A
   * different engine on the port gives `wrong_engine` rather than a driver's protocol error.
   */
  testConnection(): Promise<ConnectionTestResult>;
  /**
   * Measures the target. `now` is unix ms of this run: counters become rates against the previous
   * successful poll, so the first poll (and the first after a counter reset) has no rates.
   */
  poll(now: number): Promise<PollResult>;
  /** Closes the target's connections. */
  close(): Promise<void>;
}

/** Builds the poller of one target from its parsed config. */
export type PollerFactory<S extends PollerService> = (
  config: PollerConfigOf<S>,
  options: PollerOptions,
) => Poller;
