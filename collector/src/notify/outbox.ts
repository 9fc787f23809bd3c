import { NOTIFY_CHANNELS, type Notification, type NotifyChannel } from './contract';

/** Where a notification is in its life: waiting (first try or retry), delivered, or given up. */
export type OutboxState = 'pending' | 'sent' | 'failed';

/** A notification as the outbox keeps it. */
export interface OutboxItem {
  readonly id: string;
  readonly channel: NotifyChannel;
  /** `recipientKey(notification.recipient)`: one recipient's items go out in the order they came. */
  readonly recipientKey: string;
  readonly notification: Notification;
  /** Unix ms it was enqueued; the queue gives up on it `maxAgeMs` later. */
  readonly enqueuedAt: number;
  /** Sends tried so far. */
  readonly attempts: number;
  /** Unix ms before which it is not tried (back-off). */
  readonly nextAttemptAt: number;
  readonly lastError: string | null;
}

/** An outbox item with its state, for inspection. */
export interface OutboxRecord extends OutboxItem {
  readonly state: OutboxState;
  /** Unix ms it was sent or given up; null while pending. */
  readonly doneAt: number | null;
}

/** Pending items of a channel: never tried yet, and tried at least once. */
export interface PendingCounts {
  queued: number;
  retrying: number;
}

/**
 * The persistent side of the notification queue: an outbox table. A SQLite file here, the
 * metadata database later; an in-memory one for tests. Every method settles quickly (a local
 * write), so the alert engine can wait for `add` without waiting for any channel.
 */
export interface NotificationOutbox {
  /** Stores a new pending item; false (and nothing stored) when an item with this id exists, in any state. */
  add(item: Omit<OutboxItem, 'attempts' | 'lastError'>): Promise<boolean>;
  /**
   * The oldest pending item of each recipient of `channel`, earliest `nextAttemptAt` first (then
   * enqueue order), at most `limit`. Only a recipient's oldest item is offered, so its items go
   * out in order even when an earlier one waits for a retry.
   */
  heads(channel: NotifyChannel, limit: number): Promise<OutboxItem[]>;
  markSent(id: string, attempts: number, at: number): Promise<void>;
  markRetry(id: string, attempts: number, nextAttemptAt: number, error: string): Promise<void>;
  markFailed(id: string, attempts: number, at: number, reason: string): Promise<void>;
  get(id: string): Promise<OutboxRecord | undefined>;
  counts(): Promise<Record<NotifyChannel, PendingCounts>>;
  /** Deletes sent and failed items done before `before` (unix ms); their ids can then be enqueued again. */
  prune(before: number): Promise<number>;
  close(): Promise<void>;
}

/** Zero counts for every channel. */
export function emptyCounts(): Record<NotifyChannel, PendingCounts> {
  return Object.fromEntries(NOTIFY_CHANNELS.map((c) => [c, { queued: 0, retrying: 0 }])) as Record<
    NotifyChannel,
    PendingCounts
  >;
}

/** An outbox in memory: the same behaviour as the SQLite one, gone with the process. For tests. */
export function createMemoryOutbox(): NotificationOutbox {
  const items = new Map<string, OutboxRecord & { seq: number }>();
  let seq = 0;

  function update(id: string, patch: Partial<OutboxRecord>) {
    const item = items.get(id);
    if (item) items.set(id, { ...item, ...patch });
  }

  return {
    async add(item) {
      if (items.has(item.id)) return false;
      items.set(item.id, {
        ...item,
        attempts: 0,
        lastError: null,
        state: 'pending',
        doneAt: null,
        seq: ++seq,
      });
      return true;
    },
    async heads(channel, limit) {
      const first = new Map<string, OutboxRecord & { seq: number }>();
      for (const item of items.values()) {
        if (item.channel !== channel || item.state !== 'pending') continue;
        const held = first.get(item.recipientKey);
        if (!held || item.seq < held.seq) first.set(item.recipientKey, item);
      }
      return [...first.values()]
        .sort((a, b) => a.nextAttemptAt - b.nextAttemptAt || a.seq - b.seq)
        .slice(0, limit)
        .map(({ seq: _, state: __, doneAt: ___, ...item }) => item);
    },
    async markSent(id, attempts, at) {
      update(id, { state: 'sent', attempts, doneAt: at });
    },
    async markRetry(id, attempts, nextAttemptAt, error) {
      update(id, { attempts, nextAttemptAt, lastError: error });
    },
    async markFailed(id, attempts, at, reason) {
      update(id, { state: 'failed', attempts, doneAt: at, lastError: reason });
    },
    async get(id) {
      const item = items.get(id);
      if (!item) return undefined;
      const { seq: _, ...record } = item;
      return record;
    },
    async counts() {
      const counts = emptyCounts();
      for (const item of items.values()) {
        if (item.state !== 'pending') continue;
        if (item.attempts === 0) counts[item.channel].queued++;
        else counts[item.channel].retrying++;
      }
      return counts;
    },
    async prune(before) {
      let n = 0;
      for (const [id, item] of items) {
        if (item.state !== 'pending' && item.doneAt !== null && item.doneAt < before) {
          items.delete(id);
          n++;
        }
      }
      return n;
    },
    async close() {},
  };
}
