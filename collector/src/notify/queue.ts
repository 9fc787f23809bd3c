import type { ComponentHealth } from '@flightdeck/schemas';
import type { Logger } from 'pino';
import {
  describeRecipient,
  NOTIFY_CHANNELS,
  Notification,
  type Notifier,
  type NotifyChannel,
  NotifyError,
  recipientKey,
} from './contract';
import type { NotificationOutbox, OutboxItem } from './outbox';

export interface NotificationQueueOptions {
  /** One notifier per configured channel; notifications for other channels are refused at enqueue. */
  notifiers: Iterable<Notifier>;
  outbox: NotificationOutbox;
  logger: Logger;
  /** Sends in flight at once per channel (a number for all, or per channel). Default 4. */
  concurrency?: number | Partial<Record<NotifyChannel, number>>;
  /** First retry wait; it doubles with each attempt, with jitter. Default 1 s. */
  backoffBaseMs?: number;
  /** Longest wait between attempts. Default 5 min. */
  backoffMaxMs?: number;
  /** A notification not delivered this long after it was enqueued is given up. Default 24 h. */
  maxAgeMs?: number;
  /** One attempt longer than this counts as failed (retryable), even if the notifier ignores its signal. Default 30 s. */
  sendTimeoutMs?: number;
  /** Delivered and given-up items are kept (and their ids deduped) this long. Default 7 days. */
  keepDoneMs?: number;
  /** Unix ms; injectable for tests of the give-up age. */
  now?: () => number;
  /** [0, 1); injectable to make the jitter predictable. */
  random?: () => number;
}

/** What `enqueue` did: stored it, found its id already there, or has no notifier for its channel. */
export type EnqueueResult = 'queued' | 'duplicate' | 'unconfigured';

/** The last failed attempt of a channel. */
export interface LastNotifyError {
  at: number;
  message: string;
  notificationId: string;
}

/**
 * One channel's figures. `queued` (never tried) and `retrying` (tried, waiting for the next try)
 * come from the outbox and include the items in flight; `sent`, `failed` (given up) and `retries`
 * count since the queue started.
 */
export interface ChannelStats {
  configured: boolean;
  queued: number;
  retrying: number;
  inFlight: number;
  sent: number;
  failed: number;
  retries: number;
  lastError: LastNotifyError | null;
  lastSentAt: number | null;
}

/**
 * Delivers notifications without ever holding up the caller: `enqueue` stores the notification in
 * the outbox and returns; per-channel workers send in the background with bounded concurrency,
 * retry retryable failures with exponential back-off and jitter, and give up after `maxAgeMs`
 * with the reason recorded. A slow or failing channel only occupies its own workers.
 *
 * Exactly once from the queue's side: an item is marked sent right after the service accepted it
 * and is never offered again, and a second `enqueue` with the same id is a no-op. (A process that
 * dies between the service's acceptance and that mark sends the item again after its restart.)
 * One recipient's notifications go out in the order they were enqueued.
 */
export interface NotificationQueue {
  enqueue(notification: Notification): Promise<EnqueueResult>;
  stats(): Promise<Record<NotifyChannel, ChannelStats>>;
  /** `degraded` while a channel has notifications waiting for a retry; `down` when the outbox cannot be read. */
  health(): Promise<ComponentHealth>;
  /**
   * Stops taking work, lets sends in flight finish for up to `graceMs` (default 5 s), then cancels
   * the rest, which stay pending for the next start. Does not close the outbox or the notifiers.
   */
  close(graceMs?: number): Promise<void>;
}

interface Worker {
  readonly channel: NotifyChannel;
  readonly notifier: Notifier;
  readonly concurrency: number;
  readonly inFlight: Map<string, { controller: AbortController; done: Promise<void> }>;
  /** Recipients with an item in flight (or held after an outbox write failed): their next item waits. */
  readonly busy: Set<string>;
  /** Items delivered whose "sent" mark could not be written yet, with their attempt count: never resent. */
  readonly unrecorded: Map<string, number>;
  filling: boolean;
  fillAgain: boolean;
  timer: NodeJS.Timeout | undefined;
  timerAt: number;
  sent: number;
  failed: number;
  retries: number;
  lastError: LastNotifyError | null;
  lastSentAt: number | null;
}

const HOUR = 3_600_000;
/** Wait before touching the outbox again after it failed. */
const OUTBOX_RETRY_MS = 5_000;
/** setTimeout's longest delay. */
const MAX_TIMER_MS = 2 ** 31 - 1;

function formatAge(ms: number): string {
  return ms >= HOUR ? `${(ms / HOUR).toFixed(1)} h` : `${Math.round(ms / 1000)} s`;
}

/** Starts the queue: workers begin at once with what the outbox already holds. */
export function createNotificationQueue(options: NotificationQueueOptions): NotificationQueue {
  const { outbox, logger } = options;
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const backoffBaseMs = options.backoffBaseMs ?? 1_000;
  const backoffMaxMs = options.backoffMaxMs ?? 300_000;
  const maxAgeMs = options.maxAgeMs ?? 24 * HOUR;
  const sendTimeoutMs = options.sendTimeoutMs ?? 30_000;
  const keepDoneMs = options.keepDoneMs ?? 7 * 24 * HOUR;
  let closed = false;

  const workers = new Map<NotifyChannel, Worker>();
  for (const notifier of options.notifiers) {
    const c = options.concurrency;
    const concurrency = Math.max(1, (typeof c === 'number' ? c : c?.[notifier.channel]) ?? 4);
    workers.set(notifier.channel, {
      channel: notifier.channel,
      notifier,
      concurrency,
      inFlight: new Map(),
      busy: new Set(),
      unrecorded: new Map(),
      filling: false,
      fillAgain: false,
      timer: undefined,
      timerAt: Number.POSITIVE_INFINITY,
      sent: 0,
      failed: 0,
      retries: 0,
      lastError: null,
      lastSentAt: null,
    });
  }

  /** Wait before attempt `attempts + 1`: base·2^(attempts-1) capped at the max, the upper half jittered. */
  function backoff(attempts: number): number {
    const d = Math.min(backoffMaxMs, backoffBaseMs * 2 ** Math.min(attempts - 1, 30));
    return d / 2 + random() * (d / 2);
  }

  /** Wakes the worker at `at` unless an earlier wake is set. */
  function wakeAt(w: Worker, at: number) {
    if (closed || (w.timer && w.timerAt <= at)) return;
    clearTimeout(w.timer);
    w.timerAt = at;
    w.timer = setTimeout(
      () => {
        w.timer = undefined;
        w.timerAt = Number.POSITIVE_INFINITY;
        void fill(w);
      },
      Math.min(MAX_TIMER_MS, Math.max(0, at - now())),
    );
    w.timer.unref();
  }

  /** Starts due items up to the worker's concurrency and sets a wake for the next one not due yet. */
  async function fill(w: Worker): Promise<void> {
    if (closed) return;
    if (w.filling) {
      w.fillAgain = true;
      return;
    }
    w.filling = true;
    try {
      do {
        w.fillAgain = false;
        const free = w.concurrency - w.inFlight.size;
        if (free <= 0) break;
        // Busy recipients' heads are among the rows; one more than needed finds the next wake.
        const heads = await outbox.heads(w.channel, w.concurrency + 1);
        if (closed) break;
        const t = now();
        let started = 0;
        for (const item of heads) {
          if (w.busy.has(item.recipientKey)) continue;
          if (item.nextAttemptAt > t) {
            wakeAt(w, item.nextAttemptAt);
            break;
          }
          if (started === free) break;
          start(w, item);
          started++;
        }
      } while (w.fillAgain && !closed);
    } catch (err) {
      logger.warn({ err, channel: w.channel }, 'notification outbox could not be read; trying again shortly');
      wakeAt(w, now() + OUTBOX_RETRY_MS);
    } finally {
      w.filling = false;
    }
  }

  function start(w: Worker, item: OutboxItem) {
    const controller = new AbortController();
    w.busy.add(item.recipientKey);
    const done = deliver(w, item, controller).then((recorded) => {
      w.inFlight.delete(item.id);
      if (recorded) {
        w.busy.delete(item.recipientKey);
        void fill(w);
      } else {
        // The outbox did not take the outcome: hold the recipient a moment rather than spin on it.
        setTimeout(() => {
          w.busy.delete(item.recipientKey);
          void fill(w);
        }, OUTBOX_RETRY_MS).unref();
      }
    });
    w.inFlight.set(item.id, { controller, done });
  }

  /** Runs `write` against the outbox; false (and an error log naming the item) when it failed. */
  async function record(w: Worker, item: OutboxItem, what: string, write: () => Promise<void>) {
    try {
      await write();
      return true;
    } catch (err) {
      logger.error({ err, channel: w.channel, id: item.id }, `notification outbox could not record ${what}`);
      return false;
    }
  }

  /** One attempt at one item and its outcome written to the outbox; false when that write failed. */
  async function deliver(w: Worker, item: OutboxItem, controller: AbortController): Promise<boolean> {
    const attempts = item.attempts + 1;
    const recorded = w.unrecorded.get(item.id);
    if (recorded !== undefined) {
      const ok = await record(w, item, 'a delivery', () => outbox.markSent(item.id, recorded, now()));
      if (ok) w.unrecorded.delete(item.id);
      return ok;
    }

    let error: NotifyError | undefined;
    try {
      await attempt(w.notifier, item.notification, controller.signal);
    } catch (err) {
      error = err instanceof NotifyError ? err : unexpected(w, item, err);
    }
    const t = now();
    if (!error) {
      w.sent++;
      w.lastSentAt = t;
      const ok = await record(w, item, 'a delivery', () => outbox.markSent(item.id, attempts, t));
      if (!ok) w.unrecorded.set(item.id, attempts);
      return ok;
    }
    // Cancelled by close(): not an attempt; it stays pending for the next start.
    if (controller.signal.aborted) return true;

    const recipient = describeRecipient(item.notification.recipient);
    w.lastError = { at: t, message: error.message, notificationId: item.id };
    const deadline = item.enqueuedAt + maxAgeMs;
    if (!error.retryable || t >= deadline) {
      const reason = error.retryable
        ? `gave up after ${attempts} attempts in ${formatAge(t - item.enqueuedAt)}: ${error.message}`
        : error.message;
      w.failed++;
      logger.warn(
        { channel: w.channel, id: item.id, recipient, attempts, reason },
        'notification not delivered',
      );
      return record(w, item, 'a failure', () => outbox.markFailed(item.id, attempts, t, reason));
    }
    const next = Math.min(deadline, t + Math.max(0, error.retryAfterMs ?? backoff(attempts)));
    w.retries++;
    logger.warn(
      {
        channel: w.channel,
        id: item.id,
        recipient,
        attempts,
        retryInMs: Math.round(next - t),
        error: error.message,
      },
      'notification send failed; will retry',
    );
    return record(w, item, 'a retry', () => outbox.markRetry(item.id, attempts, next, error.message));
  }

  /** A notifier that threw something other than NotifyError: logged as the bug it is, and retried. */
  function unexpected(w: Worker, item: OutboxItem, err: unknown): NotifyError {
    logger.error({ err, channel: w.channel, id: item.id }, 'notifier failed unexpectedly');
    const message = err instanceof Error ? err.message : String(err);
    return new NotifyError(`${w.channel}: ${message}`, { retryable: true, cause: err });
  }

  /**
   * One send, bounded by `sendTimeoutMs` and by close(), even when the notifier does not watch its
   * signal: the slot is freed and the attempt counts as a retryable failure.
   */
  function attempt(notifier: Notifier, n: Notification, cancel: AbortSignal): Promise<void> {
    // A timer of its own rather than AbortSignal.timeout() inside AbortSignal.any(): Node may
    // collect that timeout signal before it fires, and a notifier ignoring its signal would then
    // hold its slot for ever.
    const controller = new AbortController();
    const onCancel = () => controller.abort(cancel.reason);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error(`no answer within ${sendTimeoutMs} ms`));
    }, sendTimeoutMs);
    const signal = controller.signal;
    return new Promise<void>((resolve, reject) => {
      const settle = () => {
        clearTimeout(timer);
        cancel.removeEventListener('abort', onCancel);
        signal.removeEventListener('abort', onAbort);
      };
      const onAbort = () => {
        settle();
        reject(
          new NotifyError(
            timedOut
              ? `${notifier.channel}: no answer within ${sendTimeoutMs} ms`
              : `${notifier.channel}: cancelled, the queue is closing`,
            { retryable: true },
          ),
        );
      };
      if (cancel.aborted) return onAbort();
      cancel.addEventListener('abort', onCancel, { once: true });
      signal.addEventListener('abort', onAbort, { once: true });
      notifier.send(n, signal).then(
        () => {
          settle();
          resolve();
        },
        (err: unknown) => {
          settle();
          reject(err);
        },
      );
    });
  }

  async function prune() {
    try {
      const n = await outbox.prune(now() - keepDoneMs);
      if (n > 0) logger.debug({ removed: n }, 'notification outbox pruned');
    } catch (err) {
      logger.warn({ err }, 'notification outbox could not be pruned');
    }
  }
  async function stats(): Promise<Record<NotifyChannel, ChannelStats>> {
    const counts = await outbox.counts();
    const out = {} as Record<NotifyChannel, ChannelStats>;
    for (const channel of NOTIFY_CHANNELS) {
      const w = workers.get(channel);
      out[channel] = {
        configured: w !== undefined,
        ...counts[channel],
        inFlight: w?.inFlight.size ?? 0,
        sent: w?.sent ?? 0,
        failed: w?.failed ?? 0,
        retries: w?.retries ?? 0,
        lastError: w?.lastError ?? null,
        lastSentAt: w?.lastSentAt ?? null,
      };
    }
    return out;
  }

  const pruneTimer = setInterval(() => void prune(), HOUR);
  pruneTimer.unref();
  void prune();
  for (const w of workers.values()) void fill(w);

  return {
    async enqueue(input) {
      if (closed) throw new Error('the notification queue is closed');
      const n = Notification.parse(input);
      const channel = n.recipient.channel;
      const w = workers.get(channel);
      if (!w) {
        logger.warn(
          { channel, id: n.id, recipient: describeRecipient(n.recipient) },
          'notification refused: its channel is not configured',
        );
        return 'unconfigured';
      }
      const t = now();
      const added = await outbox.add({
        id: n.id,
        channel,
        recipientKey: recipientKey(n.recipient),
        notification: n,
        enqueuedAt: t,
        nextAttemptAt: t,
      });
      if (!added) return 'duplicate';
      void fill(w);
      return 'queued';
    },

    stats,

    async health() {
      let figures: Record<NotifyChannel, ChannelStats>;
      try {
        figures = await stats();
      } catch (err) {
        return { state: 'down', detail: `the notification outbox cannot be read: ${(err as Error).message}` };
      }
      const troubled = NOTIFY_CHANNELS.filter((c) => figures[c].configured && figures[c].retrying > 0).map(
        (c) =>
          `${c}: ${figures[c].retrying} waiting for a retry (${figures[c].lastError?.message ?? 'no error kept'})`,
      );
      return troubled.length ? { state: 'degraded', detail: troubled.join('; ') } : { state: 'ok' };
    },

    async close(graceMs = 5_000) {
      if (closed) return;
      closed = true;
      clearInterval(pruneTimer);
      for (const w of workers.values()) clearTimeout(w.timer);
      const all = () => [...workers.values()].flatMap((w) => [...w.inFlight.values()].map((f) => f.done));
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled(all()),
        new Promise<void>((resolve) => {
          grace = setTimeout(resolve, graceMs);
        }),
      ]);
      clearTimeout(grace);
      for (const w of workers.values()) for (const f of w.inFlight.values()) f.controller.abort();
      await Promise.allSettled(all());
    },
  };
}
